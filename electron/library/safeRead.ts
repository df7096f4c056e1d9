import { constants, existsSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { contentKind, decodeText, mediaType, SNIFF_BYTES, typeFromName } from './mediaType.js';
import type { ResourceContents } from '../../shared/shelfApi.js';
import type { PublishedFolder } from './publishedFolder.js';
import { ShelfError } from './shelfError.js';
import { isInside, joinRel, relativeInside } from './uriPath.js';

/** What `resources/read` returns for one file: text or blob, never both (the shared contract's type). */
export type { ResourceContents };

export interface ReadOutcome {
  contents: ResourceContents;
  /** Bytes on disk. */
  size: number;
  kind: 'text' | 'blob';
}

// O_NONBLOCK keeps a FIFO swapped in for a file from hanging the open.
const OPEN_FLAGS_FOLLOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const OPEN_FLAGS = OPEN_FLAGS_FOLLOW | (constants.O_NOFOLLOW ?? 0);

function fsError(err: unknown, uri: string): ShelfError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return ShelfError.permissionDenied(uri);
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EISDIR' || code === 'ENXIO') {
    return ShelfError.notFound(uri);
  }
  return new ShelfError(-32603, `Could not read resource: ${(err as Error).message}`, { uri });
}

/** Reads at most `limit + 1` bytes, so a file that grew is caught without reading it all. */
async function readBounded(handle: FileHandle, expected: number, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  // The expected size plus one byte (to notice growth) first; then small steps.
  let want = Math.min(expected, limit) + 1;
  for (;;) {
    const buf = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buf, 0, buf.length, total);
    if (bytesRead === 0) break;
    chunks.push(buf.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) break;
    want = Math.min(limit + 1 - total, 64 * 1024);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/** A file is the same between two stats when its size and change time agree. */
const sameVersion = (a: BigIntStats, b: BigIntStats) => a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/**
 * Reads one consistent version of a file: if it changed while being read (an
 * append or truncate in progress), read it again, so a client never gets a
 * mix of two versions. A file that keeps changing is read as it stands after
 * a few tries.
 */
async function readStable(handle: FileHandle, uri: string, limit: number): Promise<Buffer> {
  for (let attempt = 0; ; attempt++) {
    const before = await handle.stat({ bigint: true });
    if (!before.isFile()) throw ShelfError.notFound(uri);
    if (before.size > BigInt(limit)) throw ShelfError.tooLarge(uri, Number(before.size), limit);
    const bytes = await readBounded(handle, Number(before.size), limit);
    if (bytes.length > limit) throw ShelfError.tooLarge(uri, Math.max(bytes.length, Number(before.size)), limit);
    const after = await handle.stat({ bigint: true });
    if ((sameVersion(before, after) && BigInt(bytes.length) === after.size) || attempt >= 4) return bytes;
  }
}

/**
 * Reads a published file for a client. The path is re-resolved at read time:
 * a symlink swapped in since indexing that leads outside the folder or to an
 * excluded file is refused, and on Linux the opened descriptor's own path is
 * checked again, so a rename race cannot slip a foreign file through.
 */
export async function safeRead(folder: PublishedFolder, rel: string, uri: string, limit: number): Promise<ReadOutcome> {
  const root = folder.realRoot;
  const abs = joinRel(root, rel);
  const handle = PROC_FD ? await openThenCheck(folder, abs, uri) : await resolveThenOpen(folder, abs, uri);
  try {
    const bytes = await readStable(handle, uri, limit);
    const kind = contentKind(bytes);
    const mimeType = typeFromName(rel) ?? (await mediaType(rel, bytes.subarray(0, SNIFF_BYTES), kind));
    const contents: ResourceContents =
      kind === 'text' ? { uri, mimeType, text: decodeText(bytes) } : { uri, mimeType, blob: bytes.toString('base64') };
    return { contents, size: bytes.length, kind };
  } catch (err) {
    throw err instanceof ShelfError ? err : fsError(err, uri);
  } finally {
    await handle.close();
  }
}

/** Linux with /proc: the opened descriptor names its own file, so no separate realpath walk is needed. */
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** The real path must be inside the folder and, if reached through a link, not an excluded file. */
function checkReal(folder: PublishedFolder, abs: string, real: string, uri: string): void {
  const root = folder.realRoot;
  if (!isInside(root, real) || real === root) throw ShelfError.notFound(uri);
  if (real !== abs && folder.rules.excludes(relativeInside(root, real), false)) throw ShelfError.notFound(uri);
}

/**
 * Linux: open (following links inside the folder), then ask the descriptor
 * where it really points. What was opened is what is checked, so no rename
 * race between a check and the open can slip a foreign file through.
 */
async function openThenCheck(folder: PublishedFolder, abs: string, uri: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(abs, OPEN_FLAGS_FOLLOW);
  } catch (err) {
    throw fsError(err, uri);
  }
  try {
    checkReal(folder, abs, await readlink(`/proc/self/fd/${handle.fd}`), uri);
    return handle;
  } catch (err) {
    await handle.close();
    throw err instanceof ShelfError ? err : fsError(err, uri);
  }
}

/** Elsewhere: resolve links first, check, then open the resolved path without following a link. */
async function resolveThenOpen(folder: PublishedFolder, abs: string, uri: string): Promise<FileHandle> {
  try {
    const real = await realpath(abs);
    checkReal(folder, abs, real, uri);
    return await open(real, OPEN_FLAGS);
  } catch (err) {
    throw err instanceof ShelfError ? err : fsError(err, uri);
  }
}
