import os from 'node:os';
import path from 'node:path';

import { ShelfError } from '../base/shelfError.js';
import type { Library } from '../library/library.js';
import { folderName, type PublishedFolder } from '../library/publishedFolder.js';
import { relativeBelow, uriToPath } from '../library/uriPath.js';

/**
 * Paths as a person says them — "/home/me/notes/a.md", "notes/a.md" (a
 * published folder's name, then the path in it), "a.md" when only one file
 * has that name — turned into a place on the shelf. Only ever a place
 * inside a published folder, named from the library's index (hidden,
 * ignored and secret files are not in it); a file found here is then read
 * by its URI through the normal checks (ask-before-read, links out).
 */

/** Candidates named in an error at most. */
const MAX_CANDIDATES = 10;

/** A place inside a published folder: a file, a directory, or (rel '') the folder itself. */
export interface ShelfPlace {
  folder: PublishedFolder;
  rel: string;
  kind: 'file' | 'dir';
}

const hasScheme = (s: string) => /^[a-z][a-z0-9+.-]+:/i.test(s) && !/^[a-z]:[\\/]/i.test(s);

function isDir(folder: PublishedFolder, rel: string): boolean {
  if (rel === '') return true;
  return !folder.paths().startingWith(`${rel}/`).next().done;
}

function kindAt(folder: PublishedFolder, rel: string): 'file' | 'dir' | null {
  if (rel !== '' && folder.get(rel)) return 'file';
  return isDir(folder, rel) ? 'dir' : null;
}

function notInside(said: string, library: Library): ShelfError {
  const roots = library.list().map((f) => f.root);
  return ShelfError.invalidParams(
    `"${said.slice(0, 300)}" is not inside a published folder. The published folders: ${roots.slice(0, MAX_CANDIDATES).join(', ') || 'none'}${roots.length > MAX_CANDIDATES ? ', …' : ''}.`,
  );
}

/** An absolute path (or a file:// URI of one) inside a published folder: the most specific folder holding it. */
function absolutePlace(library: Library, said: string, p: string): { folder: PublishedFolder; rel: string } {
  let found: { folder: PublishedFolder; rel: string } | null = null;
  let depth = -1;
  for (const folder of library.list()) {
    for (const root of new Set([folder.root, folder.realRoot])) {
      if (root.length <= depth) continue;
      const rel = p === root || p === root.replace(/[\\/]+$/, '') ? '' : relativeBelow(root, p);
      if (rel !== null) {
        found = { folder, rel };
        depth = root.length;
      }
    }
  }
  if (!found) throw notInside(said, library);
  return found;
}

/** Files named `name` (the last part of their path), across the folders: the first few, and whether there are more. */
function byName(library: Library, name: string): { found: Array<{ folder: PublishedFolder; rel: string }>; more: boolean } {
  const found: Array<{ folder: PublishedFolder; rel: string }> = [];
  for (const folder of library.list()) {
    // In path order (code units: sort's default), as the folder lists them; the index keeps them by name in no order.
    for (const rel of folder.pathsNamed(name).sort()) {
      if (found.length === MAX_CANDIDATES) return { found, more: true };
      found.push({ folder, rel });
    }
  }
  return { found, more: false };
}

function ambiguous(said: string, candidates: Array<{ folder: PublishedFolder; rel: string }>, more: boolean, what: string): ShelfError {
  const named = candidates.map((c) => (c.rel === '' ? c.folder.uriOf('').replace(/\/?$/, '/') : c.folder.uriOf(c.rel)));
  return ShelfError.invalidParams(
    `"${said.slice(0, 300)}" could be ${candidates.length}${more ? '+' : ''} ${what}s; say which with its file:// URI: ${named.join(', ')}${more ? ', …' : ''}`,
  );
}

/**
 * Where `said` points: an absolute path, a file:// URI, a folder-relative
 * path (a folder's name first, or a path some folder has), or a bare name
 * when one file has it. `want` is what the caller takes. Throws an error a
 * model can act on: the candidates by URI, or the published folders.
 */
export function placeOf(library: Library, said: string, want: 'file' | 'dir' | 'any'): ShelfPlace {
  const what = want === 'dir' ? 'directory' : want === 'file' ? 'file' : 'file or directory';
  let text = said.trim();
  if (text.startsWith('~/') || text === '~') text = path.join(os.homedir(), text.slice(1));
  if (hasScheme(text) || path.isAbsolute(text)) {
    const p = hasScheme(text) ? uriToPath(text) : path.resolve(text);
    if (p === null) throw ShelfError.invalidParams(`Not a file path or file:// URI: ${said.slice(0, 300)}`);
    const { folder, rel } = absolutePlace(library, said, p);
    const kind = kindAt(folder, rel) ?? (want === 'dir' ? 'dir' : 'file');
    return { folder, rel, kind };
  }
  const rel = text
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  if (rel.split('/').some((part) => part === '..')) throw notInside(said, library);
  const fits = (kind: 'file' | 'dir' | null): kind is 'file' | 'dir' => kind !== null && (want === 'any' || kind === want);
  const candidates: ShelfPlace[] = [];
  const add = (folder: PublishedFolder, r: string) => {
    const kind = kindAt(folder, r);
    if (fits(kind) && !candidates.some((c) => c.folder === folder && c.rel === r)) candidates.push({ folder, rel: r, kind });
  };
  const slash = rel.indexOf('/');
  const head = slash < 0 ? rel : rel.slice(0, slash);
  const rest = slash < 0 ? '' : rel.slice(slash + 1);
  for (const folder of library.list()) {
    if (folderName(folder.root) === head) add(folder, rest);
    if (rel !== '') add(folder, rel);
  }
  if (candidates.length === 1) return candidates[0] as ShelfPlace;
  if (candidates.length > 1) throw ambiguous(said, candidates.slice(0, MAX_CANDIDATES), candidates.length > MAX_CANDIDATES, what);
  if (slash < 0 && rel !== '' && want !== 'dir') {
    const { found, more } = byName(library, rel);
    if (found.length === 1 && !more) return { ...(found[0] as { folder: PublishedFolder; rel: string }), kind: 'file' };
    if (found.length > 1) throw ambiguous(said, found, more, what);
  }
  throw ShelfError.invalidParams(
    `No published ${what} is "${said.slice(0, 300)}". Give a file:// URI as list_resources or list_directory shows it, an absolute path inside a published folder, or a path that starts with a folder's name (${library
      .list()
      .slice(0, MAX_CANDIDATES)
      .map((f) => `"${folderName(f.root)}"`)
      .join(', ')}).`,
  );
}

/** The URI read_resource reads for `said`: a URI as it is (the normal checks judge it), a path as the file it names. */
export function readUriOf(library: Library, said: string): string {
  if (hasScheme(said.trim())) return said;
  const place = placeOf(library, said, 'file');
  return place.folder.uriOf(place.rel);
}
