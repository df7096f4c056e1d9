import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { AccessEntry } from '../../../shared/shelfApi.js';

/** An entry as ClientReads records it (the store numbers it). */
export type EntryDraft = Omit<AccessEntry, 'seq'>;

/**
 * Whether an entry is noise: what a client can produce without end and at
 * once — a read of something that does not exist (or that it may not see:
 * the answer is the same), or a read of an ask-before-read folder refused
 * without anyone asked (no window open, too many already waiting). Reads
 * the person denied, or that waited out their time, are not: each took an ask.
 */
export function isNoise(e: Pick<AccessEntry, 'outcome' | 'errorCode' | 'errorReason'>): boolean {
  if (e.outcome === 'error') return e.errorCode === ErrorCodes.resourceNotFound;
  // A read the client cancelled while asked about is one it can make at will too (read, cancel, again).
  return (
    e.outcome === 'denied' &&
    e.errorCode === ErrorCodes.readNotAllowed &&
    (e.errorReason === 'no-window' || e.errorReason === 'busy' || e.errorReason === 'cancelled')
  );
}

export interface NoiseFolderOptions {
  /** Writes an entry to the history. */
  write: (entry: EntryDraft) => void;
  /** Not-found reads of a run written one by one before the rest are folded. */
  shown?: number;
  /** A run's folded reads are written as one entry at most this long after the first of them. */
  windowMs?: number;
}

interface Run {
  /** Written one by one in this run. */
  shown: number;
  /** Folded since the last summary, and per reason (outside, secret, not found…: a few at most) how many and the last of them. */
  folded: number;
  byReason: Map<string, { count: number; last: EntryDraft }>;
  firstFoldedAt: number;
  lastNoiseAt: number;
  timer: NodeJS.Timeout | null;
}

/** Connections whose runs are remembered at once; past this the oldest run is written out and forgotten. */
const MAX_RUNS = 4096;
const DEFAULT_SHOWN = 3;
const DEFAULT_WINDOW_MS = 60_000;

/**
 * Keeps real reads apart from noise (see isNoise) in the access history. A
 * client that floods it would push its own real reads, and the files' read
 * counts, out of the bounded history. So a run of noise by one connection
 * is written as its first few entries and then one entry that stands for
 * the rest (`repeated`), when the run ends: the client reads a real file,
 * disconnects, or a minute has passed (a flood that goes on is one entry a
 * minute).
 */
export class NoiseFolder {
  private readonly runs = new Map<number, Run>();
  private readonly shown: number;
  private readonly windowMs: number;

  constructor(private readonly options: NoiseFolderOptions) {
    this.shown = options.shown ?? DEFAULT_SHOWN;
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  }

  /** Noise by this connection: written, or folded into the run's summary. */
  noise(connectionId: number, entry: EntryDraft): void {
    let run = this.runs.get(connectionId);
    // A quiet connection starts a new run: its next few not-found reads are shown again.
    if (run && run.folded === 0 && entry.time - run.lastNoiseAt > this.windowMs) run.shown = 0;
    if (!run) {
      if (this.runs.size >= MAX_RUNS) this.end(this.runs.keys().next().value as number);
      run = { shown: 0, folded: 0, byReason: new Map(), firstFoldedAt: 0, lastNoiseAt: 0, timer: null };
      this.runs.set(connectionId, run);
    }
    run.lastNoiseAt = entry.time;
    if (run.shown < this.shown) {
      run.shown++;
      this.options.write(entry);
      return;
    }
    if (run.folded++ === 0) {
      run.firstFoldedAt = entry.time;
      run.timer = setTimeout(() => this.summarize(connectionId), this.windowMs);
      run.timer.unref();
    }
    // Folded by reason, so the summary still says which were outside, which hidden, which simply not there.
    const reason = entry.failure ?? entry.errorReason ?? '';
    const same = run.byReason.get(reason);
    if (same) {
      same.count++;
      same.last = entry;
    } else run.byReason.set(reason, { count: 1, last: entry });
  }

  /** A real read (found, or refused for a real reason) by this connection: the noise before it is written first, and the run ends. */
  real(connectionId: number): void {
    if (this.runs.has(connectionId)) this.end(connectionId);
  }

  /** The connection is gone: what it folded is written. */
  closed(connectionId: number): void {
    this.real(connectionId);
  }

  /** Writes every pending summary (the store is closing). */
  close(): void {
    for (const id of [...this.runs.keys()]) this.end(id);
  }

  private end(connectionId: number): void {
    this.summarize(connectionId);
    this.runs.delete(connectionId);
  }

  /** Writes the run's folded reads as one entry per reason (the last of them, standing for all). */
  private summarize(connectionId: number): void {
    const run = this.runs.get(connectionId);
    if (!run) return;
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    const { byReason, folded, firstFoldedAt } = run;
    run.folded = 0;
    run.byReason = new Map();
    if (folded === 0) return;
    const since = new Date(firstFoldedAt).toISOString();
    for (const { count, last } of byReason.values()) {
      this.options.write({
        ...last,
        repeated: count,
        errorMessage: `${count} more like this in a row since ${since}, kept as one entry (the last of them is shown): ${last.errorMessage ?? ''}`,
      });
    }
  }
}
