/**
 * The inverted index's invariants, checked by walking all of it: what tests
 * call after every sequence of adds, updates, removes and sweeps. A slot
 * (a document's number) is exactly one of live, dying (removed since the
 * last sweep began), being swept, or free; postings name live, dying or
 * swept slots only, never a free one (a free slot is handed to the next
 * document, which would then be found by the dead one's words); and every
 * count the index keeps equals what its postings add up to.
 */

export interface IndexState {
  tfBits: number;
  typedFrom: number;
  termIds: ReadonlyMap<string, number>;
  termOf: ReadonlyArray<string | null>;
  postings: ReadonlyArray<ArrayLike<number>>;
  typedLength: readonly number[];
  df: readonly number[];
  freeTerms: readonly number[];
  docKeys: ReadonlyArray<string | null>;
  docLength: readonly number[];
  docPostings: readonly number[];
  docOf: ReadonlyMap<string, number>;
  freeSlots: readonly number[];
  dying: readonly number[];
  dyingPostings: number;
  livePostings: number;
  totalLength: number;
  sweep: { purge: Uint8Array; slots: readonly number[]; next: number; end: number } | null;
  sortedTerms: readonly string[] | null;
}

/** Problems reported at most (the first ones say enough). */
const MAX_PROBLEMS = 20;

const LIVE = 1;
const DYING = 2;
const SWEPT = 3;
const FREE = 4;
const SLOT_STATES = ['lost', 'live', 'dying', 'being swept', 'free'];

/** Every way `s` breaks an invariant, at most MAX_PROBLEMS of them; empty when it is consistent. */
export function checkIndex(s: IndexState): string[] {
  const problems: string[] = [];
  const fail = (m: string) => void (problems.length < MAX_PROBLEMS && problems.push(m));
  const slots = slotStates(s, fail);
  const termState = termStates(s, fail);
  checkPostings(s, slots, termState, fail);
  if (s.sortedTerms) {
    const sorted = s.sortedTerms;
    for (let i = 1; i < sorted.length; i++) if ((sorted[i - 1] as string) >= (sorted[i] as string)) fail(`the sorted terms are out of order at ${i}`);
    for (const term of s.termIds.keys()) if (!sortedHas(sorted, term)) fail(`term "${term}" is missing from the sorted terms`);
  }
  return problems;
}

/** What each slot is (LIVE…FREE, 0 when none), checking the key map, the lists of dead slots and the totals. */
function slotStates(s: IndexState, fail: (m: string) => void): Uint8Array {
  const n = s.docKeys.length;
  const state = new Uint8Array(n);
  for (const [key, doc] of s.docOf) {
    if (s.docKeys[doc] === key) state[doc] = LIVE;
    else fail(`key ${key} names slot ${doc}, which holds ${String(s.docKeys[doc])}`);
  }
  let length = 0;
  let postings = 0;
  for (let doc = 0; doc < n; doc++) {
    const key = s.docKeys[doc];
    if (key === undefined) fail(`slot ${doc} is a hole`);
    if (key === null || key === undefined) continue;
    if (state[doc] !== LIVE) fail(`slot ${doc} holds ${key}, which the key map does not name`);
    length += s.docLength[doc] as number;
    postings += s.docPostings[doc] as number;
  }
  if (length !== s.totalLength) fail(`total length ${s.totalLength}, live documents' lengths add up to ${length}`);
  if (postings !== s.livePostings) fail(`live postings ${s.livePostings}, live documents added ${postings}`);
  const mark = (list: readonly number[], kind: number) => {
    for (const doc of list) {
      if (!Number.isInteger(doc) || doc < 0 || doc >= n) fail(`${SLOT_STATES[kind]} slot ${doc} does not exist`);
      else if (state[doc] !== 0) fail(`slot ${doc} is ${SLOT_STATES[kind]} and ${SLOT_STATES[state[doc] as number]}`);
      else state[doc] = kind;
    }
  };
  mark(s.dying, DYING);
  mark(s.sweep?.slots ?? [], SWEPT);
  mark(s.freeSlots, FREE);
  let dying = 0;
  for (const doc of s.dying) dying += s.docPostings[doc] ?? 0;
  if (dying !== s.dyingPostings) fail(`dying postings ${s.dyingPostings}, dying documents added ${dying}`);
  for (let doc = 0; doc < n; doc++) {
    if (state[doc] === 0) fail(`slot ${doc} is dead but neither dying, being swept nor free`);
    const purged = s.sweep ? s.sweep.purge[doc] === 1 : false;
    if (purged !== (state[doc] === SWEPT)) fail(`slot ${doc} is ${SLOT_STATES[state[doc] as number]} but ${purged ? '' : 'not '}marked to sweep`);
  }
  return state;
}

/** 1 for each term id in use, 2 for a free one, checking the dictionary both ways. */
function termStates(s: IndexState, fail: (m: string) => void): Uint8Array {
  const n = s.postings.length;
  const state = new Uint8Array(n);
  for (const [term, id] of s.termIds) {
    if (!Number.isInteger(id) || id < 0 || id >= n || s.termOf[id] !== term) fail(`term "${term}" has id ${id}, which is ${String(s.termOf[id])}'s`);
    else if (state[id] !== 0) fail(`term id ${id} is named twice`);
    else state[id] = 1;
  }
  for (const id of s.freeTerms) {
    if (state[id] !== 0) fail(`term id ${id} is free and in use`);
    else if (s.termOf[id] !== null || s.df[id] !== 0 || s.postings[id]?.length !== 0) fail(`free term id ${id} still has a term or postings`);
    state[id] = 2;
  }
  for (let id = 0; id < n; id++) if (state[id] === 0) fail(`term id ${id} is neither in use nor free`);
  if (s.termOf.length !== n || s.df.length !== n || s.typedLength.length !== n) fail('the per-term arrays differ in length');
  return state;
}

/** Every posting names a slot that may hold postings, at most once a term; counts match what the postings add up to. */
function checkPostings(s: IndexState, slots: Uint8Array, termState: Uint8Array, fail: (m: string) => void): void {
  const n = slots.length;
  const lastTerm = new Int32Array(n).fill(-1);
  const count = new Float64Array(n);
  const tfSum = new Float64Array(n);
  const capped = new Uint8Array(n);
  for (let id = 0; id < termState.length; id++) {
    if (termState[id] !== 1) continue;
    const list = s.postings[id] as ArrayLike<number>;
    const typed = list instanceof Uint32Array;
    const len = typed ? (s.typedLength[id] as number) : list.length;
    const term = s.termOf[id] as string;
    if (typed ? len > list.length || len < s.typedFrom : s.typedLength[id] !== 0) fail(`term "${term}" has a wrong used length`);
    if (len === 0) fail(`term "${term}" has no postings`);
    if (s.df[id] !== len) fail(`term "${term}": df ${s.df[id]}, ${len} postings`);
    const swept = s.sweep !== null && id < s.sweep.next;
    for (let j = 0; j < len; j++) {
      const v = list[j] as number;
      const doc = Math.floor(v / s.tfBits);
      const tf = v % s.tfBits;
      if (doc >= n) fail(`term "${term}" names slot ${doc}, past the last`);
      else if (slots[doc] === FREE || slots[doc] === 0) fail(`term "${term}" names ${SLOT_STATES[slots[doc] as number]} slot ${doc}`);
      else if (swept && slots[doc] === SWEPT) fail(`term "${term}" was swept but still names slot ${doc}`);
      else if (lastTerm[doc] === id) fail(`term "${term}" names slot ${doc} twice`);
      if (tf === 0) fail(`term "${term}" has a posting with no occurrence (slot ${doc})`);
      if (doc >= n) continue;
      lastTerm[doc] = id;
      count[doc] = (count[doc] as number) + 1;
      tfSum[doc] = (tfSum[doc] as number) + tf;
      if (tf === s.tfBits - 1) capped[doc] = 1;
    }
  }
  for (let doc = 0; doc < n; doc++) {
    const state = slots[doc];
    if (state !== LIVE && state !== DYING) continue;
    const added = s.docPostings[doc] as number;
    if (count[doc] !== added) fail(`slot ${doc} (${SLOT_STATES[state]}) added ${added} postings; the terms hold ${count[doc]}`);
    const length = s.docLength[doc] as number;
    if (capped[doc] ? (tfSum[doc] as number) > length : tfSum[doc] !== length) fail(`slot ${doc}: length ${length}, its postings count ${tfSum[doc]}`);
  }
}

function sortedHas(sorted: readonly string[], term: string): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < term) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo] === term;
}
