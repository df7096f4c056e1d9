import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { ExtractionError } from './extractionError.js';
import { LANGUAGE_CODE } from './ocrLimits.js';
import type { GreyImage } from './pdfium.js';

/**
 * Optical character recognition with Tesseract (tesseract.js-core: the
 * engine tesseract.js runs, as WebAssembly) inside the OCR worker. Used
 * directly rather than through tesseract.js, whose Node build starts a
 * thread of its own (outside this worker's time and memory bounds) and
 * fetches language data from the network when it is not given: here the
 * data only ever comes from files on disk — an installed
 * `@tesseract.js-data/<lang>` package (English ships) or
 * `<lang>.traineddata[.gz]` in the settings folder's `ocr-languages/`.
 */

/** What the parent asks the OCR worker to use. */
export interface OcrRequest {
  /** Tesseract language codes (`eng`, `deu`, `chi_sim`), joined with + for Tesseract. */
  languages: string[];
  /** Folders searched for `<lang>.traineddata[.gz]` after the installed packages. */
  dataDirs: string[];
}

const require = createRequire(import.meta.url);

interface TessApi {
  Init(dataPath: string, languages: string, oem: number): number;
  SetImageFile(exif: number, angle: number): number;
  SetSourceResolution(dpi: number): void;
  Recognize(monitor: null): number;
  GetUTF8Text(): string;
  MeanTextConf(): number;
  Clear(): void;
  End(): void;
}
interface TessModule {
  FS: { writeFile(path: string, data: Uint8Array): void; unlink(path: string): void; mkdir(path: string): void };
  TessBaseAPI: new () => TessApi;
}

/**
 * Tesseract's mean word confidence (0–100) below which what it found is
 * dropped. Measured here: rendered text 96, a 110-dpi scan 91; random noise
 * 4 (with "words" such as "cit -"), a gradient and flat shapes 0.
 */
const MIN_CONFIDENCE = 50;

let engine: { languages: string; api: TessApi; module: TessModule } | null = null;

/** A language's trained data, from an installed package or a data folder; null when it is nowhere. */
function languageData(lang: string, dataDirs: string[]): Uint8Array | null {
  if (!LANGUAGE_CODE.test(lang)) return null;
  const candidates: string[] = [];
  try {
    // The package's own layout: best_int (integer LSTM) is what tesseract.js loads by default.
    candidates.push(path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int', `${lang}.traineddata.gz`));
  } catch {
    // not installed as a package
  }
  for (const dir of dataDirs) candidates.push(path.join(dir, `${lang}.traineddata`), path.join(dir, `${lang}.traineddata.gz`));
  const file = candidates.find((f) => existsSync(f));
  if (!file) return null;
  const raw = readFileSync(file);
  return raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
}

/** The engine with `languages` loaded, made once per worker (and again when the languages change). */
async function tesseract(request: OcrRequest): Promise<{ api: TessApi; module: TessModule }> {
  const languages = request.languages.join('+');
  if (engine?.languages === languages) return engine;
  engine?.api.End();
  engine = null;
  if (request.languages.length === 0) throw new ExtractionError('unsupported', 'No OCR language is set');
  const data = request.languages.map((lang) => ({ lang, data: languageData(lang, request.dataDirs) }));
  const missing = data.filter((d) => !d.data).map((d) => d.lang);
  if (missing.length) {
    throw new ExtractionError(
      'unsupported',
      `OCR language ${missing.join(', ')} is not installed (put ${missing[0]}.traineddata in the settings folder's ocr-languages folder)`,
    );
  }
  // SIMD and LSTM only: every Node and Electron this runs on has WebAssembly SIMD, and the LSTM engine is the accurate one.
  const factory = require('tesseract.js-core/tesseract-core-simd-lstm.js') as (m: object) => Promise<TessModule>;
  const module = await factory({ print: () => undefined, printErr: () => undefined });
  module.FS.mkdir('/tessdata');
  for (const d of data) module.FS.writeFile(`/tessdata/${d.lang}.traineddata`, d.data as Uint8Array);
  const api = new module.TessBaseAPI();
  // OEM 1: LSTM only.
  if (api.Init('/tessdata', languages, 1) !== 0) throw new ExtractionError('unsupported', `The OCR language data for ${languages} could not be loaded`);
  engine = { languages, api, module };
  return engine;
}

/**
 * Share of neighbouring pixels (side by side) that differ by more than this
 * grey step: an edge. Text is edges around glyphs on a plain ground.
 */
const EDGE_STEP = 48;
/**
 * Above this share of edges a picture is texture (noise, gravel, foliage),
 * not text: Tesseract would spend minutes on it (a 3000 × 2000 noise PNG took
 * 159 s of its time here) to find nothing. Measured: a 110-dpi scan 7 %,
 * dense 12-px text 22 % (20 % light on dark), random noise 53 %.
 */
const MAX_EDGE_SHARE = 0.35;

function edgeShare(image: GreyImage): number {
  const { width, height, data } = image;
  let edges = 0;
  // Every other row is enough to tell.
  for (let y = 0; y < height; y += 2) {
    const row = y * width;
    for (let x = 0; x + 1 < width; x++) if (Math.abs((data[row + x] as number) - (data[row + x + 1] as number)) > EDGE_STEP) edges++;
  }
  return edges / Math.max(1, Math.ceil(height / 2) * (width - 1));
}

/** The words Tesseract finds in a grey image (scanned at `dpi`), lines ending in \n; '' when there are none. */
export async function recognize(image: GreyImage, dpi: number, request: OcrRequest): Promise<string> {
  const { api, module } = await tesseract(request);
  if (edgeShare(image) > MAX_EDGE_SHARE) return '';
  // A PGM file: Leptonica reads it without any image library, and the pixels are copied once.
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const pgm = new Uint8Array(header.length + image.data.length);
  pgm.set(header);
  pgm.set(image.data, header.length);
  module.FS.writeFile('/input', pgm);
  try {
    if (api.SetImageFile(1, 0) === 1) throw new ExtractionError('corrupt', 'The image could not be read for OCR');
    if (dpi > 0) api.SetSourceResolution(Math.round(dpi));
    if (api.Recognize(null) !== 0) return '';
    const text = api
      .GetUTF8Text()
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    // A photo, a drawing or noise gives a few "words" Tesseract itself doubts: not text worth giving anyone.
    if (api.MeanTextConf() < MIN_CONFIDENCE || (text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 3) return '';
    return text;
  } finally {
    api.Clear();
    module.FS.unlink('/input');
  }
}
