import { JobRefused, transferable, WorkerJobs } from '../background/workerJobs.js';
import type { ImageInfo, ImageReply, ImageRequest } from './imageWorker.js';

export type { ImageInfo };

/** What a model is sent for an image: the bytes of an image block, and what they are. */
export interface ModelImage {
  data: Uint8Array;
  mimeType: string;
  width: number;
  height: number;
  original: ImageInfo;
  /** Re-encoded (smaller, upright, or another format); false when the file went as it is. */
  converted: boolean;
}

/** What an image is made to fit: its long side, its area (absent: the long side alone) and its encoded size. */
export interface ImageLimits {
  maxSide: number;
  maxPixels?: number;
  maxBytes: number;
}

export type ImageFailure = { reason: 'unsupported' | 'too-large' | 'corrupt' | 'timeout' | 'busy'; message: string; original?: ImageInfo };

/**
 * Images made fit for a model, in a worker thread (sharp; see
 * imageWorker.ts): a decode bounded in pixels, one image at a time, each
 * within a time limit.
 */
/** How long a file version that could not be converted is answered from memory, and how many are kept. */
const FAILURE_MEMORY_MS = 10 * 60_000;
const MAX_FAILURES = 1_000;

export class ImageForModel {
  private readonly jobs: WorkerJobs<ImageRequest, ImageReply>;
  private sharpLoaded: Promise<unknown> | null = null;
  /**
   * Failures by file version (a 2 KB SVG named logo.png took the full 20 s
   * every time it was asked for): answered at once until the file changes or
   * the memory lapses. `busy` is not remembered (it says nothing of the file).
   */
  private readonly failures = new Map<string, { until: number; failure: ImageFailure }>();

  constructor(workerFile: URL | string, timeoutMs = 20_000) {
    // A client may have 4 images waiting, and clients are served in turn: one that queues many cannot hold another's up.
    this.jobs = new WorkerJobs({ workerFile, timeoutMs, maxQueued: 32, maxQueuedPerParty: 4, memoryMb: 128 });
  }

  get conversions(): number {
    return this.jobs.runs;
  }

  async convert(bytes: Uint8Array, limits: ImageLimits, party = ''): Promise<ModelImage | ImageFailure> {
    return this.convertWhenAdmitted(() => bytes, limits, party);
  }

  /**
   * Like convert, but the image's bytes are read (`load`) only when the worker
   * takes the job: images waiting in the queue hold nothing but their place.
   * What `load` throws (the memory budget refusing, the file gone) is thrown.
   */
  async convertWhenAdmitted(
    load: () => Uint8Array | Promise<Uint8Array>,
    limits: ImageLimits,
    /** Who asks (a client): parties are served in turn, each with its share of the queue. */
    party = '',
    /** The file's version (path, size, modification time): a failure is remembered for it. */
    version?: string,
  ): Promise<ModelImage | ImageFailure> {
    const known = version === undefined ? undefined : this.failures.get(version);
    if (known && known.until > Date.now()) return known.failure;
    if (known) this.failures.delete(version as string);
    const out = await this.convertNow(load, limits, party);
    if (version !== undefined && 'reason' in out && out.reason !== 'busy') {
      const again = { ...out, message: `${out.message} (not tried again for ${FAILURE_MEMORY_MS / 60_000} minutes unless the file changes)` };
      this.failures.set(version, { until: Date.now() + FAILURE_MEMORY_MS, failure: again });
      if (this.failures.size > MAX_FAILURES) this.failures.delete(this.failures.keys().next().value as string);
    }
    return out;
  }

  private async convertNow(load: () => Uint8Array | Promise<Uint8Array>, limits: ImageLimits, party: string): Promise<ModelImage | ImageFailure> {
    // sharp's shared libraries must be loaded by the main thread before a worker loads them (glibc Linux; see sharp's docs on worker threads).
    this.sharpLoaded ??= import('sharp').catch(() => null);
    await this.sharpLoaded;
    try {
      const reply = await this.jobs.runWhenAdmitted(async () => {
        const owned = transferable(await load());
        return {
          request: { bytes: owned, maxSide: limits.maxSide, maxPixels: limits.maxPixels ?? Number.POSITIVE_INFINITY, maxBytes: limits.maxBytes },
          transfer: [owned.buffer as ArrayBuffer],
        };
      }, party);
      if (!reply.ok) return { reason: reply.reason, message: reply.message, ...(reply.original ? { original: reply.original } : {}) };
      return { data: reply.data, mimeType: reply.mimeType, width: reply.width, height: reply.height, original: reply.original, converted: reply.converted };
    } catch (err) {
      if (!(err instanceof JobRefused)) throw err;
      return { reason: err.reason === 'busy' ? 'busy' : 'timeout', message: err.message };
    }
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
