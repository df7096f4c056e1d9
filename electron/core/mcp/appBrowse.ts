import path from 'node:path';

import { textUriOf } from '../../../shared/documentUris.js';
import type { AppDir, AppFile, AppFindResult, AppFolder } from '../../../shared/shelfApp.js';
import type { ClientReads } from '../access/clientReads.js';
import { ShelfError } from '../base/shelfError.js';
import { documentKind } from '../documents/documentKinds.js';
import { NOT_STATTED } from '../library/folderScan.js';
import type { Library } from '../library/library.js';
import { folderName, type PublishedFolder } from '../library/publishedFolder.js';
import { pathToUri } from '../library/uriPath.js';

/**
 * What the in-chat app browses: the published folders, one directory at a
 * time, and a filter over paths. Reads the library's index only (never a
 * file), in pages; a filter over a big folder runs in slices that yield.
 */

/** Entries of one directory per page: a folder with 100,000 files in one directory is paged, not sent at once. */
export const DIR_PAGE = 500;
/** Filter matches returned at most. */
export const FIND_LIMIT = 200;
/** A filter scan gives the event loop back after this long, so other clients' requests go first. */
const SLICE_MS = 8;
/** Paths looked at between clock checks. */
const CHECK_EVERY = 1024;

export function appFolders(reads: ClientReads): AppFolder[] {
  return reads.library.list().map((f) => ({
    root: f.root,
    name: folderName(f.root),
    uri: pathToUri(f.realRoot).replace(/\/$/, ''),
    files: f.fileCount,
    state: f.state,
    asks: reads.asks(f.root),
  }));
}

/** The published folder `folder` names (its path as given, its real path, or its name when only one has it). */
export function folderOf(library: Library, folder: string): PublishedFolder {
  const all = library.list();
  const exact = all.find((f) => f.root === folder || f.realRoot === folder || f.root === path.resolve(folder));
  if (exact) return exact;
  const named = all.filter((f) => folderName(f.root) === folder);
  if (named.length === 1) return named[0] as PublishedFolder;
  throw ShelfError.invalidParams(`Not a published folder: ${folder.slice(0, 200)}`);
}

/** A published file as the app shows it. */
export function appFile(folder: PublishedFolder, rel: string): AppFile | null {
  const entry = folder.get(rel);
  if (!entry) return null;
  const uri = folder.uriOf(rel);
  return {
    type: 'file',
    path: rel,
    name: rel.slice(rel.lastIndexOf('/') + 1),
    uri,
    mimeType: entry.mimeType,
    ...(entry.size !== NOT_STATTED ? { size: entry.size } : {}),
    ...(documentKind(rel) ? { textUri: textUriOf(uri) } : {}),
  };
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }) || (a.name < b.name ? -1 : 1);

/**
 * One page of `dir`'s entries (`''` is the folder itself): its files, and
 * its subdirectories found by jumping over each one's paths (a directory
 * with 10,000 files below costs one step, not 10,000). A page is sorted
 * directories first; `cursor` continues in path order.
 */
export function listDirectory(folder: PublishedFolder, dir: string, cursor?: string): { entries: Array<AppFile | AppDir>; nextCursor?: string } {
  const clean = dir.replace(/^\/+|\/+$/g, '');
  const prefix = clean === '' ? '' : `${clean}/`;
  if (cursor !== undefined && !cursor.startsWith(prefix)) throw ShelfError.invalidParams('Invalid cursor for this directory');
  const paths = folder.paths();
  const files: AppFile[] = [];
  const dirs: AppDir[] = [];
  let it: Iterator<string> = cursor === undefined ? paths.startingWith(prefix) : paths.after(cursor);
  let last: string | null = null;
  let lastDir: string | null = null;
  let more = false;
  for (;;) {
    const next = it.next();
    if (next.done || !next.value.startsWith(prefix)) break;
    if (files.length + dirs.length === DIR_PAGE) {
      more = true;
      break;
    }
    const rel = next.value;
    const rest = rel.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) {
      const file = appFile(folder, rel);
      if (file) files.push(file);
      last = rel;
      continue;
    }
    const name = rest.slice(0, slash);
    // A path under the directory just listed (only when a name holds U+FFFF): already counted.
    if (name === lastDir) continue;
    lastDir = name;
    dirs.push({ type: 'dir', path: prefix + name, name });
    // Past every path below it: "/" sorts below "\uffff", so its paths all come before this key.
    last = `${prefix}${name}/\uffff`;
    it = paths.after(last);
  }
  const entries = [...dirs.sort(byName), ...files.sort(byName)];
  return more && last !== null ? { entries, nextCursor: last } : { entries };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Files whose folder-relative path contains every word of `filter` (case
 * does not matter), those whose name holds them all first. The scan takes
 * SLICE_MS at a time and starts again after the last path it saw, so
 * folders changing meanwhile are read as they are then.
 */
export async function findFiles(library: Library, filter: string, onlyFolder?: PublishedFolder, sliceMs = SLICE_MS): Promise<AppFindResult> {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { matches: [], more: false };
  // Each list holds at most FIND_LIMIT: the result is the first FIND_LIMIT of both, names first.
  const byName: AppFindResult['matches'] = [];
  const byPath: AppFindResult['matches'] = [];
  let total = 0;
  let sliceStart = performance.now();
  for (const folder of onlyFolder ? [onlyFolder] : library.list()) {
    let after: string | null = null;
    scan: for (;;) {
      const paths = folder.paths();
      const rest: Iterable<string> = after === null ? paths : paths.after(after);
      let n = 0;
      for (const rel of rest) {
        after = rel;
        const lower = rel.toLowerCase();
        if (words.every((w) => lower.includes(w))) {
          total++;
          const name = lower.slice(lower.lastIndexOf('/') + 1);
          const list = words.every((w) => name.includes(w)) ? byName : byPath;
          const file = list.length < FIND_LIMIT ? appFile(folder, rel) : null;
          if (file) list.push({ ...file, folder: folder.root });
          // FIND_LIMIT names, and more than that in all: nothing later can change the answer.
          if (byName.length === FIND_LIMIT && total > FIND_LIMIT) break scan;
        }
        if (++n % CHECK_EVERY === 0 && performance.now() - sliceStart >= sliceMs) {
          await tick();
          sliceStart = performance.now();
          continue scan;
        }
      }
      break;
    }
    if (byName.length === FIND_LIMIT && total > FIND_LIMIT) break;
  }
  return { matches: [...byName, ...byPath].slice(0, FIND_LIMIT), more: total > FIND_LIMIT };
}
