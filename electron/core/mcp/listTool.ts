import path from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/server';

import { ShelfError } from '../base/shelfError.js';
import type { Library } from '../library/library.js';
import type { PublishedFolder } from '../library/publishedFolder.js';
import type { ListedResource } from '../library/resourceListing.js';
import { globMatcher } from '../search/globMatcher.js';

/**
 * list_resources as a model gets it: one page of files that fits the
 * client's text budget — the text and the structuredContent together, since
 * a client may put both in the model's context — with a cursor to go on.
 * The structure carries each file once, with no more than the text says
 * (URI, path, type, size, modified time), not the resource's full record.
 */

/** Files on one page at most, however small they are (as resources/list). */
const TOOL_PAGE_SIZE = 1000;
/** Kept for the header, the note with the cursor and the structure's own keys. */
const PAGE_OVERHEAD = 1000;

/** One listed file as the structure gives it. */
export interface ListedFile {
  uri: string;
  /** Its path in its folder. */
  name: string;
  mimeType: string;
  size?: number;
  /** When it last changed, ISO 8601 (absent for a document's text). */
  modified?: string;
}

const fileOf = (r: ListedResource): ListedFile => ({
  uri: r.uri,
  name: r.name,
  mimeType: r.mimeType,
  ...(r.size !== undefined && r.size >= 0 ? { size: r.size } : {}),
  ...(r.annotations?.lastModified && !r.uri.includes('?') ? { modified: r.annotations.lastModified } : {}),
});

const lineOf = (f: ListedFile) => `${f.uri}\t${f.mimeType}\t${f.size ?? '?'}\t${f.modified ?? '-'}`;

export interface ListRequest {
  accept: (folder: PublishedFolder, rel: string) => boolean;
  cursor: string | undefined;
  /** Characters the text and the structure hold together at most. */
  budget: number;
  /** What the note after a cut page says to keep the same (the filters given). */
  same: string;
}

export function listResourcesResult(library: Library, req: ListRequest): CallToolResult {
  let used = PAGE_OVERHEAD;
  const fits = (entries: readonly ListedResource[]) => {
    const cost = entries.reduce((n, r) => {
      const f = fileOf(r);
      return n + lineOf(f).length + 1 + JSON.stringify(f).length + 1;
    }, 0);
    if (used + cost > req.budget) return false;
    used += cost;
    return true;
  };
  const page = library.listResources(req.cursor, TOOL_PAGE_SIZE, undefined, req.accept, true, fits);
  const files = page.resources.map(fileOf);
  const more = page.nextCursor
    ? `\nMore files follow: call list_resources again with cursor "${page.nextCursor}"${req.same ? ` (and the same ${req.same})` : ''}.`
    : '';
  const text =
    files.length === 0
      ? `No published file matches.${more}`
      : `${files.length} file(s) (URI, MIME type, bytes, modified):\n${files.map(lineOf).join('\n')}${more}`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { resources: files, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
  };
}

/** The published folder(s) `folder` names (its path, real path or name): a filter on roots. */
export function folderFilter(library: Library, folder: string | undefined): (root: string) => boolean {
  if (!folder) return () => true;
  const roots = library.list().filter((f) => f.root === path.resolve(folder) || f.realRoot === folder || path.basename(f.root) === folder);
  if (roots.length === 0) throw ShelfError.invalidParams(`Not a published folder: ${folder}`);
  const set = new Set(roots.map((f) => f.root));
  return (root) => set.has(root);
}

/** Which files a listing takes (the glob matched in linear time: globMatcher.ts): the chosen folders', whose path matches the glob, changed since the time (when given). */
export function listFilter(library: Library, a: { folder?: string | undefined; glob?: string | undefined; modified_since?: string | undefined }) {
  const inFolder = folderFilter(library, a.folder);
  const matches = a.glob ? globMatcher(a.glob) : () => true;
  const since = a.modified_since === undefined ? null : Date.parse(a.modified_since);
  return (f: PublishedFolder, rel: string) => inFolder(f.root) && matches(rel) && (since === null || (f.get(rel)?.mtimeMs ?? Number.NaN) >= since);
}

/** The arguments a model must give again with a cursor, named. */
export function sameArgs(a: Record<string, unknown>, names: readonly string[]): string {
  return names.filter((n) => a[n] !== undefined).join(', ');
}
