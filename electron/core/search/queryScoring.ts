/**
 * Scoring a query over the inverted index's postings (BM25) and keeping the
 * best page of it. A query reuses per-slot scratch arrays (a query over
 * 50,000 documents allocated three arrays of their size before), reads each
 * posting list in a loop of its own kind, and a page is kept in a bounded
 * heap: sorting every hit to show 20 was a fifth of a common word's time.
 */

export type Postings = number[] | Uint32Array;

const K1 = 1.2;
const B = 0.75;

/** What scoring reads of the index. */
export interface ScoringView {
  postings: readonly Postings[];
  /** Used length of each typed postings array. */
  typedLength: readonly number[];
  df: readonly number[];
  docLength: readonly number[];
  /** 1 for each live slot. */
  alive: Uint8Array;
  /** Live documents, and the sum of their lengths. */
  live: number;
  totalLength: number;
}

export class QueryScorer {
  /** A query's scores, a part's best word's score, BM25's length part, and the part a document reached / was seen in, one entry a slot. */
  scores = new Float64Array(0);
  private best = new Float64Array(0);
  private norm = new Float64Array(0);
  private steps = new Uint32Array(0);
  private seen = new Uint32Array(0);

  /** Makes the scratch as long as the slots (before a query takes `scores`: growing replaces it). */
  grow(slots: number): void {
    if (this.steps.length >= slots) return;
    const size = Math.max(slots, 2 * this.steps.length, 1024);
    this.scores = new Float64Array(size);
    this.best = new Float64Array(size);
    this.norm = new Float64Array(size);
    this.steps = new Uint32Array(size);
    this.seen = new Uint32Array(size);
  }

  /**
   * Scores the documents holding a term of every group (a group: a word, or
   * a prefix's words) into `scores` and hands each to `found`, in no order.
   * The rarest group goes first: only its documents can match, so the others
   * only add to those. Each group reads at most its share of `budget`
   * postings (what rarer groups left over, split evenly), a prefix its most
   * frequent words first; `partial` when one was cut.
   */
  score(view: ScoringView, groups: readonly number[][], budget: number, found: (doc: number) => void): { scanned: number; partial: boolean } {
    const n = view.live;
    const avg = view.totalLength / n || 1;
    const df = view.df;
    const order = groups.map((g, i) => ({ i, df: g.reduce((s, id) => s + (df[id] as number), 0) })).sort((a, b) => a.df - b.df);
    const score = this.scores;
    const best = this.best;
    const step = this.steps;
    const seen = this.seen;
    const alive = view.alive;
    const norm = this.norm;
    const lengths = view.docLength;
    /** Documents the rarest part reached: the only ones that can match (and whose scratch is cleared after). */
    const candidates: number[] = [];
    let scanned = 0;
    let partial = false;
    let left = budget;
    try {
      // BM25's length part of each candidate, once (a document is looked at once per part otherwise).
      const k1b = K1 * (1 - B);
      const k1bAvg = (K1 * B) / avg;
      for (let s = 0; s < order.length; s++) {
        const group = [...(groups[order[s]!.i] as number[])].sort((a, b) => (df[b] as number) - (df[a] as number));
        let share = Math.floor(left / (order.length - s));
        const touched: number[] = s === 0 ? candidates : [];
        for (const id of group) {
          if (share <= 0) {
            partial = true;
            break;
          }
          const d = df[id] as number;
          const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
          const list = view.postings[id] as Postings;
          let len = list instanceof Uint32Array ? (view.typedLength[id] as number) : list.length;
          if (len > share) {
            len = share;
            partial = true;
          }
          share -= len;
          left -= len;
          scanned += len;
          const idfK = idf * (K1 + 1);
          const visit = (v: number) => {
            const doc = v >>> 8; // v = slot × 256 + tf (TF_BITS)
            if (step[doc] !== s || alive[doc] === 0) return;
            const tf = v & 255;
            if (seen[doc] !== s + 1) {
              // This part's first posting of the document (a prefix's words may each hold it).
              seen[doc] = s + 1;
              touched.push(doc);
              best[doc] = 0;
              if (s === 0) {
                score[doc] = 0;
                norm[doc] = k1b + k1bAvg * (lengths[doc] as number);
              }
            }
            const sc = (idfK * tf) / (tf + (norm[doc] as number));
            if (sc > (best[doc] as number)) best[doc] = sc;
          };
          // One loop per kind of array: a loop over both reads each posting through a slow, polymorphic access.
          if (list instanceof Uint32Array) for (let j = 0; j < len; j++) visit(list[j] as number);
          else for (let j = 0; j < len; j++) visit(list[j] as number);
        }
        for (const doc of touched) {
          step[doc] = s + 1;
          score[doc] = (score[doc] as number) + (best[doc] as number);
        }
      }
      const all = order.length;
      for (const doc of candidates) if (step[doc] === all) found(doc);
    } finally {
      // Scratch back to zero for the next query (only candidates were ever written).
      for (const doc of candidates) {
        step[doc] = 0;
        seen[doc] = 0;
      }
    }
    return { scanned, partial };
  }
}

/** The best `keep` documents by score, ties to the earlier added (lower `seq`), in a heap whose root is the worst kept. */
export class RankHeap {
  private readonly heap: Int32Array;
  private size = 0;

  constructor(
    private readonly keep: number,
    private readonly score: Float64Array,
    private readonly seq: readonly number[],
  ) {
    this.heap = new Int32Array(keep);
  }

  /** Whether a ranks after b. */
  private worse(a: number, b: number): boolean {
    const sa = this.score[a] as number;
    const sb = this.score[b] as number;
    return sa < sb || (sa === sb && (this.seq[a] as number) > (this.seq[b] as number));
  }

  offer(doc: number): void {
    const heap = this.heap;
    if (this.size < this.keep) {
      let at = this.size++; // sift up
      while (at > 0) {
        const up = (at - 1) >> 1;
        if (!this.worse(doc, heap[up] as number)) break;
        heap[at] = heap[up] as number;
        at = up;
      }
      heap[at] = doc;
      return;
    }
    if (this.keep === 0 || !this.worse(heap[0] as number, doc)) return;
    let at = 0; // replace the root, sift down
    for (;;) {
      const l = 2 * at + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const child = r < this.size && this.worse(heap[r] as number, heap[l] as number) ? r : l;
      if (!this.worse(heap[child] as number, doc)) break;
      heap[at] = heap[child] as number;
      at = child;
    }
    heap[at] = doc;
  }

  /** What it kept, best first. */
  sorted(): number[] {
    return Array.from(this.heap.subarray(0, this.size)).sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
  }
}
