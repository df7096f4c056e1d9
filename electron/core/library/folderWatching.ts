import type { Stats } from 'node:fs';
import path from 'node:path';

import { DirectoryWatches } from './directoryWatches.js';
import { type ActiveWatcher, isOutOfWatches, watchErrorCode, type WatchSink } from './folderWatcher.js';
import { watchNative } from './nativeWatcher.js';
import { watchByPolling } from './pollingWatcher.js';
import type { FolderRules } from './rules.js';
import { relativeBelow } from './uriPath.js';

export type WatchState = 'indexing' | 'watching' | 'polling' | 'missing' | 'stopped';

/**
 * Never published (see SECRET_PATTERNS) and often huge: not even watched at
 * the folder's top. Plain paths, not globs: the native watcher tests globs
 * against every path, which made 50,000 files take 0.64 s instead of 0.15 s.
 */
const UNWATCHED_AT_TOP = ['.git', 'node_modules'];
/** Excluded folders passed to the native watcher at most; past this only the top ones are left out. */
const MAX_UNWATCHED = 1000;

/** The folder as its watching sees it: where it is, its rules, and its state (which watching sets to 'polling'). */
export interface WatchedFolder {
  readonly root: string;
  readonly realRoot: string;
  readonly rules: FolderRules;
  state: WatchState;
}

/** Where watching reports to the folder. */
export interface WatchingEvents {
  /** A path a back-end reported (absolute; the root itself too). */
  path(absPath: string, structural: boolean): void;
  /** A path the per-directory watches reported (folder-relative, never the root). */
  rel(rel: string, structural: boolean): void;
  /** Watching lost track (the root's watch went, or it fell back to polling): the whole tree is looked at again. */
  lost(): void;
  /** The root itself may have been moved or replaced. */
  root(): void;
  say(message: string): void;
}

/**
 * Which watcher back-end a published folder uses and the switch between
 * them: per-directory watches (Linux) placed as scans reach directories, or
 * the native recursive watcher with excluded folders left out; polling when
 * the system runs out of watches, at start or later.
 */
export class FolderWatching {
  private watcher: ActiveWatcher | null = null;
  /** Linux: the per-directory watches the scans place (also `watcher` then). */
  private dirWatches: DirectoryWatches | null = null;
  /** Paths the native watcher leaves alone: the usual huge folders at the top, then every folder a scan found excluded. */
  private unwatched: string[] = UNWATCHED_AT_TOP;
  /** What every back-end reports to. */
  private readonly sink: WatchSink = { path: (p, structural) => this.events.path(p, structural), error: (err) => this.onError(err) };

  constructor(
    private readonly folder: WatchedFolder,
    private readonly events: WatchingEvents,
  ) {}

  /** Directories watched one by one (Linux), or null where one recursive subscription watches the tree. */
  get watchedDirectories(): number | null {
    return this.dirWatches?.size ?? null;
  }

  /** Given to every scan: a directory it reaches is watched before it is listed (per-directory watches only). */
  readonly watchDir = (rel: string): void => this.dirWatches?.add(rel);

  /** Whether directory `rel` has a per-directory watch (a folder watched before may be another one now). */
  watchesDir(rel: string): boolean {
    return this.dirWatches?.has(rel) ?? false;
  }

  /** Drops per-directory watches below `under` that a walk did not reach. */
  keepOnly(reached: ReadonlySet<string>, under: string): void {
    this.dirWatches?.keepOnly(reached, under);
  }

  /** Stops watching the folders below `dir` (removed from the index). */
  removeUnder(dir: string): void {
    this.dirWatches?.removeUnder(dir); // an empty folder is watched too
  }

  /** Polling only: a path it stopped watching (a file that became a folder). */
  add(absPath: string): void {
    this.watcher?.add?.(absPath);
  }

  /** Linux: watches placed by the scans, directory by directory (see DirectoryWatches). */
  startDirectoryWatches(): void {
    const watches = new DirectoryWatches(this.folder.realRoot, path.basename(this.folder.realRoot), {
      path: (rel) => this.events.rel(rel, true),
      lost: (rel) => (rel !== '' ? this.events.rel(rel, true) : this.events.lost()),
      root: () => this.events.root(),
      error: (err) => this.onError(err),
    });
    this.dirWatches = watches;
    this.watcher = watches;
  }

  async close(): Promise<void> {
    const w = this.watcher;
    this.watcher = null;
    this.dirWatches = null;
    await w?.close();
  }

  /** The native recursive watcher, or polling (asked for, or because the system is out of watches). */
  async start(polling: boolean, closeFirst = true): Promise<void> {
    if (closeFirst) await this.close();
    const { folder } = this;
    const gone = () => folder.state === 'stopped' || folder.state === 'missing';
    if (!polling) {
      try {
        const w = await watchNative(
          folder.realRoot,
          this.unwatched.map((rel) => path.join(folder.realRoot, rel)),
          this.sink,
        );
        if (gone()) await w.close();
        else this.watcher = w;
        return;
      } catch (err) {
        if (!isOutOfWatches(err)) throw err;
        this.events.say(`file watching unavailable (${watchErrorCode(err)}); polling ${folder.root} instead`);
      }
    }
    await watchByPolling(
      folder.realRoot,
      (p, stats) => this.ignoredByPolling(p, stats),
      this.sink,
      (w) => (this.watcher = w),
    );
    if (!gone()) folder.state = 'polling';
  }

  /**
   * After a scan: excluded folders (.gitignored, secrets, hidden) are not
   * watched either, so writes inside them cost nothing at all. The new
   * subscription starts before the old one ends, so no event is missed.
   */
  async unwatch(excluded: readonly string[]): Promise<void> {
    const next = [...new Set([...UNWATCHED_AT_TOP, ...excluded.slice(0, MAX_UNWATCHED)])].sort();
    if (this.dirWatches || this.folder.state === 'polling' || next.join('\0') === this.unwatched.join('\0')) return;
    this.unwatched = next;
    const old = this.watcher;
    this.watcher = null;
    await this.start(false, false);
    await old?.close();
  }

  private ignoredByPolling(p: string, stats?: Stats): boolean {
    const rel = relativeBelow(this.folder.realRoot, p);
    if (rel === null) return false;
    const { rules } = this.folder;
    // Without stats chokidar asks again with them; only skip what is excluded either way.
    if (!stats) return rules.excludes(rel, true) && rules.excludes(rel, false);
    return rules.excludes(rel, stats.isDirectory());
  }

  /** Out of watches: polling from now on, after one full look. Any other error is only said. */
  onError(err: Error): void {
    const { folder } = this;
    if (isOutOfWatches(err) && folder.state !== 'polling') {
      this.events.say(`file watching unavailable (${watchErrorCode(err)}); polling ${folder.root} instead`);
      folder.state = 'polling';
      this.dirWatches = null; // closed by start; scans place no more watches
      void this.start(true).then(() => this.events.lost());
      return;
    }
    this.events.say(`watcher error on ${folder.root}: ${err.message}`);
  }
}
