import path from 'node:path';

import { textUriOf } from '../../../shared/documentUris.js';
import type { ResourceInfo } from '../../../shared/shelfApi.js';
import { documentKind } from '../documents/documentKinds.js';
import type { DocumentText } from '../documents/documentText.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FileEntry } from './folderScan.js';
import { folderName, type PublishedFolder } from './publishedFolder.js';
import { pathToUri } from './uriPath.js';

/** A listed resource: a file, or a document's text (its size is not known before it is extracted). */
export type ListedResource = ResourceInfo | (Omit<ResourceInfo, 'size'> & { size?: number });

export interface ResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
}

/** Maximum completion values, per the MCP spec. */
const MAX_COMPLETIONS = 100;

export interface PageRequest {
  cursor?: string | undefined;
  pageSize: number;
  onlyFolder?: string | undefined;
  accept?: ((folder: PublishedFolder, rel: string) => boolean) | undefined;
  /** Whether a file's entries (it and its document text) still fit the page: a page bounded in size, not only in count. Asked of every file; the first goes whatever it answers. */
  fits?: ((entries: readonly ListedResource[]) => boolean) | undefined;
}

/**
 * One page of resources after `cursor`, in stable order (folders by publish
 * order, then path); only `onlyFolder`'s, and only those `accept` takes,
 * when given. The cursor is a position, so a page costs its own length
 * (plus the entries `accept` skips), never the pages before it. With
 * `documents`, a document's text is listed right after it.
 */
export function listPage(
  folders: readonly PublishedFolder[],
  documents: DocumentText | null,
  { cursor, pageSize, onlyFolder, accept, fits }: PageRequest,
): { resources: ListedResource[]; nextCursor?: string } {
  const from = cursor === undefined ? null : decodeCursor(cursor);
  const resources: ListedResource[] = [];
  let last: { folder: PublishedFolder; rel: string } | null = null;
  let more = false;
  outer: for (const folder of folders) {
    if (onlyFolder !== undefined && folder.root !== onlyFolder) continue;
    if (from && folder.id < from.folderId) continue;
    const paths = from && folder.id === from.folderId ? folder.paths().after(from.rel) : folder.paths();
    for (const rel of paths) {
      if (accept && !accept(folder, rel)) continue;
      if (resources.length === pageSize) {
        more = true;
        break outer;
      }
      const entry = folder.get(rel) as FileEntry;
      const file = describe(folder, entry);
      // A document's text follows it (so a page may hold one more than pageSize). An image's OCR text is not
      // listed: a folder of photos would list twice as much, mostly text that is not there; search, grep and
      // the read tool give it, and its `?as=text` reads like a document's.
      const entries = documents && documentKind(rel) ? [file, describeText(file, documents.peek(documentKey(folder, entry))?.text)] : [file];
      if (fits && !fits(entries) && resources.length > 0) {
        more = true;
        break outer;
      }
      resources.push(...entries);
      last = { folder, rel };
    }
  }
  const page: { resources: ListedResource[]; nextCursor?: string } = { resources };
  if (more && last) page.nextCursor = encodeCursor({ folderId: last.folder.id, rel: last.rel });
  return page;
}

/** A folder's template, addressing its files by relative path. */
export function templateOf(f: PublishedFolder): ResourceTemplateInfo {
  return {
    uriTemplate: `${pathToUri(f.realRoot).replace(/\/$/, '')}/{+path}`,
    name: folderName(f.root),
    title: `Files in ${folderName(f.root)}`,
    description: `Any published file under ${f.root}, by its path relative to the folder`,
  };
}

/** Paths in `folder` that start with `value` (then those containing it), case-insensitively. */
export function completePath(folder: PublishedFolder, value: string): { values: string[]; total: number; hasMore: boolean } {
  const needle = value.toLowerCase();
  const starts: string[] = [];
  const contains: string[] = [];
  for (const rel of folder.paths()) {
    const lower = rel.toLowerCase();
    if (lower.startsWith(needle)) starts.push(rel);
    else if (needle !== '' && lower.includes(needle)) contains.push(rel);
  }
  const all = starts.concat(contains);
  return { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS };
}

export function describe(folder: PublishedFolder, entry: FileEntry): ResourceInfo {
  return {
    uri: folder.uriOf(entry.rel),
    name: entry.rel,
    title: path.posix.basename(entry.rel),
    mimeType: entry.mimeType,
    size: entry.size,
    annotations: { lastModified: new Date(entry.mtimeMs).toISOString() },
  };
}

/** A document version's key: its folder's real path first (the disk cache files a folder's documents together), then its path, size and modification time. */
export function documentKey(folder: PublishedFolder, entry: FileEntry): string {
  return `${folder.realRoot}\u0000${entry.rel}\u0000${entry.size}\u0000${entry.mtimeMs}`;
}

/** The companion resource of a document: its text, as text/plain (its size once extracted). */
export function describeText(file: ResourceInfo, text: string | undefined): ListedResource {
  const { size: _size, ...rest } = file;
  return {
    ...rest,
    uri: textUriOf(file.uri),
    name: `${file.name} (text)`,
    title: `${file.title} — text`,
    mimeType: 'text/plain',
    ...(text !== undefined ? { size: Buffer.byteLength(text) } : {}),
  };
}
