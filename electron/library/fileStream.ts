import { closeSync, fstatSync, read as readCallback } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { promisify } from 'node:util';
import { bomEncoding, SNIFF_BYTES, type ContentKind } from './mediaType.js';
import { ShelfError } from './shelfError.js';

const readAsync = promisify(readCallback);

/** Bytes read per step of a large file (and so the size of each streamed piece, before encoding). */
const CHUNK = 1024 * 1024;
/** Characters of a streamed string the traffic log keeps (as truncateForLog does for whole messages). */
const PREVIEW_CHARS = 1024;

export interface KindScan {
  kind: ContentKind;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  /** The first SNIFF_BYTES, for the MIME sniffer. */
  head: Buffer;
  /** The stats the scan saw, unchanged from its start to its end. */
  stat: BigIntStats;
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

/**
 * Decides text or blob for a large file the way contentKind does for a small
 * one (BOM, NUL, valid UTF-8), chunk by chunk in constant memory. Scanned
 * again if the file changed meanwhile (a few times at most).
 */
export async function scanKind(fd: number, uri: string, limit: number, first: BigIntStats): Promise<KindScan> {
  let before = first;
  const buf = Buffer.allocUnsafe(CHUNK + 4);
  for (let attempt = 0; ; attempt++) {
    const size = Number(before.size);
    let kind: ContentKind = 'text';
    let head = Buffer.alloc(0);
    let encoding: KindScan['encoding'] = 'utf-8';
    let carry = 0;
    for (let pos = 0; pos < size; ) {
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
        break;
      }
      carry = filled.length - end;
      filled.copy(buf, 0, end);
    }
    const after = fstatSync(fd, { bigint: true });
    if (after.size > BigInt(limit)) throw ShelfError.tooLarge(uri, Number(after.size), limit);
    const same = after.size === before.size && after.mtimeNs === before.mtimeNs && after.ctimeNs === before.ctimeNs;
    if (same || attempt >= 4) return { kind, encoding, head, stat: after };
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
 * One large file's content, produced as JSON-escaped pieces of the reply's
 * `text` or `blob` string, one chunk at a time. It holds the open descriptor
 * until `close()`.
 */
export class FileStream {
  readonly kind: ContentKind;
  readonly size: number;
  private closed = false;
  private previewText = '';
  private chars = 0;

  constructor(
    private readonly fd: number,
    readonly uri: string,
    readonly mimeType: string,
    private readonly scan: KindScan,
  ) {
    this.kind = scan.kind;
    this.size = Number(scan.stat.size);
  }

  /** The start of the string and its full length, for the traffic log. */
  preview(): string {
    return this.chars <= PREVIEW_CHARS ? this.previewText : `${this.previewText}… [${this.chars} chars]`;
  }

  private keep(piece: string): string {
    if (this.previewText.length < PREVIEW_CHARS) this.previewText += piece.slice(0, PREVIEW_CHARS - this.previewText.length);
    this.chars += piece.length;
    // JSON-escaped without the surrounding quotes.
    return JSON.stringify(piece).slice(1, -1);
  }

  /**
   * The escaped pieces, in order. Exactly the scanned size is sent: a file
   * that only grew meanwhile (a log being appended to) is sent as it was; one
   * that shrank or was rewritten in place throws FileChangedWhileSending,
   * because what already went out cannot be taken back.
   */
  async *pieces(): AsyncGenerator<string> {
    const decoder = this.kind === 'text' ? new TextDecoder(this.scan.encoding) : null;
    const buf = Buffer.allocUnsafe(CHUNK + 2);
    let carry = 0; // base64 works on whole 3-byte groups; up to 2 bytes wait for the next chunk
    for (let pos = 0; pos < this.size; ) {
      const want = Math.min(CHUNK, this.size - pos);
      const got = await readFully(this.fd, buf, carry, want, pos);
      if (got < want) throw new FileChangedWhileSending(this.uri);
      this.checkUnchanged();
      pos += got;
      if (decoder) {
        yield this.keep(decoder.decode(buf.subarray(0, got), { stream: true }));
        continue;
      }
      const filled = carry + got;
      const aligned = pos >= this.size ? filled : filled - (filled % 3);
      yield this.keep(buf.toString('base64', 0, aligned));
      carry = filled - aligned;
      buf.copy(buf, 0, aligned, filled);
    }
    if (decoder) {
      const rest = decoder.decode();
      if (rest) yield this.keep(rest);
    }
  }

  private checkUnchanged(): void {
    const now = fstatSync(this.fd, { bigint: true });
    const was = this.scan.stat;
    if (now.size > was.size) return; // appended to: the first `size` bytes are still that version
    if (now.size < was.size || now.mtimeNs !== was.mtimeNs || now.ctimeNs !== was.ctimeNs) {
      throw new FileChangedWhileSending(this.uri);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
