import { lstatSync, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

import { PER_DIRECTORY_WATCHES } from './directoryWatches.js';
import { type FolderChange, FolderIndex, isChange, noChange } from './folderIndex.js';
import { examineFile, type FileEntry, NOT_STATTED, type RecentFiles, scanTree } from './folderScan.js';
import { FolderWatching, type WatchState } from './folderWatching.js';
import { type HiddenSummary, hiddenTally } from './hiddenTally.js';
import { IndexSync } from './indexSync.js';
import { FolderRules, type RuleOptions } from './rules.js';
import { RECENT_MS, SecondLooks } from './secondLooks.js';
import type { SortedPaths } from './sortedPaths.js';
import { StatPass } from './statPass.js';
import { joinRel, pathToUri, relativeBelow, uriUnder } from './uriPath.js';

export type { FolderChange } from './folderIndex.js';
export type { WatchState } from './folderWatching.js';
export type { HiddenSummary } from './hiddenTally.js';

export interface FolderEvents {
  onChange(folder: PublishedFolder, change: FolderChange): void;
  onState(folder: PublishedFolder, message: string): void;
  /** The sizes of the files a full index listed are all read (see `sizing`). */
  onSized?(folder: PublishedFolder): void;
}

/** How often a folder checks that its root is still the same directory. */
const ROOT_CHECK_MS = 1000;
/**
 * Polling only (chokidar): quiet time after files come, go or change type
 * before one full rescan. Polling misses some fast sequences (a file
 * replaced by a folder is reported as a mere change, or not at all); the
 * rescan makes the listing exact once things settle. The native watcher
 * reports every path that changed, so it never needs one: its changes cost
 * what changed, not what exists.
 */
const SETTLE_RESCAN_MS = 1500;

/**
 * One published folder: its rules, its index of files (FolderIndex, the
 * source of truth for what may be listed and read) and its watching (one
 * of the back-ends in folderWatcher.ts, chosen by FolderWatching). It turns
 * what the watcher reports into changes of the index (IndexSync re-syncs
 * parts of it with the disk), and keeps serving only while its root is the
 * folder it published.
 */
export class PublishedFolder {
  /** Canonical path (symlinks resolved) used for URIs and all checks. */
  realRoot: string;
  state: WatchState = 'indexing';
  error: string | null = null;
  rules: FolderRules;

  private readonly index = new FolderIndex();
  /** Full re-indexes since start (after the first): only when polling, or when a .gitignore changed. */
  reindexes = 0;
  /** Paths the watcher reported since start (excluded folders are not watched, so they add none). */
  watchEvents = 0;
  private readonly watching = new FolderWatching(this, {
    path: (p, structural) => this.markPath(p, structural),
    rel: (rel, structural) => this.markRel(rel, structural),
    lost: () => {
      this.rescanAll = true;
      this.scheduleFlush();
    },
    root: () => void this.checkRoot(),
    say: (message) => this.events.onState(this, message),
  });
  private readonly sync = new IndexSync(this, this.index, this.watching, {
    // Polling misses some sequences around a path that became a folder: one full look once things settle.
    turnedDir: () => {
      if (this.state === 'polling') this.scheduleSettle();
    },
    newDir: (rel) => this.rechecks.note(rel, true),
  });
  private rootIdentity: string | null = null;
  private rootTimer: NodeJS.Timeout | null = null;
  private dirtyFiles = new Set<string>();
  private rescanAll = false;
  /** Folders whose .gitignore was written, created or deleted: each is synced again, not the whole tree. */
  private readonly gitignoreChanged = new Set<string>();
  private flushScheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private eventsHeld = true;
  private settleTimer: NodeJS.Timeout | null = null;
  /** Files new when we saw them, looked at again (see SecondLooks): one out of step goes through the normal update. */
  private readonly rechecks = new SecondLooks(
    (rel, dir) => {
      if (!this.sync.outOfStep(rel, dir)) return;
      this.recheckFixes++;
      this.dirtyFiles.add(rel);
    },
    () => this.scheduleFlush(),
  );
  /** Second looks that found the index out of step with the disk (an event the watcher dropped). */
  recheckFixes = 0;

  constructor(
    readonly id: number,
    /** Absolute path as the user gave it. */
    readonly root: string,
    readonly options: RuleOptions,
    private readonly events: FolderEvents,
    /** True while clients keep sending requests: background work (the stat pass) then takes small slices, seldom (see nextSlice). */
    private readonly clientsBusy: () => boolean = () => false,
  ) {
    this.realRoot = root;
    this.rules = new FolderRules(root, options);
  }

  /** Directories watched one by one (Linux), or null where one recursive subscription watches the tree. */
  get watchedDirectories(): number | null {
    return this.watching.watchedDirectories;
  }

  get fileCount(): number {
    return this.index.size;
  }

  /** Bytes of the files stat'ed so far (all of them once the stat pass after an index is done). */
  get totalBytes(): number {
    return this.index.totalBytes;
  }

  /** The `file://` URI a client uses for folder-relative `rel`. */
  uriOf(rel: string): string {
    if (this.rootUriOf !== this.realRoot) {
      this.rootUri = pathToUri(this.realRoot).replace(/\/$/, '');
      this.rootUriOf = this.realRoot;
    }
    return uriUnder(this.realRoot, this.rootUri, rel);
  }

  private rootUri = '';
  private rootUriOf: string | null = null;

  /** The entry for `rel`, with its size and time (stat'ed now if the index has not yet). */
  get(rel: string): FileEntry | undefined {
    const entry = this.index.peek(rel);
    return entry?.size === NOT_STATTED ? this.statNow(entry) : entry;
  }

  /**
   * Fills in a lazily indexed entry's size and time. A file gone or no
   * longer a regular file goes through the normal update (reported as a
   * 0-byte file until then).
   */
  private statNow(entry: FileEntry): FileEntry {
    let st: Stats | null = null;
    try {
      st = lstatSync(joinRel(this.realRoot, entry.rel));
    } catch {
      st = null;
    }
    this.index.fill(entry, st);
    if (!st?.isFile()) {
      this.dirtyFiles.add(entry.rel);
      this.scheduleFlush();
    }
    return entry;
  }

  /** Stats what the last full index listed without them, between clients' requests. */
  private readonly statPass = new StatPass(
    this.index,
    (entry) => this.statNow(entry),
    () => this.clientsBusy(),
    () => this.state !== 'stopped' && this.state !== 'missing',
    // The folder's size is complete only now: the window is told whatever the pass took (it may have asked before); a long pass is logged too.
    (files, ms) => {
      if (ms > 1000) this.events.onState(this, `${this.root}: sizes of ${files.toLocaleString('en')} files read in ${(ms / 1000).toFixed(1)} s`);
      else this.events.onSized?.(this);
    },
  );

  /** Whether its files' sizes are still being read after a full index (totalBytes is then partial). */
  get sizing(): boolean {
    return this.statPass.running;
  }

  /**
   * While the folder is still being indexed: the entry a file would get,
   * looked at on disk now (the .gitignore files above it read first), so a
   * read by URI works before the scan reaches it. Null once indexed (the
   * index is then the only truth) or when the file is not publishable.
   */
  async examineWhileIndexing(rel: string): Promise<FileEntry | null> {
    if (this.state !== 'indexing' || rel === '') return null;
    const dirs = rel.split('/').slice(0, -1);
    for (let i = 0; i <= dirs.length; i++) await this.rules.loadGitignore(dirs.slice(0, i).join('/'));
    if (this.rules.excludes(rel, false)) return null;
    return examineFile(this.realRoot, this.rules, rel);
  }

  /** Folder-relative paths in stable (code unit) order. */
  paths(): SortedPaths {
    return this.index.paths();
  }

  /** The paths of the files named `name` (the last part of their path), in no particular order (a fresh array). */
  pathsNamed(name: string): string[] {
    return this.index.withName(name);
  }

  /** A copy of the paths in order (for small folders: the index may hold a million). */
  sortedPaths(): string[] {
    return [...this.paths()];
  }

  /**
   * Indexes the folder and starts watching it. Resolves once the index is
   * complete; a root that is missing or not a directory rejects.
   */
  async start(): Promise<void> {
    const real = await realpath(this.root);
    // Pinned: a root swapped for a link (or under a swapped parent) must not publish where it now leads.
    if (this.pinnedRealRoot !== null && real !== this.pinnedRealRoot) throw new Error(leadsElsewhere(this.root, real, this.pinnedRealRoot));
    this.realRoot = real;
    const st = await stat(this.realRoot);
    if (!st.isDirectory()) throw new Error(`${this.root} is not a folder`);
    this.rootIdentity = `${st.dev}:${st.ino}`;
    this.pinnedRealRoot = real;
    this.rules = new FolderRules(this.realRoot, this.options);
    this.state = 'indexing';
    this.eventsHeld = true;
    const started = performance.now();
    // Watching starts first (per directory: as the scan reaches each), so nothing that changes during the scan is missed.
    if (PER_DIRECTORY_WATCHES) this.watching.startDirectoryWatches();
    else await this.watching.start(false);
    const fresh = new Map<string, FileEntry>();
    const hidden = hiddenTally();
    const excluded = hidden.dirs;
    try {
      await scanTree(this.realRoot, this.rules, '', fresh, {
        onExcluded: hidden.note,
        recent: this.recentFiles(),
        onDir: this.watching.watchDir,
        lazyStats: true,
      });
    } catch (err) {
      await this.watching.close();
      throw err;
    }
    await this.watching.unwatch(excluded);
    this.hidden = hidden.summary();
    const change = this.replaceEntries(fresh);
    this.indexMs = performance.now() - started;
    if (this.state === 'indexing') this.state = 'watching';
    this.statPass.start();
    this.eventsHeld = false;
    this.scheduleFlush(); // events that arrived during the scan
    this.startRootCheck();
    if (isChange(change)) this.events.onChange(this, change);
  }

  /** What the last full index left out, by rule (counts, and a few examples each). */
  hidden: HiddenSummary[] = [];

  /** Milliseconds the last full index took (from start until its files were listed), or null before one. */
  indexMs: number | null = null;

  /** Where the root really was when it was first published; it is served from there or not at all. */
  private pinnedRealRoot: string | null = null;

  /** Like start, but a folder that is missing now is watched for until it appears. */
  async open(): Promise<void> {
    try {
      await this.start();
    } catch (err) {
      this.state = 'missing';
      this.error = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'folder is missing' : (err as Error).message;
      this.startRootCheck();
    }
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    this.rechecks.clear();
    if (this.settleTimer) clearTimeout(this.settleTimer);
    if (this.rootTimer) clearInterval(this.rootTimer);
    this.rootTimer = null;
    await this.watching.close();
    await this.flushing;
  }

  /** Watching's errors (tests provoke running out of watches through this). */
  private onWatcherError(err: Error): void {
    this.watching.onError(err);
  }

  private relOf(p: string): string | null {
    return relativeBelow(this.realRoot, p);
  }

  /**
   * A path the watcher reported. Whether it is (still) a file, a folder or
   * gone is looked up when the batch is applied, so the event's own claim
   * about it does not matter.
   */
  private markPath(p: string, structural: boolean): void {
    if (p === this.realRoot) {
      this.watchEvents++;
      if (structural) void this.checkRoot();
      return;
    }
    const rel = this.relOf(p);
    if (rel !== null) this.markRel(rel, structural);
  }

  private markRel(rel: string, structural: boolean): void {
    this.watchEvents++;
    if (this.options.gitignore && (rel === '.gitignore' || rel.endsWith('/.gitignore')))
      this.gitignoreChanged.add(rel.slice(0, Math.max(0, rel.length - '/.gitignore'.length)));
    // Excluded (a .gitignored build dir and all below it, node_modules, a secret…): nothing there is
    // published, so a write there costs one rule check (the rules cover a path's folders too).
    else if (this.rules.excludes(rel, false)) return;
    if (structural && this.state === 'polling') this.scheduleSettle();
    this.dirtyFiles.add(rel);
    this.scheduleFlush();
  }

  private scheduleSettle(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      this.rescanAll = true;
      this.scheduleFlush();
    }, SETTLE_RESCAN_MS);
    this.settleTimer.unref();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.eventsHeld) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushing = this.flushing
        .then(() => this.flush())
        .catch((err: Error) => {
          this.events.onState(this, `could not update the index of ${this.root}: ${err.message}`);
        });
    });
  }

  /** Applies the batched watcher events to the index and reports one change. */
  private async flush(): Promise<void> {
    if (this.state === 'stopped' || this.state === 'missing') return;
    if (this.rescanAll) {
      // The watcher lost track (polling settled, or events were dropped): the whole tree is looked at
      // again, in place, folder by folder, so no second copy of the index is held.
      this.rescanAll = false;
      this.reindexes++;
      this.dirtyFiles.clear();
      this.gitignoreChanged.clear();
      this.rules.resetGitignores();
      const change = noChange();
      if (!(await this.sync.resync('', change, this.recentFiles()))) return this.checkRoot();
      if (isChange(change)) this.events.onChange(this, change);
      return;
    }
    const files = [...this.dirtyFiles];
    this.dirtyFiles.clear();
    const change = noChange();
    const recent = this.recentFiles();
    if (this.gitignoreChanged.size > 0) {
      const dirs = [...this.gitignoreChanged].sort();
      this.gitignoreChanged.clear();
      // A folder inside another being synced is covered by it (a walk reads every .gitignore it passes).
      for (const [i, dir] of dirs.entries()) {
        if (dirs.slice(0, i).some((outer) => outer === '' || dir.startsWith(`${outer}/`))) continue;
        await this.sync.resync(dir, change, recent);
      }
    }
    for (const rel of files) await this.sync.syncPath(rel, change, recent);
    if (isChange(change)) this.events.onChange(this, change);
  }

  /** Where a look starting now notes files new enough to be looked at again. */
  private recentFiles(): RecentFiles {
    return { since: Date.now() - RECENT_MS, note: (rel) => this.rechecks.note(rel, false) };
  }

  private replaceEntries(fresh: Map<string, FileEntry>): FolderChange {
    return this.index.replace(fresh, (rel) => this.get(rel));
  }

  private startRootCheck(): void {
    if (this.rootTimer) clearInterval(this.rootTimer);
    this.rootTimer = setInterval(() => void this.checkRoot(), ROOT_CHECK_MS);
    this.rootTimer.unref();
  }

  /**
   * Notices a root that was deleted, renamed or replaced, stops serving it,
   * and picks it up again once a folder is back at the same path.
   */
  private async checkRoot(): Promise<void> {
    if (this.state === 'stopped') return;
    let identity: string | null = null;
    try {
      const st = await stat(this.root);
      if (st.isDirectory()) identity = `${st.dev}:${st.ino}`;
    } catch {
      identity = null;
    }
    if (this.state === 'missing') {
      if (identity === null) return;
      const real = await realpath(this.root).catch(() => null);
      if (real === null) return;
      if (this.pinnedRealRoot !== null && real !== this.pinnedRealRoot) {
        const reason = leadsElsewhere(this.root, real, this.pinnedRealRoot);
        if (this.error !== reason) {
          this.error = reason;
          this.events.onState(this, reason);
        }
        return;
      }
      this.events.onState(this, `${this.root} is back; publishing it again`);
      this.error = null;
      await this.start().catch((err: Error) => this.markMissing(err.message));
      return;
    }
    if (identity === this.rootIdentity) return;
    await this.markMissing(identity === null ? 'folder is missing' : 'folder was replaced');
    if (identity !== null) await this.checkRoot(); // a new folder already stands there
  }

  private async markMissing(reason: string): Promise<void> {
    if (this.state === 'missing' || this.state === 'stopped') return;
    this.state = 'missing';
    this.error = reason;
    this.rechecks.clear();
    await this.watching.close();
    const change = this.replaceEntries(new Map());
    this.events.onState(this, `${this.root}: ${reason}; its files are no longer served`);
    if (change.removed.length > 0) this.events.onChange(this, change);
  }
}

function leadsElsewhere(root: string, real: string, pinned: string): string {
  return `${root} now leads to ${real}, not to ${pinned} where it was published; not served (remove it and add it again to publish the new place)`;
}

export function folderName(root: string): string {
  return path.basename(root) || root;
}
