import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import { closeSync, fstatSync, read as readCallback } from 'node:fs';
import { promisify } from 'node:util';

import iconv from 'iconv-lite';

import { ShelfError } from '../base/shelfError.js';
import { binaryByName, bomEncoding, type ContentKind, LEGACY_SAMPLE_BYTES, type LegacyEncoding, LegacyEvidence, SNIFF_BYTES } from './mediaType.js';

/** fs.read on a raw descriptor (the read paths hold descriptors, not FileHandles). */
export const readAsync = promisify(readCallback);

/**
 * A file is the same between two stats when its size and change times agree
 * (plain stats: their millisecond times carry microseconds, and bigint stats
 * cost a BigInt and a Date per field on every read).
 */
export const sameVersion = (a: Stats, b: Stats) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** Bytes read per step of a large file (and so the size of each streamed piece, before encoding). */
const CHUNK = 1024 * 1024;
/** Input bytes encoded at a time (a multiple of 3, so base64 pieces join without padding). */
const PIECE = 48 * 1024;
/** Characters of a streamed string the traffic log keeps (as truncateForLog does for whole messages). */
const PREVIEW_CHARS = 1024;

export interface KindScan {
  kind: ContentKind;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  /** The first SNIFF_BYTES, for the MIME sniffer. */
  head: Buffer;
  /** The stats the scan saw, unchanged from its start to its end. */
  stat: Stats;
  /** Not UTF-8 but text in a legacy 8-bit encoding: decoded from this as it is sent. */
  legacy: LegacyEncoding | null;
}

/** Length of the longest prefix of `buf` that does not end inside a UTF-8 sequence. */
function wholeSequences(buf: Buffer): number {
  for (let i = buf.length - 1; i >= 0 && i >= buf.length - 4; i--) {
    const b = buf[i] as number;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for its lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > buf.length ? i : buf.length;
  }
  return buf.length;
}

async function readFully(fd: number, buf: Buffer, offset: number, length: number, position: number): Promise<number> {
  let got = 0;
  while (got < length) {
    const { bytesRead } = await readAsync(fd, buf, offset + got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

/** The whole file looked at again as possible legacy 8-bit text (see legacyEncoding), chunk by chunk. */
async function legacyOf(fd: number, size: number, fileName: string, buf: Buffer): Promise<LegacyEncoding | null> {
  const evidence = new LegacyEvidence();
  let sample = Buffer.alloc(0);
  for (let pos = 0; pos < size;) {
    const got = await readFully(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
    if (got === 0) break;
    if (pos === 0) sample = Buffer.from(buf.subarray(0, Math.min(got, LEGACY_SAMPLE_BYTES)));
    evidence.add(buf.subarray(0, got));
    pos += got;
  }
  return evidence.verdict(fileName, sample);
}

/**
 * Decides text or blob for a large file the way contentKind and
 * legacyEncoding do for a small one (BOM, NUL, valid UTF-8, else legacy
 * 8-bit text), chunk by chunk in constant memory. Scanned again if the file
 * changed meanwhile (a few times at most).
 */
export async function scanKind(fd: number, uri: string, limit: number, first: Stats, fileName: string): Promise<KindScan> {
  let before = first;
  const buf = Buffer.allocUnsafe(CHUNK + 4);
  for (let attempt = 0; ; attempt++) {
    const size = before.size;
    let kind: ContentKind = 'text';
    let head = Buffer.alloc(0);
    let encoding: KindScan['encoding'] = 'utf-8';
    let carry = 0;
    let notUtf8 = false;
    for (let pos = 0; pos < size;) {
      const got = await readFully(fd, buf, carry, Math.min(CHUNK, size - pos), pos);
      if (got === 0) break;
      if (pos === 0) {
        head = Buffer.from(buf.subarray(0, Math.min(got, SNIFF_BYTES)));
        // A BOM decides on its own (contentKind's rule); UTF-16 is then decoded as such.
        const bom = bomEncoding(head);
        if (bom) {
          encoding = bom;
          break;
        }
      }
      pos += got;
      const filled = buf.subarray(0, carry + got);
      if (filled.includes(0)) {
        kind = 'blob';
        break;
      }
      const end = pos >= size ? filled.length : wholeSequences(filled);
      if (!isUtf8(filled.subarray(0, end))) {
        kind = 'blob';
        notUtf8 = true;
        break;
      }
      carry = filled.length - end;
      filled.copy(buf, 0, end);
    }
    const legacy = notUtf8 && !binaryByName(fileName) ? await legacyOf(fd, size, fileName, buf) : null;
    if (legacy) kind = 'text';
    const after = fstatSync(fd);
    if (after.size > limit) throw ShelfError.tooLarge(uri, after.size, limit);
    if (sameVersion(before, after) || attempt >= 4) return { kind, encoding, head, stat: after, legacy };
    before = after;
  }
}

/** The reply's string (text or base64) was cut short: the file shrank or was rewritten while it was sent. */
export class FileChangedWhileSending extends Error {
  constructor(uri: string) {
    super(`${uri} changed while its reply was being sent`);
  }
}

/**
 * One large file's content, produced as the bytes of the reply's `text` or
 * `blob` JSON string (escaped, without the quotes), a piece at a time. It
 * holds the open descriptor until `close()`.
 *
 * Pieces are at most PIECE bytes of input, so every string made on the way
 * stays small enough for V8's young generation: 1 MiB pieces made
 * megabyte strings that live in the large-object space until a full GC, and
 * the server's peak memory grew with the file.
 */
export class FileStream {
  readonly kind: ContentKind;
  readonly size: number;
  /** Set when the text is decoded from a legacy 8-bit encoding (the reply says so in `_meta`). */
  readonly decodedFrom: LegacyEncoding | null;
  private closed = false;
  private previewText = '';
  private total = 0;

  constructor(
    private readonly fd: number,
    readonly uri: string,
    readonly mimeType: string,
    private readonly scan: KindScan,
  ) {
    this.kind = scan.kind;
    this.size = scan.stat.size;
    this.decodedFrom = scan.legacy;
  }

  /** The start of the string and its full length (base64 chars, or the text's bytes in the file), for the traffic log. */
  preview(): string {
    return `${this.previewText}… [${this.total} ${this.kind === 'blob' ? 'chars' : 'bytes'}]`;
  }

  /**
   * The escaped pieces, in order. Exactly the scanned size is sent: a file
   * that only grew meanwhile (a log being appended to) is sent as it was; one
   * that shrank or was rewritten in place throws FileChangedWhileSending,
   * because what already went out cannot be taken back.
   */
  async *pieces(): AsyncGenerator<Buffer> {
    const utf16 = this.kind === 'text' && this.scan.encoding !== 'utf-8' ? new TextDecoder(this.scan.encoding) : null;
    const buf = Buffer.allocUnsafe(CHUNK);
    // A UTF-8 BOM is not part of the text (as with a small file, via TextDecoder).
    let pos = this.kind === 'text' && bomEncoding(this.scan.head) === 'utf-8' ? 3 : 0;
    let carry = 0; // base64 works on whole 3-byte groups: up to 2 bytes wait for the next chunk
    while (pos < this.size) {
      const want = Math.min(CHUNK - carry, this.size - pos);
      const got = await readFully(this.fd, buf, carry, want, pos);
      if (got < want) throw new FileChangedWhileSending(this.uri);
      this.checkUnchanged();
      pos += got;
      const filled = carry + got;
      const last = pos >= this.size;
      carry = 0;
      for (let at = 0; at < filled;) {
        let end = Math.min(filled, at + PIECE);
        if (this.kind === 'blob' && !(last && end === filled)) {
          end -= (end - at) % 3;
          if (end === at) {
            carry = filled - at; // fewer than 3 bytes left: they go with the next chunk
            buf.copy(buf, 0, at, filled);
            break;
          }
        }
        yield this.encode(buf.subarray(at, end), utf16);
        at = end;
      }
    }
    if (utf16) {
      const rest = utf16.decode();
      if (rest) yield this.encode(Buffer.alloc(0), utf16, rest);
    }
  }

  /**
   * One piece as reply bytes. UTF-8 text is escaped through a latin1 view:
   * every byte becomes one char, JSON.stringify escapes only quotes,
   * backslashes and control characters (all ASCII), and writing it back as
   * latin1 restores the original bytes around the escapes — no decoding to
   * UTF-16 and back.
   */
  private encode(bytes: Buffer, utf16: InstanceType<typeof TextDecoder> | null, tail?: string): Buffer {
    if (this.kind === 'blob') {
      const b64 = bytes.toString('base64');
      this.keep(b64, b64.length);
      return Buffer.from(b64, 'latin1');
    }
    if (utf16 || this.scan.legacy) {
      // UTF-16 carries a split character to the next piece; Windows-1252 is single-byte, so every piece decodes on its own.
      const text = tail ?? (utf16 ? utf16.decode(bytes, { stream: true }) : iconv.decode(bytes, this.scan.legacy as LegacyEncoding));
      this.keep(text, bytes.length);
      return Buffer.from(JSON.stringify(text).slice(1, -1), 'utf8');
    }
    if (this.previewText.length < PREVIEW_CHARS) {
      // Whole characters only: a sequence cut at the piece's end is left out of the preview.
      this.previewText += new TextDecoder().decode(bytes.subarray(0, wholeSequences(bytes.subarray(0, PREVIEW_CHARS * 4))));
      this.previewText = this.previewText.slice(0, PREVIEW_CHARS);
    }
    this.total += bytes.length;
    return Buffer.from(JSON.stringify(bytes.toString('latin1')).slice(1, -1), 'latin1');
  }

  private keep(piece: string, count: number): void {
    if (this.previewText.length < PREVIEW_CHARS) this.previewText += piece.slice(0, PREVIEW_CHARS - this.previewText.length);
    this.total += count;
  }

  private checkUnchanged(): void {
    const now = fstatSync(this.fd);
    const was = this.scan.stat;
    if (now.size > was.size) return; // appended to: the first `size` bytes are still that version
    if (!sameVersion(now, was)) {
      throw new FileChangedWhileSending(this.uri);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
