import { refusalMessage } from '../background/fairQueue.js';
import { transferable } from '../background/workerJobs.js';
import { WorkerLane } from '../background/workerLane.js';
import type { DocumentKind } from './documentKinds.js';
import type { ExtractOptions } from './extractText.js';
import type { ExtractReply, ExtractRequest } from './extractWorker.js';
import { ProcessGrowth } from './processGrowth.js';
import { threadCpuMs } from './threadCpu.js';

export type UnavailableReason = 'no-text' | 'encrypted' | 'corrupt' | 'too-large' | 'unsupported' | 'timeout' | 'busy';

/** What one job gave: text (and, from a PDF's text stage with OCR on, its pages' text layers), or why there is none. */
export type LaneOutcome = { text: string; parts: number; pageTexts?: string[] } | { reason: UnavailableReason; message: string };

export interface LaneOptions {
  workerFile: URL | string;
  /** The worker's heap; a document that needs more fails with `too-large` and a new worker starts. */
  memoryMb?: number;
  /** What one job may add to the process's memory, heap and buffers together (see documentText.ts). */
  processMemoryMb?: number;
  /** Jobs waiting at once; past this a job is refused (busy) rather than queued. */
  maxQueued?: number;
  /** Jobs one party (a client; '' the index) may have waiting; parties are served in turn. Default: a quarter of maxQueued. */
  maxQueuedPerParty?: number;
  /**
   * Whether another lane's job runs now. The memory watched is the
   * process's, so while another job runs a job over the budget may not be
   * the one that grew it: it is stopped all the same (the bound holds), but
   * as `busy` — tried again on the next read — not a lasting `too-large`.
   */
  othersRunning?: () => boolean;
}

export interface LaneJob {
  kind: DocumentKind;
  options: ExtractOptions;
  /** Processor time the job may take. */
  timeoutMs: number;
  read: () => Promise<Uint8Array>;
  /** Who asks (a client; '' the index): parties are served in turn, each with its share of the queue. */
  party?: string;
}

/**
 * What one extraction may add to the process beyond its heap limit: its
 * buffers (the file, up to 128 MiB; an Office file's XML parts, up to 256
 * MiB, and the copies the readers make; PDFium's and Tesseract's WebAssembly
 * memories). Honest documents measured: a 2,000-page PDF, a 100,000-paragraph
 * Word file, sheets of 200,000 and 300,000 rows (mostly heap); a Flate bomb
 * grows it by up to ~30 MiB in 10 ms, so a check every 20 ms stops it within
 * a few tens of MiB (BENCHMARKS.md, "Memory").
 */
const BUFFERS_MB = 512;
const WATCH_MS = 20;
/** How often a job's processor time is looked at. */
const TIME_CHECK_MS = 250;
/** A job is ended by the clock at this many times its time limit, however little processor time it got. */
const WALL_FACTOR = 10;
/** A worker whose job grew the process by more than this is replaced afterwards, so what it held goes back to the system. */
const RECYCLE_BYTES = 128 * 1024 * 1024;
/** Samples over the budget in a row before the worker is stopped: one sample can catch a moment's jump. */
const OVER_SAMPLES = 2;

interface Queued extends LaneJob {
  resolve: (o: LaneOutcome) => void;
  /** The file itself could not be read (gone, too large…): its own error, as a read of it would get. */
  reject: (err: unknown) => void;
}

/**
 * Document extraction in a worker lane (background/workerLane.ts), one job
 * at a time (a hostile file takes the worker's time and memory, never the
 * server's), each bounded in processor time, heap and what it adds to the
 * process.
 */
export class ExtractLane {
  private readonly lane: WorkerLane<Queued>;
  /** The worker's thread id (Linux), which it says first thing: its processor time is its clock. */
  private workerThread: number | null = null;
  private nextId = 1;
  /** Jobs run, for tests and the bench. */
  runs = 0;

  constructor(private readonly options: LaneOptions) {
    const total = options.maxQueued ?? 64;
    this.lane = new WorkerLane(
      {
        workerFile: options.workerFile,
        memoryMb: options.memoryMb ?? 512,
        maxQueued: total,
        maxQueuedPerParty: options.maxQueuedPerParty ?? Math.max(1, Math.floor(total / 4)),
        onSpawn: (worker) => {
          this.workerThread = null;
          worker.on('message', (m: { thread?: unknown }) => {
            if (typeof m.thread === 'number' && this.lane.isCurrent(worker)) this.workerThread = m.thread;
          });
        },
      },
      (job) => this.run(job).then(job.resolve, job.reject),
    );
  }

  get waiting(): number {
    return this.lane.waiting;
  }

  get busy(): boolean {
    return this.lane.busy;
  }

  submit(job: LaneJob): Promise<LaneOutcome> {
    if (this.lane.closed) return Promise.resolve({ reason: 'busy', message: 'the server is stopping' });
    return new Promise<LaneOutcome>((resolve, reject) => {
      const refused = this.lane.enqueue(job.party ?? '', { ...job, resolve, reject });
      if (refused) resolve({ reason: 'busy', message: refusalMessage(refused, 'documents for extraction') });
    });
  }

  private async run(job: LaneJob): Promise<LaneOutcome> {
    const bytes = await job.read();
    this.runs++;
    const worker = this.lane.current();
    const id = this.nextId++;
    const growth = new ProcessGrowth();
    let grown = 0;
    let over = 0;
    return new Promise<LaneOutcome>((resolve) => {
      const timeoutMs = job.timeoutMs;
      const budgetMb = this.options.processMemoryMb ?? (this.options.memoryMb ?? 512) + BUFFERS_MB;
      const done = (o: LaneOutcome, stop = false) => {
        clearInterval(timer);
        clearInterval(watchdog);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        // Stopped, or it grew a lot: a fresh worker for the next job, and its memory goes back now, not at its next collection.
        if (stop || grown > RECYCLE_BYTES) this.lane.retire(worker);
        resolve(o);
      };
      const onMessage = (reply: ExtractReply) => {
        if (reply.id !== id) return;
        done(
          reply.ok
            ? { text: reply.text, parts: reply.parts, ...(reply.pageTexts ? { pageTexts: reply.pageTexts } : {}) }
            : { reason: reply.reason, message: reply.message },
        );
      };
      const onExit = () => {
        this.lane.lost(worker);
        // Stopped by close(): not the document's fault, and nothing to remember about it.
        if (this.lane.closed) return done({ reason: 'busy', message: 'the server is stopping' });
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
      const timer = setInterval(
        () => {
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
        },
        Math.min(TIME_CHECK_MS, timeoutMs),
      );
      // ArrayBuffers (and WebAssembly memories) escape the worker's heap limit: the process's growth is watched instead.
      const watchdog = setInterval(() => {
        const now = growth.bytes();
        grown = Math.max(grown, now);
        over = now > budgetMb * 1024 * 1024 ? over + 1 : 0;
        if (over < OVER_SAMPLES) return;
        if (this.options.othersRunning?.())
          done(
            { reason: 'busy', message: `the shelf's document workers needed more than the ${budgetMb} MiB of memory allowed together; try again shortly` },
            true,
          );
        else done({ reason: 'too-large', message: `extracting it needed more than the ${budgetMb} MiB of memory allowed` }, true);
      }, WATCH_MS);
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      // The bytes move to the worker (copied first only when they are a view into a larger buffer).
      const owned = transferable(bytes);
      worker.postMessage({ id, kind: job.kind, bytes: owned, options: job.options } satisfies ExtractRequest, [owned.buffer as ArrayBuffer]);
    });
  }

  close(): Promise<void> {
    return this.lane.close((job) => job.resolve({ reason: 'busy', message: 'the server is stopping' }));
  }
}
