import { DOMParser } from '@xmldom/xmldom';

import type { DocumentKind } from './documentKinds.js';
import { ExtractionError } from './extractionError.js';
import { formatText } from './formats/formatText.js';
import { type OcrRequest, recognize } from './ocr.js';
import { MAX_OCR_PAGES, OCR_DOCUMENT_MS } from './ocrLimits.js';
import { readParts, storedZip } from './officeZip.js';
import { PdfiumDocument } from './pdfium.js';
import { ownThreadCpuMs } from './threadCpu.js';

/**
 * A document's text, by kind, with its parts marked (`--- Page 3 ---`,
 * `--- Sheet: Totals ---`, `--- Slide 2 ---`). Runs inside the extraction
 * worker (documentText.ts), which bounds its time and memory; the checks
 * here make hostile files fail early with a clear reason.
 */

/**
 * The XML parts of an Office file may inflate to at most this in all: their
 * declared sizes must fit (an honest zip bomb is refused before anything is
 * inflated), and no part may inflate past what it declares (officeZip.ts).
 */
export const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;
/** Parts of an Office file read at most. */
const MAX_PARTS = 20_000;
/** Text beyond this is cut, with a note saying so. */
export const MAX_TEXT_CHARS = 32 * 1024 * 1024;

export interface Extracted {
  text: string;
  /** Pages, sheets or slides. */
  parts: number;
  /** A PDF with scanned pages, when OCR is on: each page's text layer (empty for a scan), for the OCR worker to complete. */
  pageTexts?: string[];
}

/** What the worker is asked: a document's text, or (the OCR worker) the words in its images. */
export interface ExtractOptions {
  /** OCR's languages and data; null: OCR is off. */
  ocr: OcrRequest | null;
  /** 'ocr': read images and scanned pages (the OCR worker); 'text': the text layer only. */
  stage: 'text' | 'ocr';
  /** For a PDF's OCR stage: its pages' text layers from the text stage. */
  pageTexts?: string[];
}

const mark = (name: string, n: number | string) => `--- ${name} ${n} ---`;

function finish(parts: string[], names: string[]): Extracted {
  let text = parts.map((p, i) => `${names[i]}\n${p.trim()}\n`).join('\n');
  if (text.length > MAX_TEXT_CHARS) text = `${text.slice(0, MAX_TEXT_CHARS)}\n[… text cut at ${MAX_TEXT_CHARS} characters]\n`;
  return { text, parts: parts.length };
}

/** The XML parts (.xml, .rels) hold an Office file's text and structure; media is never inflated. */
const isXmlPart = (name: string) => name.endsWith('.xml') || name.endsWith('.rels');

/**
 * An Office file's XML parts, inflated within the bounds, as a zip stored
 * uncompressed: mammoth and read-excel-file read it and inflate nothing.
 */
function boundedZip(bytes: Uint8Array): Buffer {
  const zip = storedZip(readParts(bytes, isXmlPart, { maxBytes: MAX_EXPANDED_BYTES, maxParts: MAX_PARTS }));
  return Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
}

/** The first line of a part whose text OCR found: the words may be misread. */
export const OCR_NOTE = '[text recognised by OCR from the page image]';

/**
 * A PDF's text, page by page (PDFium). Pages without a text layer are
 * scans: with `ocr` they are left empty and the result says which, for the
 * OCR worker to fill in (pdfOcr); without it, they stay empty, and a PDF
 * with no text at all says it needs OCR.
 */
async function pdfText(bytes: Uint8Array, ocr: OcrRequest | null): Promise<Extracted> {
  const doc = await PdfiumDocument.open(bytes);
  try {
    const parts: string[] = [];
    let chars = 0;
    let blank = 0;
    for (let i = 0; i < doc.pageCount; i++) {
      const text = doc.pageText(i);
      parts.push(text);
      const n = text.trim().length;
      chars += n;
      if (n === 0) blank++;
      if (chars > MAX_TEXT_CHARS) break;
    }
    if (ocr && blank > 0) return { text: '', parts: parts.length, pageTexts: parts };
    if (chars === 0) throw new ExtractionError('no-text', `The PDF has ${doc.pageCount} page(s) but no text layer (a scan? it would need OCR, which is off)`);
    return finish(
      parts,
      parts.map((_, i) => mark('Page', i + 1)),
    );
  } finally {
    doc.close();
  }
}

/** The pages of a PDF that had no text (`pageTexts[i]` empty), read by OCR, with the rest as they were. */
async function pdfOcr(bytes: Uint8Array, pageTexts: string[], ocr: OcrRequest): Promise<Extracted> {
  const doc = await PdfiumDocument.open(bytes);
  try {
    const parts = pageTexts.slice(0, doc.pageCount);
    const until = ownThreadCpuMs() + OCR_DOCUMENT_MS;
    let read = 0;
    let left = 0;
    for (let i = 0; i < parts.length; i++) {
      if ((parts[i] ?? '').trim() !== '') continue;
      if (read >= MAX_OCR_PAGES || ownThreadCpuMs() > until) {
        left++;
        continue;
      }
      read++;
      const image = doc.renderGrey(i, doc.scanDpi(i));
      const text = await recognize(image, image.dpi, ocr);
      parts[i] = text === '' ? '' : `${OCR_NOTE}\n${text}`;
    }
    if (parts.every((p) => p.trim() === ''))
      throw new ExtractionError('no-text', `The PDF has ${doc.pageCount} page(s), no text layer, and OCR found no text in them`);
    const done = finish(
      parts,
      parts.map((_, i) => mark('Page', i + 1)),
    );
    if (left > 0)
      done.text += `\n[${left} more scanned page(s) not read by OCR: at most ${MAX_OCR_PAGES} pages and ${OCR_DOCUMENT_MS / 60_000} minutes of processor time per document]\n`;
    return done;
  } finally {
    doc.close();
  }
}

/** An image's words by OCR: one part per page (a TIFF may have several). */
async function imageOcr(bytes: Uint8Array, ocr: OcrRequest): Promise<Extracted> {
  // sharp is loaded only by the worker that reads images.
  const { imagePages } = await import('./ocrImage.js');
  const image = await imagePages(bytes);
  const until = ownThreadCpuMs() + OCR_DOCUMENT_MS;
  const parts: string[] = [];
  for (let i = 0; i < image.pages && (i === 0 || ownThreadCpuMs() < until); i++) {
    const page = await image.page(i);
    parts.push(await recognize(page, page.dpi, ocr));
  }
  if (parts.every((p) => p.trim() === '')) throw new ExtractionError('no-text', 'OCR found no text in the image');
  const done = finish(
    parts.map((p) => `${OCR_NOTE}\n${p}`),
    parts.map((_, i) => mark('Page', i + 1)),
  );
  if (parts.length < image.pages)
    done.text += `\n[${image.pages - parts.length} more page(s) not read by OCR: at most ${OCR_DOCUMENT_MS / 60_000} minutes of processor time per image]\n`;
  return done;
}

async function docxText(bytes: Uint8Array): Promise<Extracted> {
  const zip = boundedZip(bytes);
  const mammoth = await import('mammoth');
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ buffer: zip }));
  } catch (err) {
    throw new ExtractionError('corrupt', `Not a readable Word document (${(err as Error).message})`);
  }
  if (value.trim() === '') throw new ExtractionError('no-text', 'The document has no text');
  return finish([value], [mark('Document', 1)]);
}

async function xlsxText(bytes: Uint8Array): Promise<Extracted> {
  const zip = boundedZip(bytes);
  const { default: readXlsxFile } = await import('read-excel-file/node');
  let sheets;
  try {
    sheets = await readXlsxFile(zip);
  } catch (err) {
    throw new ExtractionError('corrupt', `Not a readable spreadsheet (${(err as Error).message})`);
  }
  const cell = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v).replace(/[\t\n\r]+/g, ' '));
  const parts = sheets.map((s) => s.data.map((row) => row.map(cell).join('\t').replace(/\t+$/, '')).join('\n'));
  if (parts.every((p) => p.trim() === '')) throw new ExtractionError('no-text', 'The spreadsheet has no values');
  return finish(
    parts,
    sheets.map((s) => mark('Sheet:', s.sheet)),
  );
}

const DRAWING_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main';

/** Slides in order, each one's paragraphs (`a:p`) as lines of their text runs (`a:t`). */
async function pptxText(bytes: Uint8Array): Promise<Extracted> {
  const files = readParts(bytes, (name) => /^ppt\/slides\/slide\d+\.xml$/.test(name), { maxBytes: MAX_EXPANDED_BYTES, maxParts: MAX_PARTS });
  const slides = [...files.keys()].sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  if (slides.length === 0) throw new ExtractionError('corrupt', 'Not a presentation: it has no slides');
  const decoder = new TextDecoder();
  const parts = slides.map((name) => {
    const xml = new DOMParser({ onError: () => undefined }).parseFromString(decoder.decode(files.get(name)), 'text/xml');
    const paragraphs = Array.from(xml.getElementsByTagNameNS(DRAWING_NS, 'p'));
    return paragraphs
      .map((p) =>
        Array.from(p.getElementsByTagNameNS(DRAWING_NS, 't'))
          .map((t) => t.textContent ?? '')
          .join(''),
      )
      .filter((l) => l.trim() !== '')
      .join('\n');
  });
  if (parts.every((p) => p.trim() === '')) throw new ExtractionError('no-text', 'The presentation has no text');
  return finish(
    parts,
    parts.map((_, i) => mark('Slide', i + 1)),
  );
}

export function extractText(kind: DocumentKind, bytes: Uint8Array, options: ExtractOptions = { ocr: null, stage: 'text' }): Promise<Extracted> {
  const { ocr } = options;
  if (options.stage === 'ocr') {
    if (!ocr) return Promise.reject(new ExtractionError('unsupported', 'OCR is off'));
    if (kind === 'image') return imageOcr(bytes, ocr);
    if (kind === 'pdf') return pdfOcr(bytes, options.pageTexts ?? [], ocr);
  }
  switch (kind) {
    case 'pdf':
      return pdfText(bytes, ocr);
    case 'docx':
      return docxText(bytes);
    case 'xlsx':
      return xlsxText(bytes);
    case 'pptx':
      return pptxText(bytes);
    case 'image':
      return Promise.reject(new ExtractionError('unsupported', 'An image has text only through OCR'));
    default:
      // EPUB, OpenDocument, RTF, HTML, notebooks and mail: formats/, within the same bounds.
      return formatText(kind, bytes, { maxChars: MAX_TEXT_CHARS, maxExpandedBytes: MAX_EXPANDED_BYTES, maxParts: MAX_PARTS }).then((r) =>
        finish(r.parts, r.names),
      );
  }
}
