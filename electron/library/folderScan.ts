import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { contentKind, mediaType, SNIFF_BYTES, typeFromName } from './mediaType.js';
import type { FolderRules } from './rules.js';
import { isInside, joinRel, relativeInside } from './uriPath.js';

/** One published file, keyed by its folder-relative path with `/`. */
export interface FileEntry {
  rel: string;
  size: number;
  mtimeMs: number;
  mimeType: string;
}

/** Up to this many stats in flight while scanning one directory. */
const STAT_CONCURRENCY = 64;

async function readHead(absPath: string): Promise<Uint8Array> {
  const handle = await open(absPath, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Looks at one candidate file and returns its entry, or null when it is not
 * publishable: not a regular file, a symlink leading outside the folder or to
 * an excluded file, or gone.
 */
export async function examineFile(realRoot: string, rules: FolderRules, rel: string): Promise<FileEntry | null> {
  const abs = joinRel(realRoot, rel);
  try {
    const link = await lstat(abs);
    let target = abs;
    if (link.isSymbolicLink()) {
      target = await realpath(abs);
      if (!isInside(realRoot, target) || target === realRoot) return null;
      if (rules.excludes(relativeInside(realRoot, target), false)) return null;
    } else if (!link.isFile()) {
      return null;
    }
    const st = target === abs ? link : await stat(target);
    if (!st.isFile()) return null;
    let mimeType = typeFromName(rel);
    if (mimeType === null) {
      const head = st.size > 0 ? await readHead(target) : new Uint8Array();
      mimeType = await mediaType(rel, head, contentKind(head, st.size > SNIFF_BYTES));
    }
    return { rel, size: st.size, mtimeMs: st.mtimeMs, mimeType };
  } catch {
    return null; // vanished or unreadable while we looked: not published
  }
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
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
): Promise<void> {
  const pending = [dirRel];
  let first = true;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    await rules.loadGitignore(dir);
    let dirents;
    try {
      dirents = await readdir(joinRel(realRoot, dir), { withFileTypes: true });
    } catch (err) {
      if (first) throw err;
      continue; // a subfolder we cannot read is skipped, the rest is served
    }
    first = false;
    const files: string[] = [];
    for (const d of dirents) {
      const rel = dir === '' ? d.name : `${dir}/${d.name}`;
      if (d.isDirectory()) {
        if (!rules.excludes(rel, true)) pending.push(rel);
      } else if ((d.isFile() || d.isSymbolicLink()) && !rules.excludes(rel, false)) {
        files.push(rel);
      }
    }
    const entries = await mapLimited(files, STAT_CONCURRENCY, (rel) => examineFile(realRoot, rules, rel));
    for (const e of entries) if (e) into.set(e.rel, e);
  }
}
