import { type Dirent, lstatSync, readdirSync, type Stats, statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';

import type { FolderChange, FolderIndex } from './folderIndex.js';
import { examineFile, type FileEntry, type RecentFiles, scanTree } from './folderScan.js';
import type { FolderWatching } from './folderWatching.js';
import type { FolderRules } from './rules.js';
import { joinRel } from './uriPath.js';

/** An error that says the folder is not there (or no longer readable), as opposed to one that passes (EMFILE, EIO). */
function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM' || code === 'ELOOP';
}

/** What a sync works on: the folder's place, rules, index and watches. */
export interface SyncedFolder {
  readonly realRoot: string;
  readonly rules: FolderRules;
  /** The entry for `rel`, stat'ed now if the index has not yet. */
  get(rel: string): FileEntry | undefined;
}

/** What a sync tells the folder of folders it finds. */
export interface SyncHooks {
  /** A path a watcher reported is a folder now. */
  turnedDir(): void;
  /** A folder new enough for a second look (see SecondLooks). */
  newDir(rel: string): void;
}

/**
 * Makes parts of a folder's index what is on disk now, in place, folder by
 * folder (no second copy of the index is held): a directory after an event
 * or a .gitignore change, or the whole tree when the watcher lost track.
 */
export class IndexSync {
  constructor(
    private readonly folder: SyncedFolder,
    private readonly index: FolderIndex,
    private readonly watching: FolderWatching,
    private readonly seen: SyncHooks,
  ) {}

  /**
   * A path a watcher reported, as it is now: it may have turned from a file
   * into a folder or back since the event (chokidar even reports that as a
   * mere "change").
   */
  async syncPath(rel: string, change: FolderChange, recent: RecentFiles): Promise<void> {
    const { realRoot, rules } = this.folder;
    const st = await lstat(joinRel(realRoot, rel)).catch(() => null);
    if (st?.isDirectory()) {
      this.seen.turnedDir();
      this.index.remove(rel, change);
      if (rules.excludes(rel, true)) return this.removeUnder(rel, change);
      if (st.ctimeMs >= recent.since) this.seen.newDir(rel);
      await this.syncDir(rel, change, recent);
      this.watching.add(joinRel(realRoot, rel));
      return;
    }
    // It may have been a folder until now, even if a file entry of the same name was never
    // removed (the watcher can fold a file → folder → file sequence into one event): free when nothing is below it.
    this.removeUnder(rel, change);
    const entry = rules.excludes(rel, false) ? null : await examineFile(realRoot, rules, rel, recent);
    if (entry) this.index.upsert(entry, change);
    else this.index.remove(rel, change);
  }

  /**
   * Makes the index below directory `rel` what is on disk now: files found
   * are added (or changed, when their size or time differ), files no longer
   * there are removed — a folder replaced by another of the same name leaves
   * nothing of the old one behind. Its directories are watched as reached.
   */
  async syncDir(rel: string, change: FolderChange, recent: RecentFiles): Promise<void> {
    const found = new Map<string, FileEntry>();
    // A folder that was watched before may be another one now: watches below it that the walk does not reach go.
    const reached = this.watching.watchesDir(rel) ? new Set<string>() : null;
    const onDir = (d: string) => {
      reached?.add(d);
      this.watching.watchDir(d);
    };
    // Folders that could not be listed for a passing reason (out of file descriptors, an I/O error) keep what
    // the index holds below them: only what is gone is removed, never what could not be looked at just now.
    const unsure: string[] = [];
    const onUnreadable = (d: string, err: unknown) => {
      if (!isGone(err)) unsure.push(d === '' ? '' : `${d}/`);
    };
    await scanTree(this.folder.realRoot, this.folder.rules, rel, found, { recent, onDir, onUnreadable }).catch((err: unknown) => onUnreadable(rel, err));
    if (reached) this.watching.keepOnly(reached, rel);
    if (this.index.hasBelow(rel)) {
      const prefix = `${rel}/`;
      const gone: string[] = [];
      for (const p of this.index.paths().startingWith(prefix)) if (!found.has(p) && !unsure.some((u) => p.startsWith(u))) gone.push(p);
      for (const p of gone) this.index.remove(p, change);
    }
    for (const entry of found.values()) this.upsertIfChanged(entry, change);
  }

  /**
   * After a .gitignore in `dir` changed (or, for the root, after the watcher
   * lost track): what is published below `dir` is worked out again, folder
   * by folder for the root, and nothing outside `dir` is looked at. False
   * when the root itself cannot be listed.
   */
  async resync(dir: string, change: FolderChange, recent: RecentFiles): Promise<boolean> {
    const { realRoot, rules } = this.folder;
    if (dir !== '') {
      if (!rules.excludes(dir, true)) await this.syncDir(dir, change, recent); // else nothing there is published, with any .gitignore
      return true;
    }
    let dirents: Dirent[];
    try {
      dirents = readdirSync(realRoot, { withFileTypes: true });
    } catch {
      return false; // the root itself is unreadable or gone
    }
    this.removeGoneTop(new Set(dirents.map((d) => d.name)), change);
    await rules.loadGitignore(
      '',
      dirents.some((d) => d.name === '.gitignore'),
    );
    for (const d of dirents) {
      const rel = d.name;
      if (d.isDirectory()) {
        if (rules.excludes(rel, true)) this.removeUnder(rel, change);
        else {
          this.watching.watchDir(rel);
          await this.syncDir(rel, change, recent);
        }
      } else if (d.isFile() || d.isSymbolicLink()) {
        this.removeUnder(rel, change); // a folder until now
        const entry = rules.excludes(rel, false) ? null : await examineFile(realRoot, rules, rel, recent);
        if (entry) this.upsertIfChanged(entry, change);
        else this.index.remove(rel, change);
      }
    }
    return true;
  }

  /** Whatever the index holds under a top-level name that is no longer there goes first. */
  private removeGoneTop(names: ReadonlySet<string>, change: FolderChange): void {
    const goneTop = new Set<string>();
    for (const rel of this.index.paths()) {
      const slash = rel.indexOf('/');
      const top = slash < 0 ? rel : rel.slice(0, slash);
      if (!names.has(top)) goneTop.add(top);
    }
    for (const top of goneTop) {
      this.removeUnder(top, change);
      this.index.remove(top, change);
    }
  }

  /** Whether the disk disagrees with the index about `rel` (a folder: whether it is still one). */
  outOfStep(rel: string, dir: boolean): boolean {
    const abs = joinRel(this.folder.realRoot, rel);
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch {
      return dir ? this.index.hasBelow(rel) : this.index.has(rel);
    }
    if (dir) return !st.isDirectory() && this.index.hasBelow(rel);
    const entry = this.folder.get(rel);
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
    const old = this.folder.get(entry.rel);
    if (!old || old.size !== entry.size || old.mtimeMs !== entry.mtimeMs || old.mimeType !== entry.mimeType) this.index.upsert(entry, change);
  }

  /** Removes every entry below folder-relative `dir`, and stops watching the folders there. */
  removeUnder(dir: string, change: FolderChange): void {
    this.watching.removeUnder(dir);
    this.index.removeUnder(dir, change);
  }
}
