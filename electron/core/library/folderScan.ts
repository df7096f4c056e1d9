import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';

import { readRegularHead } from '../base/regularFile.js';
import { contentKind, mediaType, SNIFF_BYTES, typeFromName } from './mediaType.js';
import type { FolderRules, HiddenRule } from './rules.js';
import { joinRel, relativeBelow } from './uriPath.js';

/** One published file, keyed by its folder-relative path with `/`. */
export interface FileEntry {
  rel: string;
  /** NOT_STATTED until stat'ed (see `lazyStats`; the time is NaN then): PublishedFolder.get fills them in. */
  size: number;
  mtimeMs: number;
  mimeType: string;
  /** Set when a watcher's event had the file looked at: the change time then, to tell a later event for the same write from a new write. */
  ctimeMs?: number;
}

/** A regular file whose type its name gives, listed before its stats are known. */
export const NOT_STATTED = -1;

/**
 * Whether a file reached at `abs` whose real path is `real` may be served:
 * it must lie below the folder and, when reached through a link, not be an
 * excluded file there. The one check for the scan and for every read.
 */
export function realTargetAllowed(realRoot: string, rules: FolderRules, abs: string, real: string): boolean {
  const rel = relativeBelow(realRoot, real);
  return rel !== null && (real === abs || !rules.excludes(rel, false));
}

/**
 * Told of files whose inode changed (ctime) at or after `since`: a file that
 * new may have been seen on disk before the watcher delivered its creation,
 * and then the watcher can drop its deletion (see SecondLooks).
 */
export interface RecentFiles {
  since: number;
  note(rel: string): void;
}

/**
 * Looks at one candidate file and returns its entry, or null when it is not
 * publishable: not a regular file, a symlink leading outside the folder or to
 * an excluded file, or gone.
 */
export async function examineFile(realRoot: string, rules: FolderRules, rel: string, recent?: RecentFiles): Promise<FileEntry | null> {
  const abs = joinRel(realRoot, rel);
  // Synchronous on purpose: a stat from the inode cache takes microseconds,
  // a trip through the thread pool many times that (50,000 files: 1.2 s → see BENCHMARKS.md).
  try {
    const link = lstatSync(abs);
    let target = abs;
    if (link.isSymbolicLink()) {
      target = realpathSync(abs);
      if (!realTargetAllowed(realRoot, rules, abs, target)) return null;
    } else if (!link.isFile()) {
      return null;
    }
    const st = target === abs ? link : statSync(target);
    if (!st.isFile()) return null;
    if (recent && Math.max(link.ctimeMs, st.ctimeMs) >= recent.since) recent.note(rel);
    let mimeType = typeFromName(rel);
    if (mimeType === null) {
      // Never a blocking open: the file may have been swapped for a FIFO since the stat.
      const head = st.size > 0 ? readRegularHead(target, SNIFF_BYTES) : new Uint8Array();
      mimeType = await mediaType(rel, head, contentKind(head, st.size > SNIFF_BYTES));
    }
    return { rel, size: st.size, mtimeMs: st.mtimeMs, mimeType, ctimeMs: Math.max(link.ctimeMs, st.ctimeMs) };
  } catch {
    return null; // vanished or unreadable while we looked: not published
  }
}

/**
 * Walks `dirRel` (folder-relative, '' for the root) and everything below it
 * that the rules allow, adding entries to `into`. Symlinked directories are
 * not followed: inside ones would list files twice, outside ones are refused.
 * Throws only when `dirRel` itself cannot be read.
 */
export async function scanTree(
  realRoot: string,
  rules: FolderRules,
  dirRel: string,
  into: Map<string, FileEntry>,
  options: {
    /** Told of each entry the rules exclude, and which rule (an excluded directory is not walked). */
    onExcluded?: (rel: string, isDir: boolean, rule: HiddenRule) => void;
    recent?: RecentFiles;
    /** Told of each directory walked, just before it is listed (so a watch placed then misses nothing after). */
    onDir?: (rel: string) => void;
    /** A folder below the first that could not be listed (it is skipped); the first one's error is thrown. */
    onUnreadable?: (rel: string, err: unknown) => void;
    /**
     * Regular files whose type the name gives are entered without a stat
     * (size and time NOT_STATTED, filled in later): a million lstat calls
     * were half of a full index's time. Links and unnamed types are examined.
     */
    lazyStats?: boolean;
  } = {},
): Promise<void> {
  const { onExcluded, recent, onDir, onUnreadable, lazyStats = false } = options;
  const pending = [dirRel];
  let first = true;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    onDir?.(dir);
    let dirents;
    try {
      dirents = readdirSync(joinRel(realRoot, dir), { withFileTypes: true });
    } catch (err) {
      if (first) throw err;
      onUnreadable?.(dir, err);
      continue; // a subfolder we cannot read is skipped, the rest is served
    }
    first = false;
    await rules.loadGitignore(
      dir,
      dirents.some((d) => d.name === '.gitignore'),
    );
    const files: string[] = [];
    for (const d of dirents) {
      const rel = dir === '' ? d.name : `${dir}/${d.name}`;
      if (d.isDirectory()) {
        const rule = rules.excludedBy(rel, true, true);
        if (rule === null) pending.push(rel);
        else onExcluded?.(rel, true, rule);
      } else if (d.isFile() || d.isSymbolicLink()) {
        const rule = rules.excludedBy(rel, false, true);
        if (rule !== null) onExcluded?.(rel, false, rule);
        else {
          const named = lazyStats && d.isFile() ? typeFromName(rel) : null;
          // The time starts as a double (NaN), so filling it in later changes no object's shape.
          if (named !== null) into.set(rel, { rel, size: NOT_STATTED, mtimeMs: Number.NaN, mimeType: named });
          else files.push(rel);
        }
      }
    }
    for (const rel of files) {
      const e = await examineFile(realRoot, rules, rel, recent);
      if (e) into.set(e.rel, e);
    }
    // One directory's stats run without a break; between directories others get their turn.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
