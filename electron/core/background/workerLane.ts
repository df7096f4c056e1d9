import { Worker } from 'node:worker_threads';

import { FairQueue, type Refusal } from './fairQueue.js';

/**
 * One worker thread and its queue, one job at a time: the lane every
 * background worker runs in (images, grep, diffs through WorkerJobs; document
 * text and OCR through ExtractLane). Parties (clients; '' the server itself)
 * are served in turn, each with its share of the queue, so one client's
 * flood waits behind nobody's single request. How a job is posted and
 * watched is the user's (`execute`); the lane owns the queue, the order and
 * the worker's life.
 */

export interface WorkerLaneOptions {
  /** The built worker file (beside the host's bundle). */
  workerFile: URL | string;
  /** The worker's V8 old-generation heap. */
  memoryMb: number;
  /** Jobs waiting at most, and one party's at most. */
  maxQueued: number;
  maxQueuedPerParty: number;
  /** Called for each worker started, before its first job (to listen for what it says first). */
  onSpawn?: (worker: Worker) => void;
}

export class WorkerLane<Job> {
  private worker: Worker | null = null;
  private readonly queue: FairQueue<Job>;
  private running = false;
  private closedNow = false;

  /** `execute` runs one job to its end (it settles the job's own promise; what it throws is lost). */
  constructor(
    private readonly options: WorkerLaneOptions,
    private readonly execute: (job: Job) => Promise<void>,
  ) {
    this.queue = new FairQueue({ total: options.maxQueued, perParty: options.maxQueuedPerParty });
  }

  get closed(): boolean {
    return this.closedNow;
  }

  get waiting(): number {
    return this.queue.size;
  }

  get busy(): boolean {
    return this.running;
  }

  /** Queues `job` for `party`: null when it is taken, else why it is refused (the queue is full). */
  enqueue(party: string, job: Job): Refusal | null {
    const refused = this.queue.push(party, job);
    if (!refused) this.pump();
    return refused;
  }

  private pump(): void {
    if (this.running || this.closedNow) return;
    const job = this.queue.shift();
    if (job === undefined) return;
    this.running = true;
    // The next job starts as soon as this one is settled (execute settles its job itself; a throw is not lost work).
    const next = () => {
      this.running = false;
      this.pump();
    };
    this.execute(job).then(next, next);
  }

  /** The worker, started when none runs. */
  current(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    worker.on('error', () => undefined); // an out-of-memory abort surfaces as 'exit'
    // stdout belongs to MCP on the bridge's side of things: a worker's output is drained, never passed on.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    this.worker = worker;
    this.options.onSpawn?.(worker);
    return worker;
  }

  /** Whether `worker` is the lane's worker now (not one stopped or lost since). */
  isCurrent(worker: Worker): boolean {
    return this.worker === worker;
  }

  /** Stops `worker` (its job went past a bound, or it holds memory to give back): the next job starts a new one. */
  retire(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    void worker.terminate();
  }

  /** `worker` ended by itself (it crashed or ran out of heap): the next job starts a new one. */
  lost(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
  }

  /** Stops the lane: each job still waiting goes to `left` (for its caller to be told), then the worker ends. */
  async close(left: (job: Job) => void): Promise<void> {
    this.closedNow = true;
    for (const job of this.queue.drain()) left(job);
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
