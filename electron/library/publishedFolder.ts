import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { examineFile, scanTree, type FileEntry } from './folderScan.js';
import { FolderRules, type RuleOptions } from './rules.js';
import { isInside, joinRel, relativeInside } from './uriPath.js';

export type WatchState = 'indexing' | 'watching' | 'polling' | 'missing' | 'stopped';

/** What changed in one folder, as folder-relative paths. */
export interface FolderChange {
  added: string[];
  removed: string[];
  changed: string[];
}

export interface FolderEvents {
  onChange(folder: PublishedFolder, change: FolderChange): void;
  onState(folder: PublishedFolder, message: string): void;
}

/** How often a folder checks that its root is still the same directory. */
const ROOT_CHECK_MS = 1000;
/**
 * Quiet time after files come, go or change type before one full rescan.
 * The watcher misses some fast sequences (a file replaced by a folder is
 * reported as a mere change, or not at all); the rescan makes the listing
 * exact once things settle. Plain content edits do not trigger it.
 */
const SETTLE_RESCAN_MS = 1500;

/**
 * One published folder: its rules, its index of files and its watcher. The
 * index is the source of truth for what may be listed and read.
 */
export class PublishedFolder {
  /** Canonical path (symlinks resolved) used for URIs and all checks. */
  realRoot: string;
  state: WatchState = 'indexing';
  error: string | null = null;
  rules: FolderRules;

  private entries = new Map<string, FileEntry>();
  private sorted: string[] | null = null;
  private watcher: FSWatcher | null = null;
  private rootIdentity: string | null = null;
  private rootTimer: NodeJS.Timeout | null = null;
  private dirtyFiles = new Set<string>();
  private dirtyDirs = new Set<string>();
  private removedDirs = new Set<string>();
  private rescanAll = false;
  private flushScheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private eventsHeld = true;
  private settleTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly id: number,
    /** Absolute path as the user gave it. */
    readonly root: string,
    readonly options: RuleOptions,
    private readonly events: FolderEvents,
  ) {
    this.realRoot = root;
    this.rules = new FolderRules(root, options);
  }

  get fileCount(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    let sum = 0;
    for (const e of this.entries.values()) sum += e.size;
    return sum;
  }

  get(rel: string): FileEntry | undefined {
    return this.entries.get(rel);
  }

  /** Folder-relative paths in stable (code unit) order. */
  sortedPaths(): readonly string[] {
    if (!this.sorted) this.sorted = [...this.entries.keys()].sort(compareCodeUnits);
    return this.sorted;
  }

  /**
   * Indexes the folder and starts watching it. Resolves once the index is
   * complete; a root that is missing or not a directory rejects.
   */
  async start(): Promise<void> {
    this.realRoot = await realpath(this.root);
    const st = await stat(this.realRoot);
    if (!st.isDirectory()) throw new Error(`${this.root} is not a folder`);
    this.rootIdentity = `${st.dev}:${st.ino}`;
    this.rules = new FolderRules(this.realRoot, this.options);
    this.state = 'indexing';
    this.eventsHeld = true;
    await this.startWatcher(false);
    const fresh = new Map<string, FileEntry>();
    await scanTree(this.realRoot, this.rules, '', fresh);
    const change = this.replaceEntries(fresh);
    this.state = this.state === 'indexing' ? 'watching' : this.state;
    this.eventsHeld = false;
    this.scheduleFlush(); // events that arrived during the scan
    this.startRootCheck();
    if (change.added.length + change.removed.length > 0) this.events.onChange(this, change);
  }

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
    if (this.settleTimer) clearTimeout(this.settleTimer);
    if (this.rootTimer) clearInterval(this.rootTimer);
    this.rootTimer = null;
    await this.watcher?.close();
    this.watcher = null;
    await this.flushing;
  }

  private async startWatcher(polling: boolean): Promise<void> {
    await this.watcher?.close();
    const watcher = watch(this.realRoot, {
      ignoreInitial: true,
      followSymlinks: false,
      usePolling: polling,
      interval: 500,
      ignored: (p: string, stats?: Stats) => this.ignoredByWatcher(p, stats),
    });
    this.watcher = watcher;
    watcher.on('add', (p) => this.markFile(p, true));
    watcher.on('change', (p) => this.markFile(p, false));
    watcher.on('unlink', (p) => this.markFile(p, true));
    watcher.on('addDir', (p) => this.markDir(p, false));
    watcher.on('unlinkDir', (p) => this.markDir(p, true));
    watcher.on('error', (err) => this.onWatcherError(err as NodeJS.ErrnoException));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    if (polling) this.state = 'polling';
  }

  private ignoredByWatcher(p: string, stats?: Stats): boolean {
    if (!isInside(this.realRoot, p) || p === this.realRoot) return false;
    const rel = relativeInside(this.realRoot, p);
    // Without stats chokidar asks again with them; only skip what is excluded either way.
    if (!stats) return this.rules.excludes(rel, true) && this.rules.excludes(rel, false);
    return this.rules.excludes(rel, stats.isDirectory());
  }

  private onWatcherError(err: NodeJS.ErrnoException): void {
    if ((err.code === 'ENOSPC' || err.code === 'EMFILE') && this.state !== 'polling') {
      // Out of inotify watches or descriptors: polling still delivers updates.
      this.events.onState(this, `file watching unavailable (${err.code}); polling ${this.root} instead`);
      this.state = 'polling';
      void this.startWatcher(true).then(() => {
        this.rescanAll = true;
        this.scheduleFlush();
      });
      return;
    }
    this.events.onState(this, `watcher error on ${this.root}: ${err.message}`);
  }

  private relOf(p: string): string | null {
    if (!isInside(this.realRoot, p) || p === this.realRoot) return null;
    return relativeInside(this.realRoot, p);
  }

  private markFile(p: string, structural: boolean): void {
    const rel = this.relOf(p);
    if (rel === null) return;
    if (structural) this.scheduleSettle();
    if (this.options.gitignore && (rel === '.gitignore' || rel.endsWith('/.gitignore'))) this.rescanAll = true;
    this.dirtyFiles.add(rel);
    this.scheduleFlush();
  }

  private markDir(p: string, removed: boolean): void {
    if (p === this.realRoot) {
      if (removed) void this.checkRoot();
      return;
    }
    const rel = this.relOf(p);
    if (rel === null) return;
    this.scheduleSettle();
    (removed ? this.removedDirs : this.dirtyDirs).add(rel);
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
      this.flushing = this.flushing.then(() => this.flush()).catch((err: Error) => {
        this.events.onState(this, `could not update the index of ${this.root}: ${err.message}`);
      });
    });
  }

  /** Applies the batched watcher events to the index and reports one change. */
  private async flush(): Promise<void> {
    if (this.state === 'stopped' || this.state === 'missing') return;
    if (this.rescanAll) {
      this.rescanAll = false;
      this.dirtyFiles.clear();
      this.dirtyDirs.clear();
      this.removedDirs.clear();
      const fresh = new Map<string, FileEntry>();
      this.rules.resetGitignores();
      try {
        await scanTree(this.realRoot, this.rules, '', fresh);
      } catch {
        await this.checkRoot();
        return;
      }
      const change = this.replaceEntries(fresh);
      if (change.added.length + change.removed.length + change.changed.length > 0) this.events.onChange(this, change);
      return;
    }
    const files = [...this.dirtyFiles];
    const dirs = [...this.dirtyDirs];
    const gone = [...this.removedDirs];
    this.dirtyFiles.clear();
    this.dirtyDirs.clear();
    this.removedDirs.clear();
    const change: FolderChange = { added: [], removed: [], changed: [] };
    for (const dir of gone) this.removeUnder(dir, change);
    for (const dir of dirs) {
      if (this.rules.excludes(dir, true)) continue;
      const found = new Map<string, FileEntry>();
      await scanTree(this.realRoot, this.rules, dir, found).catch(() => undefined);
      for (const entry of found.values()) this.upsert(entry, change);
    }
    for (const rel of files) {
      // chokidar reports a file replaced by a folder (or back) as a mere
      // "change" and stops watching that path: look at what it is now.
      const st = await lstat(joinRel(this.realRoot, rel)).catch(() => null);
      if (st?.isDirectory()) {
        this.scheduleSettle();
        this.remove(rel, change);
        if (this.rules.excludes(rel, true)) continue;
        const found = new Map<string, FileEntry>();
        await scanTree(this.realRoot, this.rules, rel, found).catch(() => undefined);
        for (const entry of found.values()) this.upsert(entry, change);
        this.watcher?.add(joinRel(this.realRoot, rel));
        continue;
      }
      this.removeUnder(rel, change); // it may have been a folder until now
      const entry = this.rules.excludes(rel, false) ? null : await examineFile(this.realRoot, this.rules, rel);
      if (entry) this.upsert(entry, change);
      else this.remove(rel, change);
    }
    if (change.added.length + change.removed.length + change.changed.length > 0) this.events.onChange(this, change);
  }

  private upsert(entry: FileEntry, change: FolderChange): void {
    const old = this.entries.get(entry.rel);
    this.entries.set(entry.rel, entry);
    if (!old) {
      this.sorted = null;
      change.added.push(entry.rel);
    } else {
      change.changed.push(entry.rel); // the watcher saw a write, even if size and mtime match
    }
  }

  /** Removes every entry below folder-relative `dir`. */
  private removeUnder(dir: string, change: FolderChange): void {
    const prefix = `${dir}/`;
    for (const rel of this.entries.keys()) {
      if (rel.startsWith(prefix)) this.remove(rel, change);
    }
  }

  private remove(rel: string, change: FolderChange): void {
    if (this.entries.delete(rel)) {
      this.sorted = null;
      change.removed.push(rel);
    }
  }

  private replaceEntries(fresh: Map<string, FileEntry>): FolderChange {
    const change: FolderChange = { added: [], removed: [], changed: [] };
    for (const [rel, e] of fresh) {
      const old = this.entries.get(rel);
      if (!old) change.added.push(rel);
      else if (old.size !== e.size || old.mtimeMs !== e.mtimeMs) change.changed.push(rel);
    }
    for (const rel of this.entries.keys()) if (!fresh.has(rel)) change.removed.push(rel);
    this.entries = fresh;
    this.sorted = null;
    return change;
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
    await this.watcher?.close();
    this.watcher = null;
    const change = this.replaceEntries(new Map());
    this.events.onState(this, `${this.root}: ${reason}; its files are no longer served`);
    if (change.removed.length > 0) this.events.onChange(this, change);
  }
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function folderName(root: string): string {
  return path.basename(root) || root;
}
