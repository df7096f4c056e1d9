import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';

import type { AccessEntry } from '../../../shared/shelfApi.js';

/** One JSON Lines file of the history, named by the sequence number of its first entry. */
export interface Segment {
  file: string;
  firstSeq: number;
  lastSeq: number;
  firstTime: number;
  lastTime: number;
  bytes: number;
  entries: number;
  /** Bytes of its noise entries (not-found reads). */
  noise: number;
  /** Whether its entries are in the per-file counts and `entries` (a segment of an earlier run is counted after open). */
  counted: boolean;
}

export const SEGMENT_NAME = /^history-(\d{1,16})\.jsonl$/;
export const segmentName = (firstSeq: number) => `history-${String(firstSeq).padStart(12, '0')}.jsonl`;

/** Bytes an entry takes on disk (its line). */
export const lineBytes = (e: AccessEntry): number => Buffer.byteLength(JSON.stringify(e)) + 1;

function isEntry(v: unknown): v is AccessEntry {
  const e = v as AccessEntry | null;
  return (
    !!e && typeof e === 'object' && Number.isSafeInteger(e.seq) && typeof e.time === 'number' && typeof e.uri === 'string' && typeof e.outcome === 'string'
  );
}

/** An entry from one line, or null for a torn or foreign line. */
export function parseLine(line: string): AccessEntry | null {
  if (line === '') return null;
  try {
    const value: unknown = JSON.parse(line);
    return isEntry(value) ? value : null;
  } catch {
    return null;
  }
}

/** A segment opened for reading: non-blocking and not through a link, and only if it is a regular file (the folder is ours, but a FIFO put there must not hang the server). */
async function openSegment(file: string): Promise<FileHandle> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new Error(`${file} is not a regular file`);
  }
  return handle;
}

/** Every parseable entry of a segment file, in order; torn or foreign lines are skipped, and a segment that cannot be opened (gone, a link, not a file) reads as empty. */
export async function* readSegment(file: string): AsyncGenerator<AccessEntry> {
  const handle = await openSegment(file).catch(() => null);
  if (!handle) return;
  const input = handle.createReadStream({ encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      const e = parseLine(line);
      if (e) yield e;
    }
  } finally {
    lines.close();
    // Also when the reader stopped early: the stream closes the file.
    input.destroy();
  }
}

/** How much of a segment's end is read at open for its last sequence number (entries are far shorter). */
const TAIL_BYTES = 64 * 1024;

/** The highest sequence number in a segment: from its last lines, or (when they are all torn) from the whole file. */
export async function lastSeqOf(file: string, size: number): Promise<number> {
  const handle = await openSegment(file);
  try {
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, size - length);
    const lines = buf.toString('utf8').split('\n');
    // The first line may be cut by where the tail starts; a whole-file read below covers that.
    for (let i = lines.length - 1; i >= (length < size ? 1 : 0); i--) {
      const e = parseLine(lines[i] as string);
      if (e) return e.seq;
    }
  } finally {
    await handle.close();
  }
  let last = 0;
  if (size > TAIL_BYTES) for await (const e of readSegment(file)) last = Math.max(last, e.seq);
  return last;
}
