// The "index-queries" subject of npm run bench: the full-text index alone,
// in this process (no server, no files), at 50,000 documents of 1–20 KB drawn
// from a 50,000-word vocabulary with a Zipf skew — the corpus of issue 42.
// Each query kind is timed interleaved: the index's page of 20 (top-k, no
// per-hit filter: what the tool asks when every folder is searched and no glob
// is given) and, as the reference, a page the way it was taken before top-k
// (the same scoring): every hit through an accept callback (a Map lookup by
// key), ranked by a full sort, the first 20 taken. Wall time and this process's CPU time, per query.
import { InvertedIndex } from '../dist/electron/core/search/invertedIndex.js';
import { random, zipfVocabulary } from './zipfWords.mjs';

const DOCS = Number(process.env.INDEX_QUERY_DOCS ?? 50_000);
const VOCABULARY = 50_000;
const ROUNDS = Number(process.env.INDEX_QUERY_ROUNDS ?? 20);

const { words, zipf } = zipfVocabulary(VOCABULARY);

export function buildIndex() {
  const rand = random(42);
  const ix = new InvertedIndex();
  const docs = new Map();
  const t0 = performance.now();
  for (let d = 0; d < DOCS; d++) {
    const target = 1024 + Math.floor(rand() * 19 * 1024);
    const parts = [];
    for (let len = 0; len < target;) {
      const w = zipf(rand);
      parts.push(w);
      len += w.length + 1;
    }
    const key = `1\u0000g${d % 50}/note-${d}.txt`;
    ix.add(key, parts.join(' '), `g${d % 50}/note-${d}.txt`);
    docs.set(key, { folderId: 1, rel: `g${d % 50}/note-${d}.txt` });
  }
  return { ix, docs, buildMs: performance.now() - t0 };
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function indexQueriesBench() {
  const { ix, docs, buildMs } = buildIndex();
  const folders = new Map([[1, { root: '/x' }]]);
  const accept = (id) => {
    const d = docs.get(id);
    return d !== undefined && folders.get(d.folderId) !== undefined;
  };
  const rand = random(5);
  const common = () => words[Math.floor(rand() * 10)];
  const kinds = {
    'one common word': () => [{ term: common(), prefix: false }],
    'two common words': () => [
      { term: common(), prefix: false },
      { term: words[10 + Math.floor(rand() * 20)], prefix: false },
    ],
    'rare word': () => [{ term: words[20_000 + Math.floor(rand() * 20_000)], prefix: false }],
    prefix: () => [{ term: words[Math.floor(rand() * 40)].slice(0, 2), prefix: true }],
  };
  const out = {
    docs: DOCS,
    rounds: ROUNDS,
    buildMs,
    load: (await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
    kinds: {},
  };
  for (const [kind, make] of Object.entries(kinds)) {
    const top = [];
    const full = [];
    const topCpu = [];
    let partial = 0;
    const fullCpu = [];
    const cpu = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    for (let r = 0; r < ROUNDS; r++) {
      const parts = make();
      let page;
      let ref;
      // Alternating which goes first, so neither always finds the postings in cache.
      for (const which of r % 2 === 0 ? ['top', 'full'] : ['full', 'top']) {
        const c0 = cpu();
        const t0 = performance.now();
        if (which === 'top') {
          const got = ix.top ? ix.top(parts, 20, { accept: null }) : { hits: ix.search(parts, accept).slice(0, 20), partial: false };
          page = got.hits;
          if (got.partial) partial++;
        } else ref = ix.search(parts, accept).slice(0, 20);
        (which === 'top' ? top : full).push(performance.now() - t0);
        (which === 'top' ? topCpu : fullCpu).push(cpu() - c0);
      }
      // A partial page (the query's postings capped) ranks what it read; else it is the full sort's.
      if (partial === 0 && page.map((h) => h.key).join() !== ref.map((h) => h.key).join()) throw new Error(`${kind}: the page differs from the full sort's`);
    }
    out.kinds[kind] = {
      topP50: pct(top, 0.5),
      topP95: pct(top, 0.95),
      fullP50: pct(full, 0.5),
      fullP95: pct(full, 0.95),
      topCpuP50: pct(topCpu, 0.5),
      fullCpuP50: pct(fullCpu, 0.5),
      partial,
    };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await indexQueriesBench(), null, 1));
