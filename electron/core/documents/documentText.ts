import { Worker } from 'node:worker_threads';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import { transferable } from '../background/workerJobs.js';
import { ShelfError } from '../library/shelfError.js';
import type { DocumentKind } from './documentKinds.js';
import type { ExtractReply, ExtractRequest } from './extractWorker.js';
import { ProcessGrowth } from './processGrowth.js';
import type { CachedOutcome, TextDiskCache } from './textDiskCache.js';
import { threadCpuMs } from './threadCpu.js';

export interface DocumentTextOptions {
  /** The built extraction worker (extract-worker.js next to the host's bundle). */
  workerFile: URL | string;
  /** One document may take this long; then the worker is stopped and the read fails with `timeout`. */
  timeoutMs?: number;
  /** The worker's heap; a document that needs more fails with `too-large` and a new worker starts. */
  memoryMb?: number;
  /**
   * What one extraction may add to the process's memory, heap and buffers
   * together (the heap limit does not count ArrayBuffers, where pdf.js
   * inflates streams); past it the worker is stopped: `too-large`. Default:
   * the heap limit and 512 MiB of buffers.
   */
  processMemoryMb?: number;
  /** Extracted text kept in memory, in characters, for documents read again (by file identity). */
  cacheChars?: number;
  /** Outcomes kept on disk between runs (absent: extracted again after each start). */
  disk?: TextDiskCache | null;
}

export type UnavailableReason = 'no-text' | 'encrypted' | 'corrupt' | 'too-large' | 'unsupported' | 'timeout' | 'busy';

export interface DocumentTextResult {
  text: string;
  parts: number;
}

type Outcome = DocumentTextResult | { reason: UnavailableReason; message: string };

/** Reasons that hold for a file version whatever the load, so they are kept on disk too (a timeout or a full queue may not recur). */
const LASTING: ReadonlySet<UnavailableReason> = new Set(['no-text', 'encrypted', 'corrupt', 'too-large', 'unsupported']);

/** An outcome read back from disk, if it is one we would have written. */
function fromDisk(kept: CachedOutcome | null): Outcome | null {
  if (!kept) return null;
  if ('text' in kept) return kept;
  return LASTING.has(kept.reason as UnavailableReason) ? { reason: kept.reason as UnavailableReason, message: kept.message } : null;
}

/** Documents waiting for the worker at once; past this a read is refused (busy) rather than queued. */
const MAX_QUEUED = 64;
/**
 * What one extraction may add to the process beyond its heap limit: its
 * buffers (the file, up to 128 MiB; an Office file's XML parts, up to 256
 * MiB, and the copies the readers make; the streams pdf.js inflates). Honest
 * documents measured: a 2,000-page PDF adds ~210 MiB in all, a 100,000-paragraph
 * Word file ~460 MiB, sheets of 200,000 and 300,000 rows ~630 and ~930 MiB
 * (mostly heap); a Flate bomb grows it by up to ~30 MiB in 10 ms, so a check
 * every 20 ms stops it within a few tens of MiB (BENCHMARKS.md, "Memory").
 */
const BUFFERS_MB = 512;
const WATCH_MS = 20;
/** How often a job's processor time is looked at. */
const TIME_CHECK_MS = 250;
/** A job is ended by the clock at this many times its time limit, however little processor time it got. */
const WALL_FACTOR = 10;
/** A worker whose job grew the process by more than this is replaced afterwards, so what it held goes back to the system. */
const RECYCLE_BYTES = 128 * 1024 * 1024;
/** What an outcome costs the in-memory cache, in characters: its text or message, its key and the entry around them. */
const outcomeChars = (key: string, o: Outcome): number => ('text' in o ? o.text.length : o.message.length) + key.length + 64;

/** Samples over the budget in a row before the worker is stopped: one sample can catch a moment's jump. */
const OVER_SAMPLES = 2;

/**
 * A document version that took too long is not tried again for this long,
 * whatever the text cache keeps or drops: else a client could start a 30 s
 * extraction again at will. Bounded: the oldest are forgotten first.
 */
const TIMEOUT_MEMORY_MS = 10 * 60 * 1000;
const MAX_TIMEOUTS = 1024;

/** The error a client gets when a document's text cannot be given. */
export function textUnavailable(uri: string, reason: UnavailableReason, message: string): ShelfError {
  return new ShelfError(ErrorCodes.documentTextUnavailable, `No text for this document: ${message}`, { uri, reason });
}

interface Job {
  kind: DocumentKind;
  read: () => Promise<Uint8Array>;
  resolve: (o: Outcome) => void;
  /** The file itself could not be read (gone, too large…): its own error, as a read of it would get. */
  reject: (err: unknown) => void;
}

/**
 * Document text, extracted off the main thread: one worker, one document at
 * a time (a hostile PDF takes the worker's time and memory, never the
 * server's), each bounded in time, heap and the memory it adds to the
 * process, results (text or the reason there is none) kept by file identity
 * so a document is extracted once per version.
 */
export class DocumentText {
  private worker: Worker | null = null;
  /** The worker's thread id (Linux), which it says first thing: its processor time is its clock. */
  private workerThread: number | null = null;
  private readonly queue: Job[] = [];
  private running = false;
  private nextId = 1;
  private readonly cache = new Map<string, Outcome>();
  private cachedChars = 0;
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  /** Recent timeouts by key, and until when they stand (see TIMEOUT_MEMORY_MS). */
  private readonly recentTimeouts = new Map<string, { until: number; outcome: Outcome }>();
  private closed = false;
  /** Extractions run (not cache hits), for tests and the bench. */
  extractions = 0;

  constructor(private readonly options: DocumentTextOptions) {}

  /**
   * The text of the document `key` names (its path and version), extracted
   * on first use. Throws textUnavailable (1006) when there is none.
   */
  async text(uri: string, key: string, kind: DocumentKind, read: () => Promise<Uint8Array>): Promise<DocumentTextResult> {
    const outcome = await this.outcome(key, kind, read);
    if ('reason' in outcome) throw textUnavailable(uri, outcome.reason, outcome.message);
    return outcome;
  }

  /** The cached outcome without extracting (null: not extracted yet). */
  peek(key: string): DocumentTextResult | null {
    const o = this.cache.get(key);
    return o && !('reason' in o) ? o : null;
  }

  private outcome(key: string, kind: DocumentKind, read: () => Promise<Uint8Array>): Promise<Outcome> {
    const timedOut = this.recentTimeouts.get(key);
    if (timedOut && timedOut.until > Date.now()) return Promise.resolve(timedOut.outcome);
    if (timedOut) this.recentTimeouts.delete(key);
    const cached = this.cache.get(key);
    if (cached) {
      // Least recently used goes first: a hit moves to the end.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    const running = this.inFlight.get(key);
    if (running) return running;
    const disk = this.options.disk;
    const promise = (async (): Promise<Outcome> => {
      // Extracted in an earlier run: read back, not extracted again.
      const kept = fromDisk((await disk?.get(key).catch(() => null)) ?? null);
      if (kept) return kept;
      if (this.queue.length >= MAX_QUEUED) return { reason: 'busy', message: 'too many documents are waiting for extraction; try again shortly' };
      const o = await new Promise<Outcome>((resolve, reject) => {
        this.queue.push({ kind, read, resolve, reject });
        this.pump();
      });
      if (disk && (!('reason' in o) || LASTING.has(o.reason))) void disk.put(key, o).catch(() => undefined);
      return o;
    })().then(
      (o) => {
        this.inFlight.delete(key);
        if ('reason' in o && o.reason === 'timeout') this.rememberTimeout(key, o);
        if (!('reason' in o) || o.reason !== 'busy') this.remember(key, o);
        return o;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  private rememberTimeout(key: string, o: Outcome): void {
    this.recentTimeouts.delete(key);
    const again = { ...o, message: `${'message' in o ? o.message : ''} (not tried again for ${TIMEOUT_MEMORY_MS / 60_000} minutes)` };
    this.recentTimeouts.set(key, { until: Date.now() + TIMEOUT_MEMORY_MS, outcome: again });
    if (this.recentTimeouts.size > MAX_TIMEOUTS) this.recentTimeouts.delete(this.recentTimeouts.keys().next().value as string);
  }

  private remember(key: string, o: Outcome): void {
    // A reason costs its key and message: a folder whose documents keep changing must not grow this without bound.
    const size = outcomeChars(key, o);
    const budget = this.options.cacheChars ?? 64 * 1024 * 1024;
    if (size > budget) return;
    this.cache.set(key, o);
    this.cachedChars += size;
    for (const k of this.cache.keys()) {
      if (this.cachedChars <= budget) break;
      this.forget(k);
    }
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = true;
    void this.run(job)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  private async run(job: Job): Promise<Outcome> {
    const bytes = await job.read();
    this.extractions++;
    const worker = this.spawn();
    const id = this.nextId++;
    const growth = new ProcessGrowth();
    let grown = 0;
    let over = 0;
    return new Promise<Outcome>((resolve) => {
      const timeoutMs = this.options.timeoutMs ?? 30_000;
      const budgetMb = this.options.processMemoryMb ?? (this.options.memoryMb ?? 512) + BUFFERS_MB;
      const done = (o: Outcome, stop = false) => {
        clearInterval(timer);
        clearInterval(watchdog);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        // Stopped, or it grew a lot: a fresh worker for the next job, and its memory goes back now, not at its next collection.
        if (stop || grown > RECYCLE_BYTES) {
          if (this.worker === worker) this.worker = null;
          void worker.terminate();
        }
        resolve(o);
      };
      const onMessage = (reply: ExtractReply) => {
        if (reply.id !== id) return;
        done(reply.ok ? { text: reply.text, parts: reply.parts } : { reason: reply.reason, message: reply.message });
      };
      const onExit = () => {
        this.worker = null;
        // Stopped by close(): not the document's fault, and nothing to remember about it.
        if (this.closed) return done({ reason: 'busy', message: 'the server is stopping' });
        const mb = this.options.memoryMb ?? 512;
        done({ reason: 'too-large', message: `extracting it needed more than the ${mb} MiB allowed` });
      };
      // The time limit counts the thread's processor time where the system tells it (threadCpu.ts), the clock elsewhere;
      // the clock still ends a job at WALL_FACTOR times the limit, whatever the load.
      // (A new worker says its thread id first thing; until then, and where there is none, the clock counts.)
      const started = Date.now();
      // The thread's processor time when the job began: read now for a worker that ran jobs before; a new
      // worker's thread has done nothing else (its time since it started is this job's).
      let cpuAtStart: number | null = this.workerThread === null ? 0 : null;
      if (this.workerThread !== null) void threadCpuMs(this.workerThread).then((ms) => (cpuAtStart = ms ?? 0));
      const timedOut = (how: string) => done({ reason: 'timeout', message: `extracting it took more than ${Math.round(timeoutMs / 1000)} s${how}` }, true);
      const timer = setInterval(() => {
        const wall = Date.now() - started;
        if (wall > timeoutMs * WALL_FACTOR) return timedOut(' (by the clock, on a busy machine)');
        const thread = this.workerThread;
        if (thread === null) {
          if (wall > timeoutMs) timedOut('');
          return;
        }
        void threadCpuMs(thread).then((ms) => {
          if (ms === null) {
            if (wall > timeoutMs) timedOut('');
          } else if (cpuAtStart !== null && ms - cpuAtStart > timeoutMs) timedOut(' of processor time');
        });
      }, Math.min(TIME_CHECK_MS, timeoutMs));
      // ArrayBuffers escape the worker's heap limit (pdf.js inflates a stream into one): the process's growth is watched instead.
      const watchdog = setInterval(() => {
        const now = growth.bytes();
        grown = Math.max(grown, now);
        over = now > budgetMb * 1024 * 1024 ? over + 1 : 0;
        if (over >= OVER_SAMPLES) done({ reason: 'too-large', message: `extracting it needed more than the ${budgetMb} MiB of memory allowed` }, true);
      }, WATCH_MS);
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      // The bytes move to the worker (copied first only when they are a view into a larger buffer).
      const owned = transferable(bytes);
      worker.postMessage({ id, kind: job.kind, bytes: owned } satisfies ExtractRequest, [owned.buffer as ArrayBuffer]);
    });
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    this.workerThread = null;
    const mb = this.options.memoryMb ?? 512;
    const worker = new Worker(this.options.workerFile, { resourceLimits: { maxOldGenerationSizeMb: mb, maxYoungGenerationSizeMb: 32 }, stdout: true, stderr: true });
    worker.on('error', () => undefined); // an out-of-memory abort surfaces as 'exit'
    // pdf.js warns about fonts and broken objects on stdout/stderr: stdout belongs to MCP, so the worker's is drained.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on('message', (m: { thread?: unknown }) => {
      if (typeof m.thread === 'number' && this.worker === worker) this.workerThread = m.thread;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** A folder stopped being published: its documents' text leaves the disk. */
  async forgetFolder(folder: string): Promise<void> {
    for (const key of this.cache.keys()) if (key.startsWith(`${folder}\u0000`)) this.forget(key);
    await this.options.disk?.forgetFolder(folder);
  }

  private forget(key: string): void {
    const o = this.cache.get(key);
    if (!o) return;
    this.cache.delete(key);
    this.cachedChars -= outcomeChars(key, o);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve({ reason: 'busy', message: 'the server is stopping' });
    await this.worker?.terminate();
    this.worker = null;
  }
}
