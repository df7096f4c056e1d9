import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

import type { ChangeRefusal } from '../../../shared/changeTypes.js';
import { ErrorCodes } from '../../../shared/errorCodes.js';
import { ShelfError } from '../base/shelfError.js';
import type { PublishedFolder } from './publishedFolder.js';
import { relativeBelow, uriToPath } from './uriPath.js';

/**
 * Writing a published file for a change the person approved, as carefully
 * as a read and more: no path outside the folder, no link followed anywhere
 * on the way (a folder swapped for a link between the approval and the
 * write writes nothing outside), nothing hidden, secret or ignored, no FIFO
 * or device, and never a partial file (a temporary file beside it, synced,
 * then renamed over it; the file's mode kept).
 *
 * On Linux every step goes through descriptors: the folder's root is opened,
 * then each folder below it through /proc/self/fd/N/name with O_NOFOLLOW, so
 * what was checked is what is written into, whatever is renamed or swapped
 * meanwhile (the effect of openat). Elsewhere each folder is looked at with
 * lstat just before it is used.
 */

export function changeRefused(uri: string, reason: ChangeRefusal, message: string): ShelfError {
  return new ShelfError(ErrorCodes.changeNotMade, message, { uri, reason });
}

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
/** Path parts a change may have at most (a deeper one is no person's file). */
const MAX_DEPTH = 64;

/** Where a change would go: the published folder and the path inside it (the file may not exist yet). */
export interface ChangeTarget {
  folder: PublishedFolder;
  rel: string;
}

/**
 * The published folder and path a change to `uri` names, or a refusal: the
 * URI must be a plain file URL inside a folder being served (the most
 * specific one), and no part of the path may be hidden, secret or ignored
 * by the folder's rules — the same answer whether the file exists or not.
 */
export function changeTarget(folders: readonly PublishedFolder[], uri: string): ChangeTarget {
  const notPublished = () =>
    changeRefused(
      uri,
      'not-published',
      'Not a file MCP Shelf may change: it must be inside a published folder, and hidden, secret or ignored files (.env, keys, .git/, what the folder’s rules hide) are never changed',
    );
  const p = uriToPath(uri);
  if (p === null) throw notPublished();
  let best: ChangeTarget | null = null;
  let depth = -1;
  for (const folder of folders) {
    if (folder.state === 'missing' || folder.state === 'stopped') continue;
    for (const root of folder.realRoot === folder.root ? [folder.root] : [folder.realRoot, folder.root]) {
      const rel = root.length > depth ? relativeBelow(root, p) : null;
      if (rel !== null) {
        best = { folder, rel };
        depth = root.length;
      }
    }
  }
  if (!best) throw notPublished();
  const parts = best.rel.split('/');
  if (parts.length > MAX_DEPTH || parts.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0'))) throw notPublished();
  for (let i = 1; i < parts.length; i++) if (best.folder.rules.excludedBy(parts.slice(0, i).join('/'), true) !== null) throw notPublished();
  if (best.folder.rules.excludedBy(best.rel, false) !== null) throw notPublished();
  return best;
}

/** One folder on the way, held open (Linux) or named by its checked path (elsewhere). */
interface Dir {
  fd: number;
  path: string;
}

const at = (dir: Dir, name: string): string => (PROC_FD ? `/proc/self/fd/${dir.fd}/${name}` : path.join(dir.path, name));
const closeDir = (dir: Dir) => {
  if (dir.fd >= 0) closeSync(dir.fd);
};

function failed(uri: string, err: unknown): ShelfError {
  if (err instanceof ShelfError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EISDIR')
    return changeRefused(uri, 'not-a-file', 'Not written: a link, a folder or something other than a regular file is in the way');
  if (code === 'EACCES' || code === 'EPERM') return changeRefused(uri, 'failed', 'Not written: the system does not let MCP Shelf write there');
  return changeRefused(uri, 'failed', `Not written: ${(err as Error).message}`);
}

/** The folder's root, opened and checked to be where it should be. */
function openRoot(target: ChangeTarget, uri: string): Dir {
  const root = target.folder.realRoot;
  if (!PROC_FD) {
    if (!lstatSync(root).isDirectory()) throw changeRefused(uri, 'not-a-file', 'Not written: the published folder is not a folder now');
    return { fd: -1, path: root };
  }
  const fd = openSync(root, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  if (readlinkSync(`/proc/self/fd/${fd}`) !== root) {
    closeSync(fd);
    throw changeRefused(uri, 'not-a-file', 'Not written: the published folder was moved');
  }
  return { fd, path: root };
}

/** The folder `name` inside `dir`, never through a link; made when `create` (then added to `made`). */
function descend(dir: Dir, name: string, create: boolean, made: string[], rel: string): Dir | null {
  const where = at(dir, name);
  if (!PROC_FD) {
    let st: Stats | null = null;
    try {
      st = lstatSync(where);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (!st) {
      if (!create) return null;
      mkdirSync(where);
      made.push(rel);
      st = lstatSync(where);
    }
    if (!st.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    return { fd: -1, path: where };
  }
  const open = () => openSync(where, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  try {
    return { fd: open(), path: where };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // ELOOP: a link; ENOTDIR: a file
    if (!create) return null;
  }
  mkdirSync(where);
  made.push(rel);
  return { fd: open(), path: where };
}

/** Opens the folders down to the file's, making missing ones when `create`; null when one is missing and not made. */
function openParent(target: ChangeTarget, uri: string, create: boolean, made: string[] = []): Dir | null {
  const parts = target.rel.split('/');
  let dir = openRoot(target, uri);
  try {
    for (let i = 0; i < parts.length - 1; i++) {
      const next = descend(dir, parts[i] as string, create, made, parts.slice(0, i + 1).join('/'));
      closeDir(dir);
      if (!next) return null;
      dir = next;
    }
    return dir;
  } catch (err) {
    closeDir(dir);
    throw err;
  }
}

/** The file as it is now: its bytes (at most `limit`) and stats, or null when it does not exist. */
export interface CurrentFile {
  bytes: Buffer;
  stat: Stats;
}

function readIn(dir: Dir, name: string, uri: string, limit: number): CurrentFile | null {
  let fd: number;
  try {
    fd = openSync(at(dir, name), constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw changeRefused(uri, 'not-a-file', 'Not a regular file: MCP Shelf changes text files only');
    if (stat.size > limit) throw changeRefused(uri, 'too-large', `The file is ${stat.size} bytes, over the ${limit} a change may be`);
    const bytes = Buffer.allocUnsafe(Math.min(stat.size, limit) + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
      if (got > limit) throw changeRefused(uri, 'too-large', `The file is over the ${limit} bytes a change may be`);
    }
    return { bytes: bytes.subarray(0, got), stat };
  } finally {
    closeSync(fd);
  }
}

/** The target as it is now (through the same checks as a write), or null when it (or a folder on the way) does not exist. */
export function readCurrent(target: ChangeTarget, uri: string, limit: number): CurrentFile | null {
  try {
    const dir = openParent(target, uri, false);
    if (!dir) return null;
    try {
      return readIn(dir, path.posix.basename(target.rel), uri, limit);
    } finally {
      closeDir(dir);
    }
  } catch (err) {
    throw failed(uri, err);
  }
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** What the file must be when the change is written: absent, or exactly these bytes (by hash). */
export type Expected = { absent: true } | { hash: string };

export interface Written {
  /** Folders made on the way, folder-relative. */
  madeFolders: string[];
  /** The file's bytes before (null: it did not exist). */
  previous: Buffer | null;
}

/**
 * Writes `bytes` as the target, if it is still as `expected` (else a
 * conflict, and nothing is written): a temporary file in the same folder,
 * synced, its mode and owner the file's, then renamed over the file (a new
 * one is linked in, so a file that appeared meanwhile is never replaced);
 * the folder is synced after. `bytes: null` removes the file (undo of a
 * new file). Missing parent folders are made only for a write.
 */
export function writeChecked(target: ChangeTarget, uri: string, bytes: Buffer | null, expected: Expected, limit: number): Written {
  const madeFolders: string[] = [];
  const name = path.posix.basename(target.rel);
  let dir: Dir | null = null;
  let temp: string | null = null;
  try {
    dir = openParent(target, uri, bytes !== null, madeFolders);
    if (!dir) throw conflictOf(uri, expected, null);
    const current = readIn(dir, name, uri, limit);
    if ('absent' in expected ? current !== null : current === null || sha256(current.bytes) !== expected.hash) throw conflictOf(uri, expected, current);
    if (bytes === null) {
      unlinkSync(at(dir, name));
    } else {
      temp = `.${name.slice(0, 100)}.mcp-shelf-${randomBytes(12).toString('hex')}.tmp`;
      const fd = openSync(at(dir, temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, current ? current.stat.mode & 0o7777 : 0o666);
      try {
        for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
        if (current) {
          fchmodSync(fd, current.stat.mode & 0o7777);
          try {
            fchownSync(fd, current.stat.uid, current.stat.gid);
          } catch {
            // Only root may give a file away; as its owner, the file is already ours.
          }
        }
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      if (current) renameSync(at(dir, temp), at(dir, name));
      else linkNew(at(dir, temp), at(dir, name));
      temp = null;
    }
    if (dir.fd >= 0) fsyncSync(dir.fd);
    return { madeFolders, previous: current?.bytes ?? null };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw conflictOf(uri, expected, null);
    throw failed(uri, err);
  } finally {
    if (temp && dir) {
      try {
        unlinkSync(at(dir, temp));
      } catch {
        // gone already: nothing of it is left
      }
    }
    if (dir) closeDir(dir);
  }
}

/**
 * Puts a new file in place: a hard link, not a rename, so a file that
 * appeared since the check is a conflict (EEXIST), never replaced; where the
 * file system has no hard links, a rename after one more look.
 */
function linkNew(temp: string, name: string): void {
  try {
    linkSync(temp, name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    if (existsSync(name)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
    renameSync(temp, name);
    return;
  }
  unlinkSync(temp);
}

function conflictOf(uri: string, expected: Expected, current: CurrentFile | null): ShelfError {
  const what =
    'absent' in expected
      ? 'a file of that name was made since the change was proposed'
      : current === null
        ? 'the file was removed since the change was proposed'
        : 'the file changed since the change was proposed';
  return changeRefused(uri, 'conflict', `Conflict: ${what}, so nothing was written (the file as it is now was kept)`);
}
