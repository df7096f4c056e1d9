import { type Dirent, lstatSync, readdirSync, type Stats, statSync } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

import { DirectoryWatches, PER_DIRECTORY_WATCHES } from './directoryWatches.js';
import { type FolderChange, FolderIndex, isChange, noChange } from './folderIndex.js';
import { examineFile, type FileEntry, NOT_STATTED, type RecentFiles, scanTree } from './folderScan.js';
import { type ActiveWatcher, isOutOfWatches, watchErrorCode, type WatchSink } from './folderWatcher.js';
import { type HiddenSummary, hiddenTally } from './hiddenTally.js';
import { watchNative } from './nativeWatcher.js';
import { watchByPolling } from './pollingWatcher.js';
import { FolderRules, type RuleOptions } from './rules.js';
import { RECENT_MS, SecondLooks } from './secondLooks.js';
import type { SortedPaths } from './sortedPaths.js';
import { StatPass } from './statPass.js';
import { joinRel, pathToUri, relativeBelow, uriUnder } from './uriPath.js';

export type { FolderChange } from './folderIndex.js';
export type { HiddenSummary } from './hiddenTally.js';

export type WatchState = 'indexing' | 'watching' | 'polling' | 'missing' | 'stopped';

export interface FolderEvents {
  onChange(folder: PublishedFolder, change: FolderChange): void;
  onState(folder: PublishedFolder, message: string): void;
}

/**
 * Never published (see SECRET_PATTERNS) and often huge: not even watched at
 * the folder's top. Plain paths, not globs: the native watcher tests globs
 * against every path, which made 50,000 files take 0.64 s instead of 0.15 s.
 */
const UNWATCHED_AT_TOP = ['.git', 'node_modules'];
/** Excluded folders passed to the native watcher at most; past this only the top ones are left out. */
const MAX_UNWATCHED = 1000;

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
 * source of truth for what may be listed and read) and its watcher (one of
 * the back-ends in folderWatcher.ts). It turns what the watcher reports into
 * changes of the index, and keeps serving only while its root is the folder
 * it published.
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
  private watcher: ActiveWatcher | null = null;
  /** Linux: the per-directory watches the scans place (also `watcher` then). */
  private dirWatches: DirectoryWatches | null = null;
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
      if (!this.outOfStep(rel, dir)) return;
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
    return this.dirWatches?.size ?? null;
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
    // A big folder's size is complete only now: said (which refreshes the window's total). A small one's was before anyone asked.
    (files, ms) => ms > 1000 && this.events.onState(this, `${this.root}: sizes of ${files.toLocaleString('en')} files read in ${(ms / 1000).toFixed(1)} s`),
  );

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
    if (PER_DIRECTORY_WATCHES) this.startDirectoryWatches();
    else await this.startWatcher(false);
    const fresh = new Map<string, FileEntry>();
    const hidden = hiddenTally();
    const excluded = hidden.dirs;
    try {
      await scanTree(this.realRoot, this.rules, '', fresh, { onExcluded: hidden.note, recent: this.recentFiles(), onDir: this.watchDir, lazyStats: true });
    } catch (err) {
      await this.closeWatcher();
      throw err;
    }
    await this.unwatch(excluded);
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
    await this.closeWatcher();
    await this.flushing;
  }

  /** Paths the native watcher leaves alone: the usual huge folders at the top, then every folder a scan found excluded. */
  private unwatched: string[] = UNWATCHED_AT_TOP;

  /**
   * After a scan: excluded folders (.gitignored, secrets, hidden) are not
   * watched either, so writes inside them cost nothing at all. The new
   * subscription starts before the old one ends, so no event is missed.
   */
  private async unwatch(excluded: readonly string[]): Promise<void> {
    const next = [...new Set([...UNWATCHED_AT_TOP, ...excluded.slice(0, MAX_UNWATCHED)])].sort();
    if (this.dirWatches || this.state === 'polling' || next.join('\0') === this.unwatched.join('\0')) return;
    this.unwatched = next;
    const old = this.watcher;
    this.watcher = null;
    await this.startWatcher(false, false);
    await old?.close();
  }

  /** Linux: watches placed by the scans, directory by directory (see DirectoryWatches). */
  private startDirectoryWatches(): void {
    const watches = new DirectoryWatches(this.realRoot, path.basename(this.realRoot), {
      path: (rel) => this.markRel(rel, true),
      lost: (rel) => {
        if (rel !== '') return this.markRel(rel, true);
        this.rescanAll = true;
        this.scheduleFlush();
      },
      root: () => void this.checkRoot(),
      error: (err) => this.onWatcherError(err),
    });
    this.dirWatches = watches;
    this.watcher = watches;
  }

  /** Given to every scan: a directory it reaches is watched before it is listed (per-directory watches only). */
  private readonly watchDir = (rel: string): void => this.dirWatches?.add(rel);

  private async closeWatcher(): Promise<void> {
    const w = this.watcher;
    this.watcher = null;
    this.dirWatches = null;
    await w?.close();
  }

  /** What every back-end reports to. */
  private readonly sink: WatchSink = { path: (p, structural) => this.markPath(p, structural), error: (err) => this.onWatcherError(err) };

  private async startWatcher(polling: boolean, closeFirst = true): Promise<void> {
    if (closeFirst) await this.closeWatcher();
    const gone = () => this.state === 'stopped' || this.state === 'missing';
    if (!polling) {
      try {
        const w = await watchNative(
          this.realRoot,
          this.unwatched.map((rel) => path.join(this.realRoot, rel)),
          this.sink,
        );
        if (gone()) await w.close();
        else this.watcher = w;
        return;
      } catch (err) {
        if (!isOutOfWatches(err)) throw err;
        this.events.onState(this, `file watching unavailable (${watchErrorCode(err)}); polling ${this.root} instead`);
      }
    }
    await watchByPolling(
      this.realRoot,
      (p, stats) => this.ignoredByWatcher(p, stats),
      this.sink,
      (w) => (this.watcher = w),
    );
    if (!gone()) this.state = 'polling';
  }

  private ignoredByWatcher(p: string, stats?: Stats): boolean {
    const rel = this.relOf(p);
    if (rel === null) return false;
    // Without stats chokidar asks again with them; only skip what is excluded either way.
    if (!stats) return this.rules.excludes(rel, true) && this.rules.excludes(rel, false);
    return this.rules.excludes(rel, stats.isDirectory());
  }

  private onWatcherError(err: Error): void {
    if (isOutOfWatches(err) && this.state !== 'polling') {
      this.events.onState(this, `file watching unavailable (${watchErrorCode(err)}); polling ${this.root} instead`);
      this.state = 'polling';
      this.dirWatches = null; // closed by startWatcher; scans place no more watches
      void this.startWatcher(true).then(() => {
        this.rescanAll = true;
        this.scheduleFlush();
      });
      return;
    }
    this.events.onState(this, `watcher error on ${this.root}: ${err.message}`);
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
      if (!(await this.resync('', change, this.recentFiles()))) return this.checkRoot();
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
        await this.resync(dir, change, recent);
      }
    }
    for (const rel of files) {
      // The path may have turned from a file into a folder or back since the
      // event (chokidar even reports that as a mere "change"): look at what it is now.
      const st = await lstat(joinRel(this.realRoot, rel)).catch(() => null);
      if (st?.isDirectory()) {
        if (this.state === 'polling') this.scheduleSettle();
        this.remove(rel, change);
        if (this.rules.excludes(rel, true)) {
          this.removeUnder(rel, change);
          continue;
        }
        if (st.ctimeMs >= recent.since) this.rechecks.note(rel, true);
        await this.syncDir(rel, change, recent);
        this.watcher?.add?.(joinRel(this.realRoot, rel));
        continue;
      }
      // It may have been a folder until now, even if a file entry of the same name was never
      // removed (the watcher can fold a file → folder → file sequence into one event): free when nothing is below it.
      this.removeUnder(rel, change);
      const entry = this.rules.excludes(rel, false) ? null : await examineFile(this.realRoot, this.rules, rel, recent);
      if (entry) this.index.upsert(entry, change);
      else this.remove(rel, change);
    }
    if (isChange(change)) this.events.onChange(this, change);
  }

  /**
   * Makes the index below directory `rel` what is on disk now: files found
   * are added (or changed, when their size or time differ), files no longer
   * there are removed — a folder replaced by another of the same name leaves
   * nothing of the old one behind. Its directories are watched as reached.
   */
  private async syncDir(rel: string, change: FolderChange, recent: RecentFiles): Promise<void> {
    const found = new Map<string, FileEntry>();
    // A folder that was watched before may be another one now: watches below it that the walk does not reach go.
    const reached = this.dirWatches?.has(rel) ? new Set<string>() : null;
    const onDir = (d: string) => {
      reached?.add(d);
      this.watchDir(d);
    };
    await scanTree(this.realRoot, this.rules, rel, found, { recent, onDir }).catch(() => undefined);
    if (reached) this.dirWatches?.keepOnly(reached, rel);
    if (this.index.hasBelow(rel)) {
      const prefix = `${rel}/`;
      const gone: string[] = [];
      for (const p of this.paths().startingWith(prefix)) if (!found.has(p)) gone.push(p);
      for (const p of gone) this.remove(p, change);
    }
    for (const entry of found.values()) this.upsertIfChanged(entry, change);
  }

  /**
   * After a .gitignore in `dir` changed: what is published below `dir` is
   * worked out again, folder by folder for the root, so no second copy of
   * the whole index is ever held and nothing outside `dir` is looked at.
   */
  private async resync(dir: string, change: FolderChange, recent: RecentFiles): Promise<boolean> {
    if (dir !== '') {
      if (!this.rules.excludes(dir, true)) await this.syncDir(dir, change, recent); // else nothing there is published, with any .gitignore
      return true;
    }
    let dirents: Dirent[];
    try {
      dirents = readdirSync(this.realRoot, { withFileTypes: true });
    } catch {
      return false; // the root itself is unreadable or gone
    }
    // Whatever the index holds under a top-level name that is no longer there goes first.
    const names = new Set(dirents.map((d) => d.name));
    const goneTop = new Set<string>();
    for (const rel of this.paths()) {
      const slash = rel.indexOf('/');
      const top = slash < 0 ? rel : rel.slice(0, slash);
      if (!names.has(top)) goneTop.add(top);
    }
    for (const top of goneTop) {
      this.removeUnder(top, change);
      this.remove(top, change);
    }
    await this.rules.loadGitignore(
      '',
      dirents.some((d) => d.name === '.gitignore'),
    );
    for (const d of dirents) {
      const rel = d.name;
      if (d.isDirectory()) {
        if (this.rules.excludes(rel, true)) this.removeUnder(rel, change);
        else {
          this.watchDir(rel);
          await this.syncDir(rel, change, recent);
        }
      } else if (d.isFile() || d.isSymbolicLink()) {
        this.removeUnder(rel, change); // a folder until now
        const entry = this.rules.excludes(rel, false) ? null : await examineFile(this.realRoot, this.rules, rel, recent);
        if (entry) this.upsertIfChanged(entry, change);
        else this.remove(rel, change);
      }
    }
    return true;
  }

  /** Where a look starting now notes files new enough to be looked at again. */
  private recentFiles(): RecentFiles {
    return { since: Date.now() - RECENT_MS, note: (rel) => this.rechecks.note(rel, false) };
  }

  /** Whether the disk disagrees with the index about `rel` (a folder: whether it is still one). */
  private outOfStep(rel: string, dir: boolean): boolean {
    const abs = joinRel(this.realRoot, rel);
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch {
      return dir ? this.index.hasBelow(rel) : this.index.has(rel);
    }
    if (dir) return !st.isDirectory() && this.index.hasBelow(rel);
    const entry = this.get(rel);
    if (!entry) return false; // never listed: a creation the watcher drops is not possible (it reports create, delete, create)
    if (st.isSymbolicLink()) {
      try {
        st = statSync(abs);
      } catch {
        return true;
      }
    }
    return !st.isFile() || st.size !== entry.size || st.mtimeMs !== entry.mtimeMs;
  }

  /** Upserts only what is new or differs (a re-sync, not a watcher's event, found it: no write is known). */
  private upsertIfChanged(entry: FileEntry, change: FolderChange): void {
    const old = this.get(entry.rel);
    if (!old || old.size !== entry.size || old.mtimeMs !== entry.mtimeMs || old.mimeType !== entry.mimeType) this.index.upsert(entry, change);
  }

  /** Removes every entry below folder-relative `dir`, and stops watching the folders there. */
  private removeUnder(dir: string, change: FolderChange): void {
    this.dirWatches?.removeUnder(dir); // an empty folder is watched too
    this.index.removeUnder(dir, change);
  }

  private remove(rel: string, change: FolderChange): void {
    this.index.remove(rel, change);
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
    await this.closeWatcher();
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
