/**
 * Documents whose text MCP Shelf can give a client: a PDF or an Office file
 * stays a blob in `resources/read`, and its text is a companion resource,
 * the file's URI with `?as=text`, listed right after it.
 */

export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'pptx';

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

export const TEXT_SUFFIX = '?as=text';

/** The companion URI of a document's text. */
export const textUriOf = (fileUri: string): string => `${fileUri}${TEXT_SUFFIX}`;

/** The file URI a text URI names, or null when `uri` is not a text URI. */
export function fileUriOfText(uri: string): string | null {
  return uri.endsWith(TEXT_SUFFIX) ? uri.slice(0, -TEXT_SUFFIX.length) : null;
}

/** What each kind's text marks its parts with. */
export const PART_NAMES: Record<DocumentKind, string> = { pdf: 'Page', docx: 'Document', xlsx: 'Sheet', pptx: 'Slide' };
