import { Worker } from 'node:worker_threads';

import { FairQueue, refusalMessage } from './fairQueue.js';

/**
 * One worker thread doing one job at a time for the main thread, so what a
 * file makes us do (decode an image, run a regular expression over
 * megabytes) never holds the thread that answers clients. A job that takes
 * too long stops the worker (a new one starts for the next job); a full
 * queue refuses rather than grows.
 */

export interface WorkerJobsOptions {
  /** The built worker file (beside the host's bundle). */
  workerFile: URL | string;
  /** One job may take this long. */
  timeoutMs: number;
  /** Jobs waiting at most; past this `run` rejects with JobRefused('busy'). */
  maxQueued: number;
  /** Jobs one party (a client) may have waiting; parties are served in turn. Default: maxQueued (callers that bound their parties otherwise, as grep's turns do). */
  maxQueuedPerParty?: number;
  /** The worker's V8 heap. */
  memoryMb?: number;
}

/**
 * Bytes to move to a worker (a transfer, not a copy): the view itself when it
 * owns its whole ArrayBuffer, else a copy. A Buffer is often a view into
 * Node's shared pool, which cannot be transferred (Node 22, Electron's: a
 * DataCloneError; Node 20 copied it quietly), and Buffer#slice copies nothing.
 */
export function transferable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return (
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes)
  ) as Uint8Array<ArrayBuffer>;
}

export class JobRefused extends Error {
  constructor(
    readonly reason: 'busy' | 'timeout' | 'crashed' | 'closed',
    message?: string,
  ) {
    super(
      message ??
        (reason === 'busy'
          ? 'too many requests are waiting for this work; try again shortly'
          : reason === 'timeout'
            ? 'it took too long'
            : reason === 'crashed'
              ? 'the worker stopped (out of memory?)'
              : 'the server is stopping'),
    );
  }
}

/** A job's request and the buffers to move with it. */
export interface JobInput<Req> {
  request: Omit<Req, 'id'>;
  transfer: ArrayBuffer[];
}

interface Job<Req, Reply> {
  /** Called when the job's turn comes: what a job needs (a file's bytes) is not held while it waits. */
  load: () => JobInput<Req> | Promise<JobInput<Req>>;
  resolve: (reply: Reply) => void;
  reject: (err: unknown) => void;
}

export class WorkerJobs<Req extends { id: number }, Reply extends { id: number }> {
  private worker: Worker | null = null;
  private readonly queue: FairQueue<Job<Req, Reply>>;
  private running = false;
  private nextId = 1;
  private closed = false;
  /** Jobs run, for tests and the bench. */
  runs = 0;

  constructor(private readonly options: WorkerJobsOptions) {
    this.queue = new FairQueue({ total: options.maxQueued, perParty: options.maxQueuedPerParty ?? options.maxQueued });
  }

  /** Runs one job; `transfer` moves buffers to the worker instead of copying them. */
  run(request: Omit<Req, 'id'>, transfer: ArrayBuffer[] = [], party = ''): Promise<Reply> {
    return this.runWhenAdmitted(() => ({ request, transfer }), party);
  }

  /**
   * Runs one job whose input is made only when its turn comes (`load` reads
   * the file then): a queue of 32 waiting 63 MiB images held 2 GiB of copies
   * before, and the ones refused as busy were refused after theirs was made.
   * What `load` throws is what the job rejects with.
   */
  runWhenAdmitted(load: () => JobInput<Req> | Promise<JobInput<Req>>, party = ''): Promise<Reply> {
    if (this.closed) return Promise.reject(new JobRefused('closed'));
    return new Promise<Reply>((resolve, reject) => {
      const refused = this.queue.push(party, { load, resolve, reject });
      if (refused) reject(new JobRefused('busy', refusalMessage(refused, 'requests for this work')));
      else this.pump();
    });
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = true;
    void this.execute(job)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  private async execute(job: Job<Req, Reply>): Promise<Reply> {
    const input = await job.load();
    if (this.closed) throw new JobRefused('closed');
    return this.post(input);
  }

  private post(job: JobInput<Req>): Promise<Reply> {
    const worker = this.spawn();
    const id = this.nextId++;
    this.runs++;
    return new Promise<Reply>((resolve, reject) => {
      const done = (err: JobRefused | null, reply?: Reply) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        if (err) reject(err);
        else resolve(reply as Reply);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id === id) done(null, reply);
      };
      const onExit = () => {
        this.worker = null;
        done(new JobRefused('crashed'));
      };
      const timer = setTimeout(() => {
        worker.off('exit', onExit);
        this.worker = null;
        void worker.terminate();
        done(new JobRefused('timeout'));
      }, this.options.timeoutMs);
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage({ ...job.request, id }, job.transfer);
    });
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    const mb = this.options.memoryMb ?? 256;
    const worker = new Worker(this.options.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: mb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    worker.on('error', () => undefined); // surfaces as 'exit'
    // stdout belongs to MCP on the bridge's side of things: a worker's output is drained, never passed on.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) job.reject(new JobRefused('closed'));
    await this.worker?.terminate();
    this.worker = null;
  }
}
