/**
 * Documents whose text MCP Shelf can give a client: a PDF or an Office file
 * stays a blob in `resources/read`, and its text is a companion resource,
 * the file's URI with `?as=text`, listed right after it.
 */

export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'image';

const BY_EXTENSION: Record<string, DocumentKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.xlsx': 'xlsx',
  '.pptx': 'pptx',
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
export const PART_NAMES: Record<DocumentKind, string> = { pdf: 'Page', docx: 'Document', xlsx: 'Sheet', pptx: 'Slide', image: 'Page' };
