import { refusalMessage } from './fairQueue.js';
import { WorkerLane } from './workerLane.js';

/**
 * Jobs for a worker thread, one at a time in its lane (workerLane.ts), so
 * what a file makes us do (decode an image, run a regular expression over
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
  private readonly lane: WorkerLane<Job<Req, Reply>>;
  private nextId = 1;
  /** Jobs run, for tests and the bench. */
  runs = 0;

  constructor(private readonly options: WorkerJobsOptions) {
    this.lane = new WorkerLane(
      {
        workerFile: options.workerFile,
        memoryMb: options.memoryMb ?? 256,
        maxQueued: options.maxQueued,
        maxQueuedPerParty: options.maxQueuedPerParty ?? options.maxQueued,
      },
      (job) => this.execute(job).then(job.resolve, job.reject),
    );
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
    if (this.lane.closed) return Promise.reject(new JobRefused('closed'));
    return new Promise<Reply>((resolve, reject) => {
      const refused = this.lane.enqueue(party, { load, resolve, reject });
      if (refused) reject(new JobRefused('busy', refusalMessage(refused, 'requests for this work')));
    });
  }

  private async execute(job: Job<Req, Reply>): Promise<Reply> {
    const input = await job.load();
    if (this.lane.closed) throw new JobRefused('closed');
    return this.post(input);
  }

  private post(job: JobInput<Req>): Promise<Reply> {
    const worker = this.lane.current();
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
        this.lane.lost(worker);
        done(new JobRefused('crashed'));
      };
      const timer = setTimeout(() => {
        worker.off('exit', onExit);
        this.lane.retire(worker);
        done(new JobRefused('timeout'));
      }, this.options.timeoutMs);
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage({ ...job.request, id }, job.transfer);
    });
  }

  close(): Promise<void> {
    return this.lane.close((job) => job.reject(new JobRefused('closed')));
  }
}
