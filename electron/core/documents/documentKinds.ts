/**
 * Documents whose text MCP Shelf can give a client: a PDF or an Office file
 * stays a blob in `resources/read` (an HTML page, notebook or mail file its
 * own text), and its text is a companion resource, the file's URI with
 * `?as=text`, listed right after it.
 */

import type { FormatKind } from './formats/formatText.js';

export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'image' | FormatKind;

const BY_EXTENSION: Record<string, DocumentKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.xlsx': 'xlsx',
  '.pptx': 'pptx',
  '.epub': 'epub',
  '.odt': 'odt',
  '.ods': 'ods',
  '.odp': 'odp',
  '.rtf': 'rtf',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.ipynb': 'ipynb',
  '.eml': 'eml',
  '.mbox': 'mbox',
};

/** The document kind of a published file, by its name (the MIME type follows the name too). */
export function documentKind(rel: string): DocumentKind | null {
  const dot = rel.lastIndexOf('.');
  return dot < 0 ? null : (BY_EXTENSION[rel.slice(dot).toLowerCase()] ?? null);
}

/** Images whose words OCR reads (when it is on): they get a `?as=text` companion like a document. */
const OCR_IMAGES = new Set(['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff']);

/** An image OCR can read, by its name. */
export function isOcrImage(rel: string): boolean {
  const dot = rel.lastIndexOf('.');
  return dot >= 0 && OCR_IMAGES.has(rel.slice(dot).toLowerCase());
}

/** A file's text kind: a document by its name, or (with OCR on) an image whose words OCR reads. */
export function textKind(rel: string, ocr: boolean): DocumentKind | null {
  return documentKind(rel) ?? (ocr && isOcrImage(rel) ? 'image' : null);
}

/** What each kind's text marks its parts with. */
export const PART_NAMES: Record<DocumentKind, string> = {
  pdf: 'Page',
  docx: 'Document',
  xlsx: 'Sheet',
  pptx: 'Slide',
  epub: 'Chapter',
  odt: 'Document',
  ods: 'Sheet',
  odp: 'Slide',
  rtf: 'Document',
  html: 'Document',
  ipynb: 'Cell',
  eml: 'Message',
  mbox: 'Message',
  image: 'Page',
};

/** Kinds whose parts are marked by name (`--- Sheet: Totals ---`), not number. */
export const NAMED_PARTS: ReadonlySet<DocumentKind> = new Set(['xlsx', 'ods']);

/**
 * Kinds whose file is itself text a person writes (a web page's markup): the
 * read tool gives the file as it is, and its visible text at `?as=text`.
 */
export const SOURCE_KINDS: ReadonlySet<DocumentKind> = new Set(['html']);
