import type { Stats } from 'node:fs';
import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';

import iconv from 'iconv-lite';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { ResourceContents } from '../../../shared/shelfApi.js';
import { FileStream, readAsync, sameVersion, scanKind } from './fileStream.js';
import { realTargetAllowed } from './folderScan.js';
import { binaryByName, contentKind, decodeText, legacyEncoding, mediaType, SNIFF_BYTES, typeFromName } from './mediaType.js';

/** On a text read decoded from a legacy 8-bit encoding: which one (the text itself is Unicode, as always). */
export const DECODED_FROM_META_KEY = 'dev.mcpshelf/decodedFrom';
import { ShelfError } from '../base/shelfError.js';
import { type ReplyCharge, replyCost } from '../clientMemory/memoryBudget.js';
import type { PublishedFolder } from './publishedFolder.js';
import type { ReadCache } from './readCache.js';
import { joinRel } from './uriPath.js';

/** What `resources/read` returns for one file: text or blob, never both (the shared contract's type). */
export type { ResourceContents };

/** A file read whole; `contentsJson` is the JSON of its contents when already made (a cached reply). */
export interface WholeRead {
  whole: ReadOutcome;
  contentsJson?: string;
  /** The root of the published folder it was read from (so the history need not resolve the URI again). */
  folder?: string;
}

export interface ReadOutcome {
  contents: ResourceContents;
  /** Bytes on disk. */
  size: number;
  kind: 'text' | 'blob';
}

// O_NONBLOCK keeps a FIFO swapped in for a file from hanging the open.
const OPEN_FLAGS_FOLLOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const OPEN_FLAGS = OPEN_FLAGS_FOLLOW | (constants.O_NOFOLLOW ?? 0);

/**
 * Files up to this size are read with synchronous calls: from the page cache
 * that takes microseconds, while each trip through libuv's thread pool costs
 * tens of them (a small read made six such trips). Larger files are read
 * asynchronously so one big read never holds up other clients.
 */
const SYNC_READ_MAX = 1024 * 1024;
/**
 * Socket replies for files above this are streamed in chunks rather than
 * built whole. A whole reply leaves about five copies of the file behind as
 * garbage, which V8 collects late for strings this large: 64 clients reading
 * 1 MB files and never taking them drove the server past 1 GiB of garbage
 * within the memory budget; streamed, RSS stayed at 165 MiB.
 */
export const STREAM_FROM = 256 * 1024;
/** What a streamed reply holds at once: a chunk of the file and its escaped piece (fileStream.ts). */
const STREAM_RESERVE = 3 * 1024 * 1024;

function fsError(err: unknown, uri: string): ShelfError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return ShelfError.permissionDenied(uri);
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EISDIR' || code === 'ENXIO') {
    return ShelfError.notFound(uri);
  }
  return new ShelfError(ErrorCodes.internalError, `Could not read resource: ${(err as Error).message}`, { uri });
}

/**
 * Reads at most `limit + 1` bytes, so a file that grew is caught without
 * reading it all. `background` work (search reading file after file) never
 * reads synchronously: a client's one small read may, a loop over many may not.
 */
async function readBounded(fd: number, expected: number, limit: number, background = false): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  // The expected size plus one byte (to notice growth) first; then small steps.
  let want = Math.min(expected, limit) + 1;
  const sync = !background && expected <= SYNC_READ_MAX;
  for (;;) {
    const buf = Buffer.allocUnsafe(want);
    const bytesRead = sync ? readSync(fd, buf, 0, want, total) : (await readAsync(fd, buf, 0, want, total)).bytesRead;
    if (bytesRead === 0) break;
    chunks.push(buf.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) break;
    want = Math.min(limit + 1 - total, 64 * 1024);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/** The open file's stats, refusing anything but a regular file within the limit. */
export function statForRead(fd: number, uri: string, limit: number): Stats {
  const st = fstatSync(fd);
  if (!st.isFile()) throw ShelfError.notFound(uri);
  if (st.size > limit) throw ShelfError.tooLarge(uri, st.size, limit);
  return st;
}

/**
 * Reads one consistent version of a file: if it changed while being read (an
 * append or truncate in progress), read it again, so a client never gets a
 * mix of two versions. A file that keeps changing is read as it stands after
 * a few tries.
 */
async function readStable(fd: number, uri: string, limit: number, first: Stats, background = false): Promise<{ bytes: Buffer; stat: Stats }> {
  let before = first;
  for (let attempt = 0; ; attempt++) {
    const bytes = await readBounded(fd, before.size, limit, background);
    if (bytes.length > limit) throw ShelfError.tooLarge(uri, Math.max(bytes.length, before.size), limit);
    const after = statForRead(fd, uri, limit);
    const stable = sameVersion(before, after) && bytes.length === after.size;
    if (stable || attempt >= 4) return { bytes, stat: after };
    before = after;
  }
}

/** The whole file as a reply, from the cache when the opened file is the one cached. */
async function wholeOutcome(fd: number, rel: string, uri: string, limit: number, st: Stats, cache?: ReadCache, background = false): Promise<WholeRead> {
  const hit = cache?.get(uri, st);
  if (hit) return { whole: hit.outcome, contentsJson: hit.json };
  const { bytes, stat } = await readStable(fd, uri, limit, st, background);
  const sniffed = binaryByName(rel) ? 'blob' : contentKind(bytes);
  // Old Western text (Windows-1252 / Latin-1) is text too, decoded, and says what it was decoded from.
  const legacy = sniffed === 'blob' ? legacyEncoding(rel, bytes) : null;
  const kind = legacy ? 'text' : sniffed;
  const mimeType = typeFromName(rel) ?? (await mediaType(rel, bytes.subarray(0, SNIFF_BYTES), kind));
  const contents: ResourceContents = legacy
    ? // iconv-lite, not TextDecoder: Node 20's TextDecoder reads 0x80–0x9F as C1 controls (Latin-1), not Windows-1252's “ ” – € …
      { uri, mimeType, text: iconv.decode(bytes, legacy), _meta: { [DECODED_FROM_META_KEY]: legacy } }
    : kind === 'text'
      ? { uri, mimeType, text: decodeText(bytes) }
      : { uri, mimeType, blob: bytes.toString('base64') };
  const outcome = { contents, size: bytes.length, kind };
  return { whole: outcome, contentsJson: cache?.put(uri, stat, outcome) ?? undefined };
}

/**
 * Reads a published file for a client. The path is re-resolved at read time:
 * a symlink swapped in since indexing that leads outside the folder or to an
 * excluded file is refused, and on Linux the opened descriptor's own path is
 * checked again, so a rename race cannot slip a foreign file through.
 */
export async function safeRead(
  folder: PublishedFolder,
  rel: string,
  uri: string,
  limit: number,
  cache?: ReadCache,
  background = false,
  charge?: ReplyCharge,
): Promise<ReadOutcome> {
  const fd = openChecked(folder, rel, uri);
  try {
    const st = statForRead(fd, uri, limit);
    // A client's reply is reserved in the memory budget once its size is known, before any of it is read.
    charge?.(replyCost(st.size), 'this read');
    return (await wholeOutcome(fd, rel, uri, limit, st, cache, background)).whole;
  } catch (err) {
    throw err instanceof ShelfError ? err : fsError(err, uri);
  } finally {
    closeSync(fd);
  }
}

/**
 * Like safeRead, but a file over STREAM_FROM comes back as a FileStream that
 * yields the reply's text or base64 piece by piece (and owns the descriptor
 * until closed), so a 64 MiB file never becomes one 85 MiB string.
 */
export async function openRead(
  folder: PublishedFolder,
  rel: string,
  uri: string,
  limit: number,
  cache?: ReadCache,
  charge?: ReplyCharge,
): Promise<WholeRead | { stream: FileStream }> {
  const fd = openChecked(folder, rel, uri);
  let handedOver = false;
  try {
    const st = statForRead(fd, uri, limit);
    charge?.(st.size <= STREAM_FROM ? replyCost(st.size) : STREAM_RESERVE, 'this read');
    // A cached reply is handed back at once (no trip through wholeOutcome's promise).
    const hit = st.size <= STREAM_FROM ? cache?.get(uri, st) : undefined;
    if (hit) return { whole: hit.outcome, contentsJson: hit.json };
    if (st.size <= STREAM_FROM) return await wholeOutcome(fd, rel, uri, limit, st, cache);
    const scanned = await scanKind(fd, uri, limit, st, rel);
    const scan = binaryByName(rel) ? { ...scanned, kind: 'blob' as const } : scanned; // (scanKind never decodes such a file)
    const mimeType = typeFromName(rel) ?? (await mediaType(rel, scan.head, scan.kind));
    handedOver = true;
    return { stream: new FileStream(fd, uri, mimeType, scan) };
  } catch (err) {
    throw err instanceof ShelfError ? err : fsError(err, uri);
  } finally {
    if (!handedOver) closeSync(fd);
  }
}

/**
 * A published file opened as safely as a client read, for reading a part at
 * a time (the tools page large files): a regular file, no size limit; the
 * caller closes `fd`.
 */
export function openPublished(folder: PublishedFolder, rel: string, uri: string): { fd: number; stat: Stats } {
  const fd = openChecked(folder, rel, uri);
  try {
    return { fd, stat: statForRead(fd, uri, Number.POSITIVE_INFINITY) };
  } catch (err) {
    closeSync(fd);
    throw err instanceof ShelfError ? err : fsError(err, uri);
  }
}

/** A published file's bytes (within `limit`), opened as safely as a client read (for document extraction). */
export async function readBytes(folder: PublishedFolder, rel: string, uri: string, limit: number): Promise<Uint8Array> {
  const fd = openChecked(folder, rel, uri);
  try {
    return (await readStable(fd, uri, limit, statForRead(fd, uri, limit))).bytes;
  } catch (err) {
    throw err instanceof ShelfError ? err : fsError(err, uri);
  } finally {
    closeSync(fd);
  }
}

/** Linux with /proc: the opened descriptor names its own file, so no separate realpath walk is needed. */
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

function checkReal(folder: PublishedFolder, abs: string, real: string, uri: string): void {
  if (!realTargetAllowed(folder.realRoot, folder.rules, abs, real)) throw ShelfError.notFound(uri);
}

/**
 * Opens a published file after checking where it really is. Metadata calls
 * are synchronous on purpose (see SYNC_READ_MAX).
 *
 * Linux: open (following links inside the folder), then ask the descriptor
 * where it really points. What was opened is what is checked, so no rename
 * race between a check and the open can slip a foreign file through.
 * Elsewhere: resolve links first, check, then open the resolved path without
 * following a link.
 */
function openChecked(folder: PublishedFolder, rel: string, uri: string): number {
  const abs = joinRel(folder.realRoot, rel);
  if (!PROC_FD) {
    try {
      const real = realpathSync(abs);
      checkReal(folder, abs, real, uri);
      return openSync(real, OPEN_FLAGS);
    } catch (err) {
      throw err instanceof ShelfError ? err : fsError(err, uri);
    }
  }
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS_FOLLOW);
  } catch (err) {
    throw fsError(err, uri);
  }
  try {
    checkReal(folder, abs, readlinkSync(`/proc/self/fd/${fd}`), uri);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err instanceof ShelfError ? err : fsError(err, uri);
  }
}
