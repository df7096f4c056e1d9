import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { type IndexedHit, InvertedIndex, type QueryPart, tokens } from '../../../../../electron/core/search/invertedIndex.js';
import { hasPhrases, parseQuery, snippetOf } from '../../../../../electron/core/search/searchQuery.js';

const words = (...w: string[]) => w.map((term) => ({ term, prefix: false }));

describe('InvertedIndex', () => {
  it('ranks by BM25: more occurrences in a shorter text first, rare words weigh more, every word must match', () => {
    const ix = new InvertedIndex();
    ix.add('a', 'otters otters otters swim');
    ix.add('b', 'an otter and otters swim in the long river with many other animals around them');
    ix.add('c', 'rivers and lakes');
    ix.add('d', 'otters and rivers');
    expect(ix.search(words('otters')).map((h) => h.key)).toEqual(['a', 'd', 'b']);
    expect(ix.search(words('otters', 'rivers')).map((h) => h.key)).toEqual(['d']);
    expect(ix.search(words('otters', 'penguins'))).toEqual([]);
    // The path's words count, boosted.
    ix.add('e', 'nothing here', 'invoices/otters.txt');
    expect(ix.search(words('invoices')).map((h) => h.key)).toEqual(['e']);
  });

  it('prefixes match every word that starts with them', () => {
    const ix = new InvertedIndex();
    ix.add('a', 'sanctuary');
    ix.add('b', 'sanctions');
    ix.add('c', 'sand');
    expect(
      ix
        .search([{ term: 'sanct', prefix: true }])
        .map((h) => h.key)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(ix.search([{ term: 'san', prefix: true }])).toHaveLength(3);
  });

  it('replacing and removing documents leaves no trace, also after sweeps dropped their postings and new documents took their slots', () => {
    const ix = new InvertedIndex();
    ix.add('keep', 'alpha beta');
    for (let i = 0; i < 25_000; i++) ix.add(`tmp${i % 100}`, `gamma unique${i}`);
    ix.add('keep', 'alpha delta');
    expect(ix.search(words('beta'))).toEqual([]);
    expect(ix.search(words('alpha')).map((h) => h.key)).toEqual(['keep']);
    expect(ix.search(words('gamma'))).toHaveLength(100);
    for (let i = 0; i < 100; i++) ix.remove(`tmp${i}`);
    for (let i = 0; i < 20_000; i++) {
      ix.add(`churn${i}`, 'epsilon');
      ix.remove(`churn${i}`);
    }
    expect(ix.search(words('gamma'))).toEqual([]);
    expect(ix.search(words('unique24999'))).toEqual([]);
    expect(ix.search(words('delta')).map((h) => h.key)).toEqual(['keep']);
    expect(ix.size).toBe(1);
    expect(ix.checkConsistency()).toEqual([]);
  });

  it('filters by key while scoring', () => {
    const ix = new InvertedIndex();
    ix.add('x/1', 'word');
    ix.add('y/1', 'word');
    expect(ix.search(words('word'), (k) => k.startsWith('y/')).map((h) => h.key)).toEqual(['y/1']);
  });

  it('tokenizes letters, digits and underscores in any script, and drops tokens longer than 64', () => {
    expect(tokens('Größe: 12 μέτρα, snake_case and ' + 'x'.repeat(65))).toEqual(['größe', '12', 'μέτρα', 'snake_case', 'snake', 'case', 'and']);
  });
});

/** What the index should answer, by brute force over the live documents' words. */
class Reference {
  private readonly docs = new Map<string, { counts: Map<string, number>; length: number; seq: number }>();
  private added = 0;

  add(key: string, text: string, boosted = ''): void {
    const counts = new Map<string, number>();
    let length = 0;
    for (const [words, weight] of [
      [tokens(text), 1],
      [tokens(boosted), 3],
    ] as const) {
      for (const t of words) counts.set(t, (counts.get(t) ?? 0) + weight);
      length += words.length * weight;
    }
    this.docs.set(key, { counts, length, seq: this.added++ });
  }

  remove(key: string): void {
    this.docs.delete(key);
  }

  keys(): string[] {
    return [...this.docs.keys()];
  }

  wordsOf(key: string): string[] {
    return [...(this.docs.get(key)?.counts.keys() ?? [])];
  }

  seqOf(key: string): number {
    return this.docs.get(key)?.seq ?? -1;
  }

  /** The keys holding every part (a prefix: any word starting with it), sorted. */
  matches(parts: readonly QueryPart[]): string[] {
    const holds = (counts: Map<string, number>, p: QueryPart) => (p.prefix ? [...counts.keys()].some((t) => t.startsWith(p.term)) : counts.has(p.term));
    return [...this.docs]
      .filter(([, d]) => parts.every((p) => holds(d.counts, p)))
      .map(([k]) => k)
      .sort();
  }

  /** BM25 of each matching key with every document frequency counted over the live documents (the index's, once swept). */
  scores(parts: readonly QueryPart[]): Map<string, number> {
    const n = this.docs.size;
    let total = 0;
    const df = new Map<string, number>();
    for (const d of this.docs.values()) {
      total += d.length;
      for (const t of d.counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const avg = total / n || 1;
    const out = new Map<string, number>();
    for (const key of this.matches(parts)) {
      const d = this.docs.get(key)!;
      let score = 0;
      for (const p of parts) {
        let best = 0;
        for (const [t, count] of d.counts) {
          if (p.prefix ? !t.startsWith(p.term) : t !== p.term) continue;
          const f = df.get(t)!;
          const idf = Math.log(1 + (n - f + 0.5) / (f + 0.5));
          const tf = Math.min(count, 255);
          best = Math.max(best, (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg)));
        }
        score += best;
      }
      out.set(key, score);
    }
    return out;
  }
}

/** The index's hits against the reference: the same files; best first, equal scores in the order they were added. */
function expectSameHits(hits: IndexedHit[], ref: Reference, parts: readonly QueryPart[], exactScores: boolean): void {
  expect(hits.map((h) => h.key).sort()).toEqual(ref.matches(parts));
  for (let i = 1; i < hits.length; i++) {
    const [a, b] = [hits[i - 1]!, hits[i]!];
    expect(a.score > b.score || (a.score === b.score && ref.seqOf(a.key) < ref.seqOf(b.key))).toBe(true);
  }
  if (!exactScores) return;
  const scores = ref.scores(parts);
  for (const h of hits) expect(h.score).toBeCloseTo(scores.get(h.key)!, 9);
}

const word = (i: number) => `w${i}`;

describe('InvertedIndex against a brute-force reference', () => {
  type Op =
    | { kind: 'add'; key: number; words: number[]; path: boolean }
    | { kind: 'twin'; key: number; of: number }
    | { kind: 'remove'; key: number }
    | { kind: 'churn'; n: number; words: number[] }
    | { kind: 'step'; budget: number }
    | { kind: 'compact' }
    | { kind: 'query'; pick: number; width: number; prefix: boolean; extra: number | null };
  // A vocabulary of 200,000 words, ten of them common (w0…w9), so queries range from every file to one.
  const vocabulary = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 10, max: 199_999 }));
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constant('add' as const), key: fc.nat(40), words: fc.array(vocabulary, { maxLength: 40 }), path: fc.boolean() }),
    },
    // The same text as another document: equal scores, which must come in the order the documents were added.
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('twin' as const), key: fc.nat(40), of: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), key: fc.nat(40) }) },
    // Many documents added and removed at once: more dead than live, so a sweep starts.
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('churn' as const),
        n: fc.integer({ min: 1, max: 60 }),
        words: fc.array(vocabulary, { minLength: 1, maxLength: 20 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('step' as const), budget: fc.integer({ min: 1, max: 80 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'compact' as const }) },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('query' as const),
        pick: fc.nat(),
        width: fc.integer({ min: 1, max: 3 }),
        prefix: fc.boolean(),
        extra: fc.option(vocabulary),
      }),
    },
  );

  /** Words of a live document (the first `width`), cut to a prefix when asked, and maybe a word from anywhere. */
  function queryOf(ref: Reference, q: Extract<Op, { kind: 'query' }>): QueryPart[] {
    const keys = ref.keys();
    const words = keys.length ? ref.wordsOf(keys[q.pick % keys.length]!).slice(0, q.width) : [];
    const parts = words.map((term) => (q.prefix && term.length > 3 ? { term: term.slice(0, -1), prefix: true } : { term, prefix: false }));
    if (q.extra !== null) parts.push({ term: word(q.extra), prefix: false });
    return parts;
  }

  it('answers as the reference and stays consistent through adds, updates, removes and sweeps paused anywhere', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 150 }), (ops) => {
        // Sweeps start after a few dead documents, and an add sweeps little: most sequences pause sweeps halfway.
        const ix = new InvertedIndex({ fromDocs: 4, fromPostings: 60, perAdd: 3 });
        const ref = new Reference();
        let churned = 0;
        for (const o of ops) {
          if (o.kind === 'add') {
            const text = o.words.map(word).join(' ');
            const path = o.path ? `dir/${word(o.words[0] ?? 0)}.txt` : '';
            ix.add(`k${o.key}`, text, path);
            ref.add(`k${o.key}`, text, path);
          } else if (o.kind === 'twin') {
            const keys = ref.keys();
            const text = keys.length ? ref.wordsOf(keys[o.of % keys.length]!).join(' ') : 'w0';
            ix.add(`k${o.key}`, text);
            ref.add(`k${o.key}`, text);
          } else if (o.kind === 'remove') {
            expect(ix.remove(`k${o.key}`)).toBe(ref.keys().includes(`k${o.key}`));
            ref.remove(`k${o.key}`);
          } else if (o.kind === 'churn') {
            const keys = Array.from({ length: o.n }, () => `churn${churned++}`);
            for (const k of keys) ix.add(k, o.words.map(word).join(' '));
            for (const k of keys) expect(ix.remove(k)).toBe(true);
          } else if (o.kind === 'step') ix.compactStep(o.budget);
          else if (o.kind === 'compact') ix.compact();
          else {
            const parts = queryOf(ref, o);
            if (parts.length > 0) expectSameHits(ix.search(parts), ref, parts, false);
          }
          expect(ix.checkConsistency()).toEqual([]);
          expect(ix.size).toBe(ref.keys().length);
        }
        // Swept to the end, the document frequencies are the live documents' own: the scores are the reference's too.
        ix.compact();
        expect(ix.checkConsistency()).toEqual([]);
        for (const key of ref.keys()) {
          for (const term of ref.wordsOf(key).slice(0, 2)) expectSameHits(ix.search([{ term, prefix: false }]), ref, [{ term, prefix: false }], true);
        }
      }),
      { seed: 20270101, numRuns: 300 },
    );
  });
});

describe('InvertedIndex sweeps', () => {
  it('finds a word of log1234 in log1234 only, with 200,000 distinct words, after 12,000 other documents went (issue 37 item 5)', () => {
    const ix = new InvertedIndex();
    const ref = new Reference();
    const addBoth = (key: string, text: string, boosted?: string) => {
      ix.add(key, text, boosted);
      ref.add(key, text, boosted);
    };
    const log = (i: number) => Array.from({ length: 100 }, (_, j) => `line ${j}: event w${i}x${j} happened`).join('\n');
    // The small ones first: they hold the low slots, and their words the low term ids.
    for (let k = 0; k < 12_000; k++) ix.add(`cache/c${k}.txt`, `cached note n${k}`, `cache/c${k}.txt`);
    for (let i = 0; i < 2000; i++) addBoth(`logs/log${i}.txt`, log(i), `logs/log${i}.txt`);
    expect(ix.stats().terms).toBeGreaterThan(200_000);
    for (let k = 0; k < 12_000; k++) expect(ix.remove(`cache/c${k}.txt`)).toBe(true);
    expect(ix.compacting).toBe(true);
    const probe = () => {
      for (const [i, j] of [
        [1234, 56],
        [0, 0],
        [1999, 99],
        [1056, 7],
      ] as const) {
        expect(ix.search([{ term: `w${i}x${j}`, prefix: false }]).map((h) => h.key)).toEqual([`logs/log${i}.txt`]);
      }
      expect(ix.search([{ term: 'cached', prefix: false }])).toEqual([]);
      expectSameHits(ix.search([{ term: 'w1234x5', prefix: true }]), ref, [{ term: 'w1234x5', prefix: true }], false);
    };
    // Paused anywhere, the sweep leaves a whole index; new documents meanwhile take new slots.
    let steps = 0;
    while (ix.compacting) {
      ix.compactStep(20_000);
      if (++steps % 10 === 0) {
        expect(ix.checkConsistency()).toEqual([]);
        probe();
        addBoth(`logs/new${steps}.txt`, `fresh${steps} happened`);
      }
    }
    expect(steps).toBeGreaterThan(10);
    expect(ix.checkConsistency()).toEqual([]);
    probe();
    // Swept (the 10,001 dead when it began; the 1,999 after wait for the next): their words are gone, and their
    // slots go to new documents, found by their own words only.
    expect(ix.stats().terms).toBeLessThan(210_000);
    const slots = ix.stats().slots;
    for (let k = 0; k < 5000; k++) addBoth(`later/l${k}.txt`, `later w1234x56b n${k}`);
    expect(ix.stats().slots).toBe(slots);
    probe();
    expect(ix.search([{ term: 'n77', prefix: false }]).map((h) => h.key)).toEqual(['later/l77.txt']);
    expectSameHits(ix.search([{ term: 'happened', prefix: false }]), ref, [{ term: 'happened', prefix: false }], true);
    expect(ix.checkConsistency()).toEqual([]);
  });

  it('equal scores come in the order the documents were added, also in slots freed by a sweep', () => {
    const ix = new InvertedIndex({ fromDocs: 2, fromPostings: 1000, perAdd: 1000 });
    ix.add('old', 'otter');
    for (let i = 0; i < 5; i++) ix.add(`gone${i}`, 'seal');
    for (let i = 0; i < 5; i++) ix.remove(`gone${i}`);
    ix.compact();
    ix.add('new', 'otter'); // takes a slot below old's
    expect(ix.search(words('otter')).map((h) => h.key)).toEqual(['old', 'new']);
    expect(ix.stats().slots).toBe(6);
  });

  it('a big file changing again and again does not pile up its old postings', () => {
    // The product's thresholds but a tenth of its million dead postings, so the test takes a second.
    const ix = new InvertedIndex({ fromDocs: 10_000, fromPostings: 100_000, perAdd: 256 });
    ix.add('small', 'otter');
    const text = (v: number) => Array.from({ length: 1000 }, (_, j) => `w${j}`).join(' ') + ` version${v}`;
    let most = 0;
    for (let v = 0; v < 1000; v++) {
      ix.add('big.log', text(v));
      most = Math.max(most, ix.stats().postings);
    }
    // 1,000 versions × 1,001 postings held a million; swept once the dead outnumber the live ones (and pass 100,000).
    expect(most).toBeLessThan(150_000);
    expect(ix.search(words('version999')).map((h) => h.key)).toEqual(['big.log']);
    expect(ix.search(words('version998'))).toEqual([]);
    expect(ix.checkConsistency()).toEqual([]);
  });
});

describe('InvertedIndex top-k', () => {
  /** A random corpus: few words, so scores tie often; some documents removed, so dead slots sit among the postings. */
  const corpus = fc.record({
    docs: fc.array(fc.array(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 120 }),
    removed: fc.array(fc.nat(), { maxLength: 20 }),
    twins: fc.integer({ min: 0, max: 20 }),
  });
  const query = fc.array(fc.record({ w: fc.integer({ min: 0, max: 11 }), prefix: fc.boolean() }), { minLength: 1, maxLength: 3 });
  const vocab = ['otter', 'otters', 'seal', 'sealion', 'swim', 'river', 'riverbank', 'fish', 'fishing', 'kelp', 'sea', 'seabed'];
  const build = (c: { docs: number[][]; removed: number[]; twins: number }) => {
    const ix = new InvertedIndex({ fromDocs: 3, fromPostings: 20, perAdd: 2 });
    c.docs.forEach((d, i) => ix.add(`d${i}`, d.map((w) => vocab[w]).join(' ')));
    // Identical documents: equal scores, ranked in the order they were added.
    for (let t = 0; t < c.twins; t++) ix.add(`twin${t}`, vocab.slice(0, 4).join(' '));
    for (const r of c.removed) ix.remove(`d${r % c.docs.length}`);
    return ix;
  };

  it("gives a full sort's page, ties broken the same, for any page, filter and query on random corpora", () => {
    fc.assert(
      fc.property(
        corpus,
        query,
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 30 }),
        fc.option(fc.integer({ min: 2, max: 5 })),
        (c, q, offset, k, mod) => {
          const ix = build(c);
          const parts = q.map(({ w, prefix }) => ({ term: prefix ? (vocab[w] as string).slice(0, 3) : (vocab[w] as string), prefix }));
          const accept = mod === null ? null : (key: string) => key.length % mod !== 0;
          // top() first: on a fresh index its scratch is grown by this very query.
          const page = ix.top(parts, k, { offset, accept });
          const all = ix.search(parts, accept);
          expect(page.hits).toEqual(all.slice(offset, offset + k));
          expect(page.total).toBe(all.length);
          expect(page.partial).toBe(false);
          // The same query again gives the same page (the scratch is clean between queries).
          expect(ix.top(parts, k, { offset, accept }).hits).toEqual(page.hits);
        },
      ),
      { seed: 4242, numRuns: 400 },
    );
  });

  it('reads at most maxScanned postings, says the page is partial, and gives only real matches, best first', () => {
    const ix = new InvertedIndex();
    for (let i = 0; i < 500; i++) ix.add(`n${i}`, `${'common '.repeat(1 + (i % 7))}${i % 3 === 0 ? 'rare' : ''}`);
    const full = ix.top(words('common', 'rare'), 10);
    expect(full).toMatchObject({ total: 167, partial: false, scanned: 667 });
    const capped = ix.top(words('common', 'rare'), 10, { maxScanned: 300 });
    expect(capped.partial).toBe(true);
    expect(capped.scanned).toBeLessThanOrEqual(300);
    expect(capped.total).toBeGreaterThan(0);
    expect(capped.total).toBeLessThan(167);
    const reference = new Map(ix.search(words('common', 'rare')).map((h) => [h.key, h.score]));
    for (const h of capped.hits) expect(reference.get(h.key)).toBe(h.score);
    expect(capped.hits.map((h) => h.score)).toEqual([...capped.hits.map((h) => h.score)].sort((a, b) => b - a));
    // A prefix's most frequent words are read first: a cut leaves out the rarest.
    const px = new InvertedIndex();
    for (let i = 0; i < 50; i++) px.add(`p${i}`, i < 40 ? 'kelpie' : `kelp${i}`);
    const cut = px.top([{ term: 'kelp', prefix: true }], 100, { maxScanned: 40 });
    expect(cut).toMatchObject({ partial: true, total: 40, scanned: 40 });
    expect(cut.hits.every((h) => Number(h.key.slice(1)) < 40)).toBe(true);
  });

  it('a cursor past every match gives an empty page, and k 0 still counts', () => {
    const ix = new InvertedIndex();
    for (let i = 0; i < 5; i++) ix.add(`k${i}`, 'otter');
    expect(ix.top(words('otter'), 10, { offset: 1_000_000_000 })).toMatchObject({ hits: [], total: 5 });
    expect(ix.top(words('otter'), 0)).toMatchObject({ hits: [], total: 5 });
    expect(ix.top(words('penguin'), 10)).toMatchObject({ hits: [], total: 0, partial: false });
  });
});

describe('search queries', () => {
  it('parses words, "phrases" and prefixes*', () => {
    expect(parseQuery('Otter "sea lion" sanct*')).toEqual({
      words: ['otter', 'sea', 'lion'],
      prefixes: ['sanct'],
      phrases: ['sea lion'],
      terms: ['otter', 'sea', 'lion', 'sanct'],
    });
    expect(hasPhrases('A Sea\n  Lion swims', ['sea lion'])).toBe(true);
    expect(hasPhrases('a lion by the sea', ['sea lion'])).toBe(false);
  });

  it('takes a phrase of any number of words (no spread of them into one call)', () => {
    expect(parseQuery(`"${'otter '.repeat(200_000)}"`).words).toHaveLength(200_000);
  });

  it('snippets the best line, marks every term and says which line', () => {
    const q = parseQuery('otter sanct*');
    expect(snippetOf('# Title\nnothing\nThe otter sanctuary opened.\nAn otter.', q)).toEqual({ line: 3, snippet: 'The **otter** **sanctuary** opened.' });
    // The file's own asterisks (Markdown bold, a glob) are escaped: only matches read as **bold**.
    expect(snippetOf('**Note:** the otter ate *.fish', parseQuery('otter'))?.snippet).toBe('\\*\\*Note:\\*\\* the **otter** ate \\*.fish');
  });
});

describe('code identifiers (issue 39 item 8)', () => {
  it('splits snake_case and camelCase, keeps the whole identifier, and keeps digits with their letters', () => {
    expect(tokens('compute_invoice_total computeInvoiceTotal')).toEqual([
      'compute_invoice_total',
      'compute',
      'invoice',
      'total',
      'computeinvoicetotal',
      'compute',
      'invoice',
      'total',
    ]);
    expect(tokens('HTTPServer parseV2Config base64Encode utf8 sha256 2fa __init__ MAX_SIZE')).toEqual([
      'httpserver',
      'http',
      'server',
      'parsev2config',
      'parse',
      'v2',
      'config',
      'base64encode',
      'base64',
      'encode',
      'utf8',
      'sha256',
      '2fa',
      '__init__',
      'max_size',
      'max',
      'size',
    ]);
    // __init__ has one part: the word itself, nothing more. Words of scripts without case stay whole.
    expect(tokens('日本語 Ünïcode_Straße getДанные')).toEqual(['日本語', 'ünïcode_straße', 'ünïcode', 'straße', 'getданные', 'get', 'данные']);
  });

  it('a query word is split the same way: either spelling finds both, and the words alone find them too', () => {
    const ix = new InvertedIndex();
    ix.add('billing.py', 'def compute_invoice_total(lines):\n    return sum(lines)');
    ix.add('billing.ts', 'export function computeInvoiceTotal(lines: number[]) {}');
    ix.add('README.md', 'The invoice shows a total.');
    ix.add('other.ts', 'const computeTax = 1;');
    const keys = (q: string) =>
      ix
        .search([...parseQuery(q).words.map((term) => ({ term, prefix: false })), ...parseQuery(q).prefixes.map((term) => ({ term, prefix: true }))])
        .map((h) => h.key)
        .sort();
    expect(keys('invoice total')).toEqual(['README.md', 'billing.py', 'billing.ts']);
    expect(keys('computeInvoiceTotal')).toEqual(['billing.py', 'billing.ts']);
    expect(keys('compute_invoice_total')).toEqual(['billing.py', 'billing.ts']);
    expect(keys('computeInv*')).toEqual(['billing.ts']);
    expect(keys('compute')).toEqual(['billing.py', 'billing.ts', 'other.ts']);
  });
});
