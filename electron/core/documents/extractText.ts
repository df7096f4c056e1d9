// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- pdf.js ships no types for its worker module; every program compiling this file needs the declaration
/// <reference path="./pdfWorkerModule.d.ts" />
import { DOMParser } from '@xmldom/xmldom';

import type { DocumentKind } from './documentKinds.js';
import { ExtractionError } from './extractionError.js';
import { formatText } from './formats/formatText.js';
import { readParts, storedZip } from './officeZip.js';

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

async function pdfText(bytes: Uint8Array): Promise<Extracted> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js runs its parser inline ("fake worker") when this global holds it: no worker file to locate.
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  let doc;
  try {
    doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, verbosity: 0 }).promise;
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new ExtractionError('encrypted', 'The PDF is encrypted with a password');
    throw new ExtractionError('corrupt', `Not a readable PDF (${(err as Error).message})`);
  }
  try {
    const parts: string[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      parts.push(text);
      chars += text.trim().length;
      page.cleanup();
      if (chars > MAX_TEXT_CHARS) break;
    }
    if (chars === 0) throw new ExtractionError('no-text', `The PDF has ${doc.numPages} page(s) but no text layer (a scan? it would need OCR)`);
    return finish(parts, parts.map((_, i) => mark('Page', i + 1)));
  } finally {
    await doc.destroy();
  }
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
  return finish(parts, sheets.map((s) => mark('Sheet:', s.sheet)));
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
    return paragraphs.map((p) => Array.from(p.getElementsByTagNameNS(DRAWING_NS, 't')).map((t) => t.textContent ?? '').join('')).filter((l) => l.trim() !== '').join('\n');
  });
  if (parts.every((p) => p.trim() === '')) throw new ExtractionError('no-text', 'The presentation has no text');
  return finish(parts, parts.map((_, i) => mark('Slide', i + 1)));
}

export function extractText(kind: DocumentKind, bytes: Uint8Array): Promise<Extracted> {
  switch (kind) {
    case 'pdf':
      return pdfText(bytes);
    case 'docx':
      return docxText(bytes);
    case 'xlsx':
      return xlsxText(bytes);
    case 'pptx':
      return pptxText(bytes);
    default:
      // EPUB, OpenDocument, RTF, HTML, notebooks and mail: formats/, within the same bounds.
      return formatText(kind, bytes, { maxChars: MAX_TEXT_CHARS, maxExpandedBytes: MAX_EXPANDED_BYTES, maxParts: MAX_PARTS }).then((r) => finish(r.parts, r.names));
  }
}
