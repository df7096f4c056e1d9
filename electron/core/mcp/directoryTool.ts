import type { CallToolResult } from '@modelcontextprotocol/server';

import type { ClientReads } from '../access/clientReads.js';
import { ShelfError } from '../base/shelfError.js';
import { NOT_STATTED } from '../library/folderScan.js';
import type { Library } from '../library/library.js';
import { folderName, type PublishedFolder } from '../library/publishedFolder.js';
import { pathToUri } from '../library/uriPath.js';
import { placeOf } from './personPaths.js';

/**
 * list_directory: the published folders, or one directory's entries —
 * directories first, then files, each by name — with kind, size, modified
 * time and, for a directory, how many entries it holds; or the tree below
 * it to a depth. From the library's index only (the same paths
 * list_resources lists: hidden, ignored and secret files are not there),
 * within the client's budget, with a cursor to go on.
 */

/** How deep a tree goes at most (1: the directory's own entries). */
export const MAX_DEPTH = 10;
/** A directory's entries are counted up to this many (then "1000+"): a count never costs more than a page. */
const COUNT_CAP = 1000;
/** Entries on a page at most, however short they are. */
const MAX_ENTRIES = 5000;
/** Kept for the header, the note with the cursor and the structure's own keys. */
const PAGE_OVERHEAD = 1500;

export interface DirectoryEntry {
  /** Its path in its folder; a directory's ends with "/". */
  path: string;
  kind: 'dir' | 'file';
  mimeType?: string;
  size?: number;
  modified?: string;
  /** A directory's entries (files and directories right in it). */
  entries?: number;
  /** More entries than `entries` says (counted up to COUNT_CAP). */
  moreEntries?: boolean;
}

/** One collator for every comparison: localeCompare with options builds one per call, most of a page's time. */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const byName = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * The names right in `dir` of `folder`: its files, and its directories
 * found by jumping over each one's paths (a directory with 10,000 files
 * below costs one step, not 10,000). Stops after `cap` names.
 */
function childrenOf(folder: PublishedFolder, dir: string, cap = Number.POSITIVE_INFINITY): { dirs: string[]; files: string[]; more: boolean } {
  const prefix = dir === '' ? '' : `${dir}/`;
  const paths = folder.paths();
  const dirs: string[] = [];
  const files: string[] = [];
  let it: Iterator<string> = paths.startingWith(prefix);
  for (;;) {
    const next = it.next();
    if (next.done || !next.value.startsWith(prefix)) break;
    if (dirs.length + files.length >= cap) return { dirs, files, more: true };
    const rest = next.value.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) {
      files.push(rest);
      continue;
    }
    const name = rest.slice(0, slash);
    if (dirs[dirs.length - 1] === name) continue; // only when a name holds U+FFFF
    dirs.push(name);
    // Past every path below it: "/" sorts below "\uffff", so its paths all come before this key.
    it = paths.after(`${prefix}${name}/\uffff`);
  }
  return { dirs: dirs.sort(byName), files: files.sort(byName), more: false };
}

interface Step {
  rel: string;
  kind: 'dir' | 'file';
}

/** Order within one directory: directories first, then files, each by name. */
const order = (a: Step & { name: string }, b: Step & { name: string }) => (a.kind === b.kind ? byName(a.name, b.name) : a.kind === 'dir' ? -1 : 1);

/**
 * The tree below `dir`, depth first (each directory's entries right after
 * it), to `depth` levels; after `resume` (the last step of a page) when
 * given. Resuming compares by order, so entries that came or went since
 * are taken as they are now.
 */
function* walk(folder: PublishedFolder, dir: string, depth: number, resume: Step | null): Generator<Step> {
  const prefix = dir === '' ? '' : `${dir}/`;
  const { dirs, files } = childrenOf(folder, dir);
  let at: (Step & { name: string; deeper: boolean }) | null = null;
  if (resume && resume.rel.startsWith(prefix)) {
    const rest = resume.rel.slice(prefix.length);
    const slash = rest.indexOf('/');
    at = slash < 0 ? { ...resume, name: rest, deeper: false } : { rel: prefix + rest.slice(0, slash), kind: 'dir', name: rest.slice(0, slash), deeper: true };
  }
  const children: Array<Step & { name: string }> = [
    ...dirs.map((name) => ({ rel: prefix + name, kind: 'dir' as const, name })),
    ...files.map((name) => ({ rel: prefix + name, kind: 'file' as const, name })),
  ];
  for (const child of children) {
    const cmp = at ? order(child, at) : 1;
    if (cmp < 0) continue;
    if (cmp === 0) {
      // The branch the last page ended in: go on inside it (an ancestor), or after it (the last entry itself).
      if (child.kind === 'dir' && depth > 1) yield* walk(folder, child.rel, depth - 1, at?.deeper ? resume : null);
      continue;
    }
    yield child;
    if (child.kind === 'dir' && depth > 1) yield* walk(folder, child.rel, depth - 1, null);
  }
}

interface DirCursor {
  f: number;
  d: string;
  n: number;
  r: string;
  k: 'dir' | 'file';
}

const encode = (c: DirCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decode(cursor: string, folder: PublishedFolder, dir: string, depth: number): Step {
  let c: Partial<DirCursor> | null = null;
  try {
    c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<DirCursor>;
  } catch {
    c = null;
  }
  if (!c || c.f !== folder.id || c.d !== dir || c.n !== depth || typeof c.r !== 'string' || (c.k !== 'dir' && c.k !== 'file'))
    throw ShelfError.invalidParams('Invalid cursor for this listing (give the same path and depth as the call that returned it)');
  return { rel: c.r, kind: c.k };
}

function entryOf(folder: PublishedFolder, step: Step): DirectoryEntry {
  if (step.kind === 'dir') {
    const { dirs, files, more } = childrenOf(folder, step.rel, COUNT_CAP);
    return { path: `${step.rel}/`, kind: 'dir', entries: dirs.length + files.length, ...(more ? { moreEntries: true } : {}) };
  }
  const e = folder.get(step.rel);
  return {
    path: step.rel,
    kind: 'file',
    ...(e ? { mimeType: e.mimeType } : {}),
    ...(e && e.size !== NOT_STATTED ? { size: e.size } : {}),
    ...(e && Number.isFinite(e.mtimeMs) ? { modified: new Date(e.mtimeMs).toISOString() } : {}),
  };
}

/** One entry as a line: the path as list_directory and read_resource take it (the folder's name first). */
function lineOf(name: string, e: DirectoryEntry): string {
  return e.kind === 'dir'
    ? `${name}/${e.path}\tdir\t${e.entries}${e.moreEntries ? '+' : ''} entries`
    : `${name}/${e.path}\t${e.mimeType ?? '?'}\t${e.size ?? '?'} bytes\t${e.modified ?? '-'}`;
}

export interface DirectoryArgs {
  path?: string | undefined;
  depth?: number | undefined;
  cursor?: string | undefined;
}

function foldersResult(reads: ClientReads): CallToolResult {
  const folders = reads.library.list().map((f) => ({
    name: folderName(f.root),
    path: f.root,
    uri: `${pathToUri(f.realRoot).replace(/\/$/, '')}/`,
    files: f.fileCount,
    ...(f.state === 'indexing' ? { indexing: true } : {}),
    ...(reads.asks(f.root) ? { asksBeforeRead: true } : {}),
  }));
  const lines = folders.map(
    (f) =>
      `${f.name}/\t${f.path}\t${f.uri}\t${f.files.toLocaleString('en')} files${f.indexing ? ' (still being indexed)' : ''}${f.asksBeforeRead ? ' (asks the person before each read)' : ''}`,
  );
  const text =
    folders.length === 0
      ? 'MCP Shelf publishes no folders yet: the person adds them in the MCP Shelf window.'
      : `${folders.length} published folder(s) (name, path, URI, files). list_directory with a folder's name (e.g. "${folders[0]?.name}") lists its entries:\n${lines.join('\n')}`;
  return { content: [{ type: 'text', text }], structuredContent: { folders } };
}

export function listDirectoryResult(reads: ClientReads, a: DirectoryArgs, budget: number): CallToolResult {
  const library: Library = reads.library;
  if (a.path === undefined || a.path.trim() === '' || a.path.trim() === '/') return foldersResult(reads);
  const place = placeOf(library, a.path, 'dir');
  if (place.kind === 'file') throw ShelfError.invalidParams(`${a.path.slice(0, 300)} is a file: read it with read_resource`);
  const { folder, rel: dir } = place;
  const depth = a.depth ?? 1;
  const resume = a.cursor === undefined ? null : decode(a.cursor, folder, dir, depth);
  const name = folderName(folder.root);
  const entries: DirectoryEntry[] = [];
  let used = PAGE_OVERHEAD;
  let last: Step | null = null;
  let more = false;
  for (const step of walk(folder, dir, depth, resume)) {
    const entry = entryOf(folder, step);
    const cost = lineOf(name, entry).length + 1 + JSON.stringify(entry).length + 1;
    if (entries.length > 0 && (used + cost > budget || entries.length === MAX_ENTRIES)) {
      more = true;
      break;
    }
    used += cost;
    entries.push(entry);
    last = step;
  }
  const nextCursor = more && last ? encode({ f: folder.id, d: dir, n: depth, r: last.rel, k: last.kind }) : undefined;
  const where = dir === '' ? `the folder "${name}"` : `"${name}/${dir}/"`;
  const uri = `${folder.uriOf(dir === '' ? '' : dir).replace(/\/$/, '')}/`;
  const head =
    entries.length === 0
      ? `${where} (${uri}) holds no published file.`
      : `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} of ${where} (${uri})${depth > 1 ? `, ${depth} levels deep` : ''}, directories first (path, then for a directory its entries, for a file its type, bytes and modified time). Paths start with the folder's name: read_resource and list_directory take them as they are.`;
  const tail = nextCursor ? `\nMore entries follow: call list_directory again with cursor "${nextCursor}" (and the same path and depth).` : '';
  const text = `${head}${entries.length ? `\n${entries.map((e) => lineOf(name, e)).join('\n')}` : ''}${tail}`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { folder: folder.root, name, uri, dir, depth, entries, ...(nextCursor ? { nextCursor } : {}) },
  };
}
