import { type FSWatcher, lstatSync, watch } from 'node:fs';

import { joinRel } from './uriPath.js';

/** Whether this system's directory watches are per directory and cheap to place during our own scan. */
export const PER_DIRECTORY_WATCHES = process.platform === 'linux';

export interface DirectoryWatchEvents {
  /** Something happened to folder-relative `rel` (created, deleted, renamed, written). */
  path(rel: string): void;
  /** The watch on directory `rel` could not say what changed in it: look at all of it. */
  lost(rel: string): void;
  /** The root itself may have been deleted or moved. */
  root(): void;
  /** A watch could not be placed (ENOSPC: out of inotify watches). */
  error(err: NodeJS.ErrnoException): void;
}

/**
 * Linux: one inotify watch per published directory (fs.watch, not
 * recursive), placed by the scan as it reaches each directory, before
 * listing it, so nothing that changes after the listing is missed.
 *
 * Why not @parcel/watcher here: on Linux it walks the whole tree itself
 * before the first event (3.75 s and 221 MiB for a million files, beside
 * our own walk) and keeps every path in memory, and it hands events over
 * in batches of up to 500 ms, dropping a path created and deleted within
 * one. Watches placed by our walk cost one inotify_add_watch per directory
 * and deliver each event as it happens. Excluded directories are never
 * reached, so never watched. Elsewhere (FSEvents, ReadDirectoryChangesW)
 * one recursive subscription covers the tree, and @parcel/watcher stays.
 */
export class DirectoryWatches {
  /** By folder-relative path: the watch, and which directory (inode) it was placed on. */
  private readonly watches = new Map<string, { watcher: FSWatcher; id: string }>();
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly rootName: string,
    private readonly events: DirectoryWatchEvents,
  ) {}

  get size(): number {
    return this.watches.size;
  }

  has(rel: string): boolean {
    return this.watches.has(rel);
  }

  /**
   * Watches directory `rel` ('' for the root). Nothing to do if the
   * directory there is the one already watched; a watch left on a directory
   * that moved away (inotify watches follow the inode) is replaced.
   */
  add(rel: string): void {
    if (this.closed) return;
    const abs = rel === '' ? this.root : joinRel(this.root, rel);
    let id: string;
    try {
      // Looked at before the watch is placed: if the directory is swapped in between, the next add sees a different one.
      const st = lstatSync(abs);
      if (!st.isDirectory()) return;
      id = `${st.dev}:${st.ino}`;
    } catch {
      return; // gone: its parent's watch tells
    }
    const existing = this.watches.get(rel);
    if (existing?.id === id) return;
    if (existing) this.remove(rel);
    let watcher: FSWatcher;
    try {
      watcher = watch(abs, { persistent: false }, (_type, name) => {
        if (typeof name !== 'string' || name === '') this.events.lost(rel);
        else {
          this.events.path(rel === '' ? name : `${rel}/${name}`);
          // A watch reports its own deletion or move under its own name: for the root, look at the root.
          if (rel === '' && name === this.rootName) this.events.root();
        }
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM') return; // gone or unreadable: its parent's watch tells
      this.events.error(err as NodeJS.ErrnoException);
      return;
    }
    // The directory went away under its watch: the parent's event handles what it held.
    watcher.on('error', () => this.watches.get(rel)?.watcher === watcher && this.remove(rel));
    this.watches.set(rel, { watcher, id });
  }

  /** Stops watching `rel` and every directory below it (it was deleted, moved or is now excluded). */
  removeUnder(rel: string): void {
    if (!this.watches.has(rel)) return; // never a watched directory: nothing can be below it
    this.remove(rel);
    const prefix = `${rel}/`;
    for (const key of [...this.watches.keys()]) if (key.startsWith(prefix)) this.remove(key);
  }

  /**
   * After a walk of `under` ('' for all): stops watching every directory
   * below it that the walk did not reach (now excluded, gone, or moved away
   * with a folder that another took the place of).
   */
  keepOnly(reached: ReadonlySet<string>, under = ''): void {
    const prefix = under === '' ? '' : `${under}/`;
    for (const key of [...this.watches.keys()]) if (key.startsWith(prefix) && !reached.has(key)) this.remove(key);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.watches.values()) w.watcher.close();
    this.watches.clear();
  }

  private remove(rel: string): void {
    this.watches.get(rel)?.watcher.close();
    this.watches.delete(rel);
  }
}
