import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';

import { readAsync } from '../library/fileStream.js';
import { type TextEncoding } from './textEncoding.js';

/**
 * Where a large text file's lines start, so line N is found without reading
 * and splitting the whole file: a checkpoint (line number, byte offset) at
 * the first line start after every CHECKPOINT_BYTES, built once per file
 * version. A file that only grew (a log) is indexed from where the last
 * version ended, not again from the start.
 */

/** Bytes between checkpoints: finding a line reads at most about this much past one. */
const CHECKPOINT_BYTES = 64 * 1024;
/** Bytes read at a time while indexing (each read yields to the event loop). */
const SCAN_CHUNK = 1024 * 1024;
/** Bytes of the end of a version kept to recognise a later version as the same file grown. */
const TAIL_BYTES = 64;

export interface FileVersion {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const versionOf = (st: Stats): FileVersion => ({ dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });

/** The same file version: inode, size and change times (as the read paths compare them). */
export const isVersion = (st: Stats, v: FileVersion) =>
  st.dev === v.dev && st.ino === v.ino && st.size === v.size && st.mtimeMs === v.mtimeMs && st.ctimeMs === v.ctimeMs;

/** Bytes at the end of `buf` that start a UTF-8 sequence the buffer does not finish. */
function cutSequence(buf: Buffer, end: number): number {
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const b = buf[i] as number;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > end ? end - i : 0;
  }
  return 0;
}

export class LineIndex {
  /** Checkpoints: line numbers (1-based) and the byte offsets where those lines start. */
  private lines: number[] = [];
  private bytes: number[] = [];
  /** Line ends seen, and where the last line started. */
  private newlines = 0;
  private lastLineStart: number;
  private nextCheckpointAt: number;
  private tail: Buffer = Buffer.alloc(0);
  /** Where the last page cut inside a long line stopped: the next page starts there without counting the line again. */
  resume: { line: number; column: number; byte: number } | undefined;

  private constructor(
    readonly encoding: TextEncoding,
    /** Where line 1 starts (after a byte-order mark). */
    readonly start: number,
    public version: FileVersion,
  ) {
    this.lastLineStart = start;
    this.nextCheckpointAt = start;
    this.lines.push(1);
    this.bytes.push(start);
  }

  /** Lines in the file: a last line without a line end counts; an empty file has none. */
  get totalLines(): number {
    return this.newlines + (this.lastLineStart < this.version.size ? 1 : 0);
  }

  get checkpoints(): number {
    return this.lines.length;
  }

  /** Indexes the whole file open at `fd` (its stats `st`). */
  static async build(fd: number, st: Stats, encoding: TextEncoding, start: number): Promise<LineIndex> {
    const index = new LineIndex(encoding, start, versionOf(st));
    await index.scan(fd, start, st.size);
    return index;
  }

  /**
   * Brings the index to the version `st` describes when that version is this
   * one with text appended (same UTF-8 file, larger, its old last bytes
   * unchanged, the new bytes valid UTF-8 without NUL), and says whether it
   * could. Anything else is indexed again from the start by the caller.
   */
  async extend(fd: number, st: Stats): Promise<boolean> {
    const was = this.version;
    if (isVersion(st, was)) return true;
    if (this.encoding.name !== 'utf-8' || st.dev !== was.dev || st.ino !== was.ino || st.size <= was.size) return false;
    const check = Buffer.alloc(this.tail.length);
    const { bytesRead } = await readAsync(fd, check, 0, check.length, was.size - check.length);
    if (bytesRead !== check.length || !check.equals(this.tail)) return false;
    // A character the old version ended in the middle of is checked whole, with what followed.
    const back = cutSequence(this.tail, this.tail.length);
    if (!(await this.scan(fd, was.size - back, st.size, true))) return false;
    this.version = versionOf(st);
    return true;
  }

  /**
   * Counts the line ends in [from, to). With `validate` (an extension),
   * returns false when the bytes are not valid UTF-8 text without NUL.
   */
  private async scan(fd: number, from: number, to: number, validate = false): Promise<boolean> {
    const enc = this.encoding;
    const unit = enc.unitBytes;
    const buf = Buffer.allocUnsafe(SCAN_CHUNK + 4);
    let carry = 0; // a UTF-16 unit (or, when validating, a UTF-8 sequence) cut by the chunk's end waits for the next read
    for (let pos = from; pos < to;) {
      const want = Math.min(SCAN_CHUNK, to - pos);
      const { bytesRead } = await readAsync(fd, buf, carry, want, pos);
      if (bytesRead === 0) throw new Error('the file shrank while it was indexed');
      const base = pos - carry;
      const end = carry + bytesRead;
      pos += bytesRead;
      if (validate) {
        const whole = pos >= to ? end : end - cutSequence(buf, end);
        if (buf.subarray(0, end).includes(0) || !isUtf8(buf.subarray(0, whole))) return false;
      }
      // Carried bytes are looked at again: they hold no line end (a cut unit or sequence).
      for (let at = 0; ;) {
        const next = enc.lineEnd(buf, at, end, base);
        if (next < 0) break;
        this.newlines++;
        this.lastLineStart = base + next;
        if (this.lastLineStart >= this.nextCheckpointAt) {
          this.lines.push(this.newlines + 1);
          this.bytes.push(this.lastLineStart);
          this.nextCheckpointAt = this.lastLineStart + CHECKPOINT_BYTES;
        }
        at = next;
      }
      carry = validate ? cutSequence(buf, end) : unit > 1 ? end % unit : 0;
      if (carry) buf.copy(buf, 0, end - carry, end);
    }
    const tailFrom = Math.max(this.start, to - TAIL_BYTES);
    this.tail = Buffer.alloc(to - tailFrom);
    if (this.tail.length > 0) await readAsync(fd, this.tail, 0, this.tail.length, tailFrom);
    return true;
  }

  /**
   * The byte offset where line `line` starts (1 ≤ line ≤ totalLines), found
   * from the checkpoint before it: at most about CHECKPOINT_BYTES are read.
   */
  async lineStart(fd: number, line: number): Promise<number> {
    let lo = 0;
    let hi = this.lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lines[mid] as number) <= line) lo = mid;
      else hi = mid - 1;
    }
    let at = this.bytes[lo] as number;
    let current = this.lines[lo] as number;
    if (current === line) return at;
    const enc = this.encoding;
    const buf = Buffer.allocUnsafe(CHECKPOINT_BYTES + enc.unitBytes);
    let carry = 0;
    while (current < line) {
      const { bytesRead } = await readAsync(fd, buf, carry, CHECKPOINT_BYTES, at + carry);
      if (bytesRead === 0) throw new Error('the file shrank while it was read');
      const end = carry + bytesRead;
      let from = 0;
      for (;;) {
        const next = enc.lineEnd(buf, from, end, at);
        if (next < 0) break;
        current++;
        from = next;
        if (current === line) return at + next;
      }
      const keep = enc.unitBytes > 1 ? (end - from) % enc.unitBytes : 0;
      at += end - keep;
      carry = keep;
      if (keep) buf.copy(buf, 0, end - keep, end);
    }
    return at;
  }
}

/** Entries and checkpoints kept for all files together. */
const MAX_FILES = 256;
const MAX_CHECKPOINTS = 2_000_000;

/**
 * Line indexes by file (device and inode), least recently used dropped
 * first, bounded in files and checkpoints; one build per file at a time.
 * An index also records that its file version is text, in its encoding:
 * a file that only grew by valid text keeps it without being looked at
 * again as a whole.
 */
export class LineIndexCache {
  private readonly entries = new Map<string, LineIndex>();
  private readonly building = new Map<string, Promise<LineIndex>>();
  private checkpoints = 0;
  /** Full builds done (not reuses or extensions), for tests and the bench. */
  builds = 0;

  constructor(private readonly limits = { files: MAX_FILES, checkpoints: MAX_CHECKPOINTS }) {}

  /** The kept index of the file open at `fd` when it is this version or this version grown by text (then extended), else null. */
  async current(fd: number, st: Stats): Promise<LineIndex | null> {
    const key = `${st.dev}:${st.ino}`;
    const pending = this.building.get(key);
    if (pending) await pending.catch(() => null);
    const kept = this.entries.get(key);
    if (!kept) return null;
    this.forget(key);
    if (!(await kept.extend(fd, st).catch(() => false))) return null;
    return this.keep(key, kept);
  }

  /** Indexes the file open at `fd` (stats `st`) as text in `encoding`, its first line at byte `start`. */
  async build(fd: number, st: Stats, encoding: TextEncoding, start: number): Promise<LineIndex> {
    const key = `${st.dev}:${st.ino}`;
    const pending = this.building.get(key);
    if (pending) {
      const index = await pending.catch(() => null);
      if (index && isVersion(st, index.version) && index.encoding === encoding) return index;
    }
    const promise = LineIndex.build(fd, st, encoding, start).then((index) => {
      this.builds++;
      this.forget(key);
      return this.keep(key, index);
    });
    this.building.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.building.get(key) === promise) this.building.delete(key);
    }
  }

  private keep(key: string, index: LineIndex): LineIndex {
    this.entries.set(key, index);
    this.checkpoints += index.checkpoints;
    for (const k of this.entries.keys()) {
      if (this.entries.size <= this.limits.files && this.checkpoints <= this.limits.checkpoints) break;
      if (k === key) continue;
      this.forget(k);
    }
    return index;
  }

  private forget(key: string): void {
    const index = this.entries.get(key);
    if (!index) return;
    this.entries.delete(key);
    this.checkpoints -= index.checkpoints;
  }
}
