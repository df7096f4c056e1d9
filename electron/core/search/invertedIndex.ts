/**
 * A compact inverted index with BM25 ranking, built for published folders:
 * documents come, change and go one at a time, and 50,000 files of a few KB
 * (some 15 million postings) must fit in a few hundred MiB and answer in
 * milliseconds.
 *
 * MiniSearch was tried first and measured on that corpus: 958 MiB over the
 * server's own memory, 50 s to build, 2.2 s p95 for common words (a Map per
 * posting, and a result object per matching document). Here a posting is
 * one number — document slot × 256 + term frequency — in a plain array while
 * a term is rare and in a Uint32Array once it is common, and a query scores
 * into one Float64Array.
 *
 * A document keeps its slot for as long as it lives, so nothing is ever
 * renumbered. A removed document's postings stay (search skips dead slots)
 * until a sweep drops them: term by term, a bounded step at a time, each
 * step leaving the index whole, so a sweep can pause between any two steps
 * (for clients) or fail in one without a reader ever seeing a wrong file.
 * Only once every term was swept are the dead slots free for new documents.
 * The first version renumbered every document and term in one call and
 * spread the new arrays into splice(); past ~125,000 terms that threw
 * halfway, and words were then found in the wrong files.
 */

import { tokens } from './identifierWords.js';
import { checkIndex, type IndexState } from './indexConsistency.js';
import { type Postings, QueryScorer, RankHeap } from './queryScoring.js';

export { tokens };

export interface IndexedHit {
  key: string;
  score: number;
}

export interface TopOptions {
  /** Best documents skipped first (the pages before). */
  offset?: number;
  /** Only documents whose key it accepts count (and are counted in `total`). */
  accept?: ((key: string) => boolean) | null;
  /** Postings a query reads at most (tests make it small). */
  maxScanned?: number;
}

export interface TopPage {
  hits: IndexedHit[];
  /** Documents matching (accepted) among the postings read. */
  total: number;
  /** Postings read. */
  scanned: number;
  /** The query read only part of its postings (MAX_SCANNED): other documents may match too. */
  partial: boolean;
}

/** Where a term is looked up: whole words, or every word starting with a prefix. */
export interface QueryPart {
  term: string;
  prefix: boolean;
}

const TF_BITS = 256;
/** Slots a posting can name in a Uint32Array (slot × 256 + 255 < 2³²). */
const MAX_SLOTS = 2 ** 24;
/** A term's postings move from a plain array to a typed one past this many. */
const TYPED_FROM = 512;
/**
 * What dropping a term costs a sweep step, in postings looked at: its
 * dictionary entry's deletion took some 1 µs on a busy machine, 100–200
 * times a posting's check (steps of 16,000 one-posting terms took 40–80 ms).
 */
const DROP_COST = 128;
/**
 * Postings a query reads at most, over all its parts: some 10 ms of
 * scoring on a busy machine; four common words at 250,000 files fit.
 */
export const MAX_SCANNED = 1_000_000;
/** A prefix expands to at most this many terms (the most frequent win when there are more). */
const MAX_EXPANSION = 256;

/** When sweeps start and how much an add sweeps; tests make them small, to sweep often and pause anywhere. */
export interface SweepOptions {
  /**
   * A sweep starts once more documents died than live (and over fromDocs),
   * or more of their postings than live ones hold (and over fromPostings):
   * the second bounds memory when one big file changes again and again.
   */
  fromDocs: number;
  fromPostings: number;
  /** Postings an add sweeps besides twice its own, so a sweep ends even when nobody drives it. */
  perAdd: number;
}

const DEFAULT_SWEEP: SweepOptions = { fromDocs: 10_000, fromPostings: 1 << 20, perAdd: 256 };

/** A free term id's postings: one shared array (frozen: a new term gets an array of its own), so dropping terms allocates nothing. */
const NO_POSTINGS: number[] = Object.freeze([]) as unknown as number[];

/** A sweep under way: it drops the postings of the documents that were dead when it began. */
interface Sweep {
  /** 1 for each slot whose postings go (sized to the slots when it began; later slots are 0). */
  purge: Uint8Array;
  /** Those slots: free for new documents once every term was swept. */
  slots: number[];
  /** The next term id to sweep, and where to stop (terms made since hold no purged slot). */
  next: number;
  end: number;
}

export class InvertedIndex {
  private readonly termIds = new Map<string, number>();
  /** Each term id's term (null while the id is free). */
  private readonly termOf: Array<string | null> = [];
  private readonly postings: Postings[] = [];
  /** Used length of each typed postings array (a plain array knows its own). */
  private readonly typedLength: number[] = [];
  /** Postings each term holds, dead documents' included until a sweep drops them. */
  private readonly df: number[] = [];
  private readonly freeTerms: number[] = [];
  /** Each slot's document key; null once it died (then dying, being swept, or free). */
  private readonly docKeys: Array<string | null> = [];
  private readonly docLength: number[] = [];
  /** Postings each slot's document added (its distinct words). */
  private readonly docPostings: number[] = [];
  /** When each slot's document was added: equal scores rank in that order (slots are reused, so their numbers do not tell). */
  private readonly docSeq: number[] = [];
  private readonly docOf = new Map<string, number>();
  private freeSlots: number[] = [];
  /** Slots that died since the last sweep began, and their postings. */
  private dying: number[] = [];
  private dyingPostings = 0;
  private livePostings = 0;
  private totalLength = 0;
  private added = 0;
  private sweep: Sweep | null = null;
  /** Sorted terms, for prefixes; rebuilt on demand after terms were added (a dropped term is skipped). */
  private sortedTerms: string[] | null = null;
  /** 1 for each live slot (what the scoring loop checks, cheaper than docKeys). */
  private alive = new Uint8Array(0);
  private readonly scorer = new QueryScorer();

  constructor(private readonly sweepOptions: SweepOptions = DEFAULT_SWEEP) {}

  get size(): number {
    return this.docOf.size;
  }

  /** What the index holds: slots (documents live or dead), terms, and postings (dead documents' included until swept). */
  stats(): { slots: number; terms: number; postings: number } {
    let postings = 0;
    for (const n of this.df) postings += n;
    return { slots: this.docKeys.length, terms: this.termIds.size, postings };
  }

  /** Whether a sweep is under way: compactStep() moves it on. */
  get compacting(): boolean {
    return this.sweep !== null;
  }

  /** Adds a document (replacing one with the same key). `boosted` words (a path) count three times. */
  add(key: string, text: string, boosted = ''): void {
    const counts = new Map<string, number>();
    let length = 0;
    for (const t of tokens(text)) {
      counts.set(t, (counts.get(t) ?? 0) + 1);
      length++;
    }
    for (const t of tokens(boosted)) {
      counts.set(t, (counts.get(t) ?? 0) + 3);
      length += 3;
    }
    const doc = this.takeSlot();
    this.remove(key);
    this.docKeys[doc] = key;
    this.setAlive(doc, true);
    this.docLength[doc] = length;
    this.docPostings[doc] = counts.size;
    this.docSeq[doc] = this.added++;
    this.docOf.set(key, doc);
    this.totalLength += length;
    this.livePostings += counts.size;
    for (const [term, tf] of counts) this.post(term, doc * TF_BITS + Math.min(tf, TF_BITS - 1));
    if (this.sweep) this.compactStep(2 * counts.size + this.sweepOptions.perAdd);
  }

  /** Forgets a document; its postings are skipped, and dropped by a later sweep. */
  remove(key: string): boolean {
    const doc = this.docOf.get(key);
    if (doc === undefined) return false;
    this.docOf.delete(key);
    this.docKeys[doc] = null;
    this.setAlive(doc, false);
    this.totalLength -= this.docLength[doc] as number;
    this.livePostings -= this.docPostings[doc] as number;
    this.dyingPostings += this.docPostings[doc] as number;
    this.dying.push(doc);
    if (!this.sweep && this.sweepDue()) this.startSweep();
    return true;
  }

  /**
   * Sweeps terms until about `maxPostings` postings were looked at (a term
   * is never split; a term dropped counts DROP_COST), then returns; each
   * term is swept whole or not at all.
   */
  compactStep(maxPostings: number): void {
    const s = this.sweep;
    if (!s) return;
    for (let work = 0; s.next < s.end && work < maxPostings; s.next++) work += this.sweepTerm(s.next, s.purge) + 1;
    if (s.next < s.end) return;
    this.freeSlots = this.freeSlots.concat(s.slots); // a new array, then the swap: all of them free, or none
    this.sweep = null;
    if (this.sweepDue()) this.startSweep();
  }

  /** Drops every dead document's postings now, in one go (tests; and when slots run out). */
  compact(): void {
    while (this.sweep || this.dying.length > 0) {
      if (!this.sweep) this.startSweep();
      this.compactStep(Infinity);
    }
  }

  /** What is wrong with the index's own bookkeeping (nothing, always): for tests, it walks every posting. */
  checkConsistency(): string[] {
    return checkIndex(this.state());
  }

  /**
   * Documents holding every part, best first (BM25; a prefix scores as its
   * best-matching word), every one of them sorted: the reference top() is
   * tested against. `accept` filters by key before scoring ends.
   */
  search(parts: readonly QueryPart[], accept: ((key: string) => boolean) | null = null): IndexedHit[] {
    const found: number[] = [];
    this.score(parts, Infinity, (doc) => {
      if (accept === null || accept(this.docKeys[doc] as string)) found.push(doc);
    });
    const score = this.scorer.scores;
    const seq = this.docSeq;
    found.sort((a, b) => (score[b] as number) - (score[a] as number) || (seq[a] as number) - (seq[b] as number));
    return found.map((doc) => ({ key: this.docKeys[doc] as string, score: score[doc] as number }));
  }

  /**
   * The page of `k` best documents after the first `offset`, in search()'s
   * order (ties: the earlier added first), without sorting every match: a
   * bounded heap keeps the best offset + k. A query reads at most
   * MAX_SCANNED postings (`scanned`); past that the matches are those of
   * the postings read, and `partial` says so.
   */
  top(parts: readonly QueryPart[], k: number, options: TopOptions = {}): TopPage {
    const offset = options.offset ?? 0;
    const accept = options.accept ?? null;
    this.scorer.grow(this.docKeys.length); // before taking the scores array: growing replaces it
    const score = this.scorer.scores;
    const heap = new RankHeap(Math.min(Math.max(0, offset + k), this.docOf.size), score, this.docSeq);
    let total = 0;
    const { scanned, partial } = this.score(parts, options.maxScanned ?? MAX_SCANNED, (doc) => {
      if (accept !== null && !accept(this.docKeys[doc] as string)) return;
      total++;
      heap.offer(doc);
    });
    const hits = heap
      .sorted()
      .slice(offset)
      .map((doc) => ({ key: this.docKeys[doc] as string, score: score[doc] as number }));
    return { hits, total, scanned, partial };
  }

  /** The documents holding every part, scored into the scorer's scores, to `found` in no order. */
  private score(parts: readonly QueryPart[], budget: number, found: (doc: number) => void): { scanned: number; partial: boolean } {
    if (parts.length === 0 || this.docOf.size === 0) return { scanned: 0, partial: false };
    const groups = parts.map((p) => (p.prefix ? this.expand(p.term) : [this.termIds.get(p.term)].filter((id): id is number => id !== undefined)));
    if (groups.some((g) => g.length === 0)) return { scanned: 0, partial: false };
    this.scorer.grow(this.docKeys.length);
    const view = {
      postings: this.postings,
      typedLength: this.typedLength,
      df: this.df,
      docLength: this.docLength,
      alive: this.alive,
      live: this.docOf.size,
      totalLength: this.totalLength,
    };
    return this.scorer.score(view, groups, budget, found);
  }

  /** Marks a slot live or dead in `alive` (grown by doubling), which the scoring loop reads instead of the keys. */
  private setAlive(doc: number, live: boolean): void {
    if (doc >= this.alive.length) {
      const grown = new Uint8Array(Math.max(doc + 1, 2 * this.alive.length, 1024));
      grown.set(this.alive);
      this.alive = grown;
    }
    this.alive[doc] = live ? 1 : 0;
  }

  /** A slot freed by a sweep, or a new one; when all 2²⁴ are taken, a sweep in one go frees the dead ones. */
  private takeSlot(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    if (this.docKeys.length < MAX_SLOTS) return this.docKeys.length;
    this.compact();
    const freed = this.freeSlots.pop();
    if (freed === undefined) throw new Error(`The full-text index holds its most documents (${MAX_SLOTS})`);
    return freed;
  }

  private sweepDue(): boolean {
    const { fromDocs, fromPostings } = this.sweepOptions;
    const docs = this.dying.length;
    return (docs > fromDocs && docs > this.docOf.size) || (this.dyingPostings > fromPostings && this.dyingPostings > this.livePostings);
  }

  private startSweep(): void {
    const purge = new Uint8Array(this.docKeys.length);
    for (const doc of this.dying) purge[doc] = 1;
    this.sweep = { purge, slots: this.dying, next: 0, end: this.postings.length };
    this.dying = [];
    this.dyingPostings = 0;
  }

  /**
   * Drops term `id`'s postings of purged slots, in place (nothing here can
   * throw halfway), and the term itself once no posting is left. Returns
   * what it cost: the postings it looked at, and DROP_COST for a dropped term.
   */
  private sweepTerm(id: number, purge: Uint8Array): number {
    const list = this.postings[id] as Postings;
    const typed = list instanceof Uint32Array;
    const len = typed ? (this.typedLength[id] as number) : list.length;
    let kept = 0;
    for (let j = 0; j < len; j++) {
      const v = list[j] as number;
      if (purge[Math.floor(v / TF_BITS)] !== 1) list[kept++] = v;
    }
    if (kept === len) return len;
    if (typed) this.typedLength[id] = kept;
    else list.length = kept;
    this.df[id] = kept;
    if (kept === 0) {
      this.dropTerm(id);
      return len + DROP_COST;
    }
    if (typed && kept < TYPED_FROM) {
      this.postings[id] = Array.from(list.subarray(0, kept));
      this.typedLength[id] = 0;
    } else if (typed && list.length > 4 * kept) this.postings[id] = list.slice(0, kept);
    return len;
  }

  private dropTerm(id: number): void {
    this.freeTerms.push(id);
    this.postings[id] = NO_POSTINGS;
    this.typedLength[id] = 0;
    this.termIds.delete(this.termOf[id] as string);
    this.termOf[id] = null;
  }

  private post(term: string, value: number): void {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.freeTerms.pop() ?? this.postings.length;
      this.postings[id] = [];
      this.typedLength[id] = 0;
      this.df[id] = 0;
      this.termOf[id] = term;
      this.termIds.set(term, id);
      this.sortedTerms = null;
    }
    this.df[id] = (this.df[id] as number) + 1;
    const list = this.postings[id] as Postings;
    if (Array.isArray(list)) {
      list.push(value);
      if (list.length >= TYPED_FROM) {
        const typed = new Uint32Array(list.length * 2);
        typed.set(list);
        this.postings[id] = typed;
        this.typedLength[id] = list.length;
      }
      return;
    }
    let typed = list;
    const used = this.typedLength[id] as number;
    if (used === typed.length) {
      const grown = new Uint32Array(typed.length * 2);
      grown.set(typed);
      typed = grown;
      this.postings[id] = grown;
    }
    typed[used] = value;
    this.typedLength[id] = used + 1;
  }

  /** The ids of terms starting with `prefix`, the most frequent first, at most MAX_EXPANSION. */
  private expand(prefix: string): number[] {
    this.sortedTerms ??= [...this.termIds.keys()].sort();
    const terms = this.sortedTerms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((terms[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const ids: number[] = [];
    for (let i = lo; i < terms.length && (terms[i] as string).startsWith(prefix); i++) {
      const id = this.termIds.get(terms[i] as string);
      if (id !== undefined) ids.push(id); // undefined: swept away since the list was sorted
    }
    return ids.length <= MAX_EXPANSION ? ids : ids.sort((a, b) => (this.df[b] as number) - (this.df[a] as number)).slice(0, MAX_EXPANSION);
  }

  private state(): IndexState {
    return {
      tfBits: TF_BITS,
      typedFrom: TYPED_FROM,
      termIds: this.termIds,
      termOf: this.termOf,
      postings: this.postings,
      typedLength: this.typedLength,
      df: this.df,
      freeTerms: this.freeTerms,
      docKeys: this.docKeys,
      docLength: this.docLength,
      docPostings: this.docPostings,
      docOf: this.docOf,
      freeSlots: this.freeSlots,
      dying: this.dying,
      dyingPostings: this.dyingPostings,
      livePostings: this.livePostings,
      totalLength: this.totalLength,
      sweep: this.sweep,
      sortedTerms: this.sortedTerms,
    };
  }
}
