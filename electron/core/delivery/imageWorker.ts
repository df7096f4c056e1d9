import { parentPort } from 'node:worker_threads';

import type { Metadata, OutputInfo } from 'sharp';
import sharp from 'sharp';

import { runAsBackgroundThread } from '../background/backgroundThread.js';

// Background work: below the thread answering clients (backgroundThread.ts).
runAsBackgroundThread();

/**
 * The image worker: one image at a time, made fit for a model — within a
 * longest side, an area and a byte size, upright, in a format every model takes
 * (PNG, JPEG, GIF, WebP) — or passed through as it is when it already is.
 * Decoding is bounded in pixels and time here; the parent also stops the
 * worker when an image takes too long.
 */

export interface ImageRequest {
  id: number;
  bytes: Uint8Array;
  maxSide: number;
  /** Pixels at most (width × height): a 4000×3000 photo goes out at 1237×928, not 1568×1176. */
  maxPixels: number;
  maxBytes: number;
}

export interface ImageInfo {
  format: string;
  width: number;
  height: number;
}

export type ImageReply =
  | { id: number; ok: true; data: Uint8Array; mimeType: string; width: number; height: number; original: ImageInfo; converted: boolean }
  | { id: number; ok: false; reason: 'unsupported' | 'too-large' | 'corrupt'; message: string; original?: ImageInfo };

/** The largest image decoded (50 megapixels: about 200 MB as RGBA). */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Formats models take as they are. */
const PASS_THROUGH: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

sharp.cache(false);
sharp.concurrency(1);

const open = (bytes: Uint8Array) => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true, failOn: 'none' }).timeout({ seconds: 20 });

/** The size an image of `width`×`height` is scaled to: within `side` on its long side and `pixels` in area, never enlarged. */
export function fitted(width: number, height: number, side: number, pixels: number): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height), Math.sqrt(pixels / (width * height)));
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

async function encode(
  bytes: Uint8Array,
  size: { width: number; height: number },
  alpha: boolean,
  quality: number,
): Promise<{ data: Buffer; info: OutputInfo; mimeType: string }> {
  const pipeline = open(bytes).autoOrient().resize({ width: size.width, height: size.height, fit: 'inside', withoutEnlargement: true });
  // Transparency needs PNG (or WebP when PNG is too big); photos are smaller as JPEG.
  const out = alpha ? (quality >= 90 ? pipeline.png({ compressionLevel: 6 }) : pipeline.webp({ quality })) : pipeline.jpeg({ quality });
  const { data, info } = await out.toBuffer({ resolveWithObject: true });
  return { data, info, mimeType: alpha ? (quality >= 90 ? 'image/png' : 'image/webp') : 'image/jpeg' };
}

async function forModel(req: ImageRequest): Promise<ImageReply> {
  let meta: Metadata;
  try {
    meta = await open(req.bytes).metadata();
  } catch (err) {
    return { id: req.id, ok: false, reason: 'corrupt', message: `not a readable image (${(err as Error).message})` };
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  const original: ImageInfo = { format: meta.format, width, height };
  if (!width || !height) return { id: req.id, ok: false, reason: 'corrupt', message: 'the image has no size', original };
  if (width * height > MAX_INPUT_PIXELS) {
    return {
      id: req.id,
      ok: false,
      reason: 'too-large',
      message: `${width}×${height} is over the ${MAX_INPUT_PIXELS / 1e6} megapixels decoded at most`,
      original,
    };
  }
  const upright = !meta.orientation || meta.orientation === 1;
  const passMime = PASS_THROUGH[meta.format];
  if (passMime && upright && Math.max(width, height) <= req.maxSide && width * height <= req.maxPixels && req.bytes.length <= req.maxBytes) {
    return { id: req.id, ok: true, data: req.bytes, mimeType: passMime, width, height, original, converted: false };
  }
  try {
    let size = fitted(width, height, req.maxSide, req.maxPixels);
    const alpha = meta.hasAlpha;
    // Best quality first; then less quality, then fewer pixels, until it fits.
    for (const quality of [95, 82, 70, 60, 50, 40]) {
      const q = alpha ? quality : Math.min(quality, 85);
      const { data, info, mimeType } = await encode(req.bytes, size, alpha, q);
      if (data.length <= req.maxBytes) return { id: req.id, ok: true, data, mimeType, width: info.width, height: info.height, original, converted: true };
      if (quality <= 70) size = fitted(size.width, size.height, Math.max(64, Math.floor(Math.max(size.width, size.height) * 0.75)), Number.POSITIVE_INFINITY);
    }
    return { id: req.id, ok: false, reason: 'too-large', message: `it does not fit in ${req.maxBytes} bytes even when made smaller`, original };
  } catch (err) {
    return { id: req.id, ok: false, reason: 'corrupt', message: `it could not be converted (${(err as Error).message})`, original };
  }
}

parentPort?.on('message', (req: ImageRequest) => {
  // Copied back, not transferred: at most maxBytes, and a Buffer's memory may be shared with others.
  void forModel(req).then((reply) => parentPort?.postMessage(reply));
});
