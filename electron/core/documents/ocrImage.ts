import sharp from 'sharp';

import { ExtractionError } from './extractionError.js';
import type { GreyImage } from './pdfium.js';

/**
 * An image file (PNG, JPEG, WebP, TIFF) as grey pixels for OCR, by sharp
 * inside the OCR worker. The declared size is checked before anything is
 * decoded (a 100,000 × 100,000 PNG of a few bytes is refused at once), and a
 * large image is scaled down while it is decoded, so what OCR gets stays
 * bounded whatever the file claims.
 */

/** The largest image decoded: 100 megapixels (a 40-megapixel camera photo fits; a pixel bomb does not). */
export const MAX_OCR_INPUT_PIXELS = 100_000_000;
/** Longest side given to OCR: an A4 page at 350 dpi. Larger is slower and reads no better. */
const MAX_OCR_SIDE = 4_100;
/** Pages of a multi-page TIFF (a fax, a scanned letter) read at most. */
export const MAX_IMAGE_PAGES = 50;

sharp.cache(false);
sharp.concurrency(1);

const open = (bytes: Uint8Array, page = 0) =>
  sharp(bytes, { limitInputPixels: MAX_OCR_INPUT_PIXELS, page, sequentialRead: true, failOn: 'none' }).timeout({ seconds: 30 });

export interface ImagePages {
  pages: number;
  /** Page `index` in grey, at the resolution it is given to OCR (0: unknown). */
  page(index: number): Promise<GreyImage & { dpi: number }>;
}

export async function imagePages(bytes: Uint8Array): Promise<ImagePages> {
  let meta;
  try {
    // The header only, with no pixel limit: the size is checked here, so a pixel bomb is "too large", not "unreadable".
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch (err) {
    throw new ExtractionError('corrupt', `Not a readable image (${(err as Error).message})`);
  }
  const check = (width: number | undefined, height: number | undefined) => {
    if (!width || !height) throw new ExtractionError('corrupt', 'The image has no size');
    if (width * height > MAX_OCR_INPUT_PIXELS)
      throw new ExtractionError('too-large', `The image is ${width}×${height} px, over the ${MAX_OCR_INPUT_PIXELS / 1e6} megapixels OCR reads`);
  };
  check(meta.width, meta.pageHeight ?? meta.height);
  return {
    // An animation's frames are one picture moving (a 50-frame WebP took 50 OCR runs, 86 s each here): its
    // first frame is read. A multi-page TIFF or PDF-like scan has no frame delays, and its pages are read.
    pages: meta.delay !== undefined && meta.delay.length > 0 ? 1 : Math.min(meta.pages ?? 1, MAX_IMAGE_PAGES),
    async page(index) {
      try {
        const m = index === 0 ? meta : await sharp(bytes, { limitInputPixels: false, page: index, failOn: 'none' }).metadata();
        check(m.width, m.pageHeight ?? m.height);
        const one = open(bytes, index);
        const { data, info } = await one
          .autoOrient()
          .resize({ width: MAX_OCR_SIDE, height: MAX_OCR_SIDE, fit: 'inside', withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .greyscale()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const scale = info.width / ((m.autoOrient?.width ?? m.width) || info.width);
        return {
          width: info.width,
          height: info.height,
          data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
          dpi: m.density ? m.density * scale : 0,
        };
      } catch (err) {
        if (err instanceof ExtractionError) throw err;
        throw new ExtractionError('corrupt', `Not a readable image (${(err as Error).message})`);
      }
    },
  };
}
