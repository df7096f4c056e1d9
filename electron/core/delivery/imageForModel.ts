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

export type ImageFailure = { reason: 'unsupported' | 'too-large' | 'corrupt' | 'timeout' | 'busy'; message: string; original?: ImageInfo };

/**
 * Images made fit for a model, in a worker thread (sharp; see
 * imageWorker.ts): a decode bounded in pixels, one image at a time, each
 * within a time limit.
 */
export class ImageForModel {
  private readonly jobs: WorkerJobs<ImageRequest, ImageReply>;
  private sharpLoaded: Promise<unknown> | null = null;

  constructor(workerFile: URL | string, timeoutMs = 20_000) {
    this.jobs = new WorkerJobs({ workerFile, timeoutMs, maxQueued: 32, memoryMb: 128 });
  }

  get conversions(): number {
    return this.jobs.runs;
  }

  async convert(bytes: Uint8Array, limits: { maxSide: number; maxBytes: number }): Promise<ModelImage | ImageFailure> {
    return this.convertWhenAdmitted(() => bytes, limits);
  }

  /**
   * Like convert, but the image's bytes are read (`load`) only when the worker
   * takes the job: images waiting in the queue hold nothing but their place.
   * What `load` throws (the memory budget refusing, the file gone) is thrown.
   */
  async convertWhenAdmitted(load: () => Uint8Array | Promise<Uint8Array>, limits: { maxSide: number; maxBytes: number }): Promise<ModelImage | ImageFailure> {
    // sharp's shared libraries must be loaded by the main thread before a worker loads them (glibc Linux; see sharp's docs on worker threads).
    this.sharpLoaded ??= import('sharp').catch(() => null);
    await this.sharpLoaded;
    try {
      const reply = await this.jobs.runWhenAdmitted(async () => {
        const owned = transferable(await load());
        return { request: { bytes: owned, maxSide: limits.maxSide, maxBytes: limits.maxBytes }, transfer: [owned.buffer as ArrayBuffer] };
      });
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
