import { WorkerJobs } from '../background/workerJobs.js';
import type { DiffReply, DiffRequest } from './diffWorker.js';
import { type LineDiff, lineDiff } from './lineDiff.js';

/** Below this many characters (both texts) a diff takes well under a millisecond: it is made here, not sent away. */
const INLINE_CHARS = 64 * 1024;

/**
 * Diffs of proposed changes: small ones on the spot, large ones in a worker
 * (diffWorker.ts), one at a time, clients in turn (a client may have 4
 * waiting, as many as it may have proposals). Without a worker file (tests
 * in one process) every diff is made here.
 */
export class LineDiffer {
  private readonly jobs: WorkerJobs<DiffRequest, DiffReply> | null;

  constructor(workerFile: URL | string | null) {
    this.jobs = workerFile === null ? null : new WorkerJobs({ workerFile, timeoutMs: 30_000, maxQueued: 16, maxQueuedPerParty: 4, memoryMb: 512 });
  }

  async diff(oldText: string, newText: string, party = ''): Promise<LineDiff> {
    if (!this.jobs || oldText.length + newText.length <= INLINE_CHARS) return lineDiff(oldText, newText);
    const { hunks, added, removed } = await this.jobs.run({ oldText, newText }, [], party);
    return { hunks, added, removed };
  }

  close(): Promise<void> {
    return this.jobs?.close() ?? Promise.resolve();
  }
}
