import type { Stats } from 'node:fs';

import { type FileEntry, NOT_STATTED } from './folderScan.js';
import { SortedPaths } from './sortedPaths.js';

/** What changed in one folder, as folder-relative paths. */
export interface FolderChange {
  added: string[];
  removed: string[];
  changed: string[];
}

export const noChange = (): FolderChange => ({ added: [], removed: [], changed: [] });
export const isChange = (c: FolderChange): boolean => c.added.length + c.removed.length + c.changed.length > 0;

/**
 * A published folder's files, by folder-relative path: the source of truth
 * for what may be listed and read. Kept in step change by change — the order
 * of paths, how many files lie below each directory, the bytes — so nothing
 * is recounted or re-sorted for one file (a million-path sort took a second).
 * PublishedFolder decides what changed on disk; this records it.
 */
export class FolderIndex {
  private entries = new Map<string, FileEntry>();
  /** How many entries lie below each folder-relative directory: a path that was never a directory costs nothing to check. */
  private readonly below = new Map<string, number>();
  /** The paths in order, built on first use after a full index and then kept in step. */
  private sorted: SortedPaths | null = null;
  /**
   * Paths by their last part (a file's name), built on first use and then
   * kept in step: a model naming a file ("a.md") costs a lookup, not a pass
   * over every path (a flood of such names over 50,000 files held another
   * client's small reads to a 222 ms p99).
   */
  private named: Map<string, string | Set<string>> | null = null;
  /** Kept as entries come, change and go: the window asks for it on every change, and summing a million took 20 ms. */
  private bytes = 0;
  /** Bumped when the whole index is replaced, so a pass over the old one knows to stop. */
  generation = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Bytes of the files stat'ed so far. */
  get totalBytes(): number {
    return this.bytes;
  }

  /** The entry as indexed (its size NOT_STATTED until stat'ed). */
  peek(rel: string): FileEntry | undefined {
    return this.entries.get(rel);
  }

  has(rel: string): boolean {
    return this.entries.has(rel);
  }

  /** Whether any file lies below folder-relative `dir`. */
  hasBelow(dir: string): boolean {
    return this.below.has(dir);
  }

  values(): IterableIterator<FileEntry> {
    return this.entries.values();
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** Folder-relative paths in stable (code unit) order. */
  paths(): SortedPaths {
    if (!this.sorted) this.sorted = SortedPaths.of(this.entries.keys());
    return this.sorted;
  }

  /** The paths whose last part is `name`, in no particular order (a fresh array: the caller may sort it). */
  withName(name: string): string[] {
    if (!this.named) {
      this.named = new Map();
      for (const rel of this.entries.keys()) addName(this.named, rel);
    }
    const found = this.named.get(name);
    return found === undefined ? [] : typeof found === 'string' ? [found] : [...found];
  }

  /** Fills in a lazily indexed entry's size and time in place (a new object per file left a million behind); `st` null: gone or not a file. */
  fill(entry: FileEntry, st: Stats | null): void {
    const size = st?.isFile() ? st.size : 0;
    if (entry.size === NOT_STATTED && this.entries.get(entry.rel) === entry) this.bytes += size;
    entry.size = size;
    entry.mtimeMs = st?.isFile() ? st.mtimeMs : 0;
  }

  /** Records `entry`: added when new, changed unless it is the same write seen again (see sameWrite). */
  upsert(entry: FileEntry, change: FolderChange): void {
    const old = this.entries.get(entry.rel);
    this.entries.set(entry.rel, entry);
    this.bytes += known(entry) - known(old);
    if (!old) {
      this.sorted?.add(entry.rel);
      if (this.named) addName(this.named, entry.rel);
      this.countBelow(entry.rel, 1);
      change.added.push(entry.rel);
    } else if (!sameWrite(old, entry)) {
      change.changed.push(entry.rel); // the watcher saw a write, even if size and mtime match
    }
  }

  remove(rel: string, change: FolderChange): void {
    this.bytes -= known(this.entries.get(rel));
    if (this.entries.delete(rel)) {
      this.sorted?.delete(rel);
      if (this.named) dropName(this.named, rel);
      this.countBelow(rel, -1);
      change.removed.push(rel);
    }
  }

  /** Removes every entry below folder-relative `dir`: nothing to do unless it held entries; then only its range of the sorted paths is visited. */
  removeUnder(dir: string, change: FolderChange): void {
    if (!this.below.has(dir)) return;
    const doomed = [...this.paths().startingWith(`${dir}/`)];
    for (const rel of doomed) this.remove(rel, change);
  }

  /**
   * Replaces the whole index with a full scan's `fresh` entries and says what
   * differs; `current` gives an old entry with its stats (stat'ing it now if
   * it was never stat'ed).
   */
  replace(fresh: Map<string, FileEntry>, current: (rel: string) => FileEntry | undefined): FolderChange {
    const change = noChange();
    for (const [rel, e] of fresh) {
      if (e.size === NOT_STATTED) {
        // Not stat'ed yet: counted as changed only when it is new (its stats come later).
        if (!this.entries.has(rel)) change.added.push(rel);
        continue;
      }
      const old = current(rel);
      if (!old) change.added.push(rel);
      else if (old.size !== e.size || old.mtimeMs !== e.mtimeMs) change.changed.push(rel);
    }
    for (const rel of this.entries.keys()) if (!fresh.has(rel)) change.removed.push(rel);
    this.entries = fresh;
    this.generation++;
    this.sorted = null;
    this.named = null;
    this.below.clear();
    this.bytes = 0;
    for (const [rel, e] of fresh) {
      this.countBelow(rel, 1);
      this.bytes += known(e);
    }
    return change;
  }

  /** Counts `rel` in (or out of) every folder above it. */
  private countBelow(rel: string, delta: 1 | -1): void {
    for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
      const dir = rel.slice(0, i);
      const n = (this.below.get(dir) ?? 0) + delta;
      if (n > 0) this.below.set(dir, n);
      else this.below.delete(dir);
    }
  }
}

const nameOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

/**
 * Files of a name: one path as itself (most names are unique), several as a
 * set, so removing one of 20,000 `index.js` is not a pass over the others
 * (a tree of them deleted at once would be quadratic on the server's thread).
 */
function addName(named: Map<string, string | Set<string>>, rel: string): void {
  const name = nameOf(rel);
  const had = named.get(name);
  if (had === undefined) named.set(name, rel);
  else if (typeof had === 'string') named.set(name, new Set([had, rel]));
  else had.add(rel);
}

function dropName(named: Map<string, string | Set<string>>, rel: string): void {
  const name = nameOf(rel);
  const had = named.get(name);
  if (had === rel) named.delete(name);
  else if (typeof had === 'object' && had.delete(rel) && had.size === 1) named.set(name, had.values().next().value as string);
}

const known = (entry: FileEntry | undefined): number => (entry && entry.size !== NOT_STATTED ? entry.size : 0);

/**
 * Whether two looks at a file saw the same write: a file created and then
 * written makes two events, often in two batches, and when the first look
 * already saw the written file the second is not a change (it was reported
 * as one: one write, two updates to subscribers). Any later write or
 * attribute change moves the change time, so a same-size rewrite is still
 * reported.
 */
function sameWrite(old: FileEntry, now: FileEntry): boolean {
  return old.ctimeMs !== undefined && old.ctimeMs === now.ctimeMs && old.size === now.size && old.mtimeMs === now.mtimeMs && old.mimeType === now.mimeType;
}
