import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

import iconv from 'iconv-lite';
import { RE2JS, RE2JSException } from 're2js';

import { contentKind, decodeText, legacyEncoding } from '../library/mediaType.js';

/**
 * The grep worker: batches of files searched line by line with a regular
 * expression run by re2js — an automaton, so no pattern backtracks: time is
 * linear in the text, whatever the pattern. It opens, reads and matches, so
 * a search over 50,000 files costs the main thread only the walk over their
 * names. Every file is opened without blocking and only if it is a regular
 * file, and its real path is reported: the main thread checks it against
 * the folder's rules before any of its lines reach a client.
 */

export type GrepEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface GrepItem {
  /** The main thread's key for the file. */
  key: number;
  /** Read this file (a published path), bytes [from, to) of it… */
  path?: string;
  from?: number;
  to?: number;
  /** …or search this text (a document's). */
  text?: string;
  /** The file name (for recognising legacy text). */
  name: string;
  /** Line number of the piece's first line. */
  firstLine: number;
  /** Context from the piece before (its last lines). */
  before: string[];
  /** Decode as this (a later piece of a file whose first piece decided). */
  encoding?: GrepEncoding;
  /** Matches on lines before this one were given already (a search that goes on). */
  skipBefore?: number;
}

export interface GrepRequest {
  id: number;
  pattern: string;
  ignoreCase: boolean;
  context: number;
  /** Matches to find at most in this batch (the call's remaining room). */
  maxMatches: number;
  items: GrepItem[];
}

export interface GrepLine {
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface GrepItemResult {
  key: number;
  matches: GrepLine[];
  /** Bytes read (a document's text: its characters). */
  scanned: number;
  /** Where the file really is (the main thread checks it before using the matches). */
  real?: string;
  /** Not searched: not text, gone, or not a regular file. */
  skipped?: 'binary' | 'gone';
  /** The file goes on: its next piece starts at byte `from`, line `line`. */
  rest?: { from: number; line: number; encoding: GrepEncoding; before: string[] };
  /** The batch's room for matches ran out at line `skipBefore`: this piece is searched again from there. */
  again?: { skipBefore: number; encoding: GrepEncoding };
}

export type GrepReply = { id: number; ok: true; results: GrepItemResult[] } | { id: number; ok: false; message: string };

/** A match line is shown at most this long (cut around the match); context lines shorter still. */
export const MAX_LINE_CHARS = 400;
const MAX_CONTEXT_CHARS = 200;
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

let compiled: { key: string; whole: RE2JS | null; line: RE2JS } | null = null;

function compile(pattern: string, ignoreCase: boolean): { whole: RE2JS | null; line: RE2JS } {
  const key = `${ignoreCase ? 'i' : '-'}${pattern}`;
  if (compiled?.key !== key) {
    const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
    // The whole text is asked first (most files do not match); only a matching file is split into lines. That finds
    // every line that matches on its own, but for end anchors: "x$" on a CRLF line, \A and \z mean the text's ends.
    const prefilter = !/\$|\\[Az]/.test(pattern);
    compiled = { key, whole: prefilter ? RE2JS.compile(pattern, flags | RE2JS.MULTILINE) : null, line: RE2JS.compile(pattern, flags) };
  }
  return compiled;
}

/** `text` cut to `max` characters around `at`, with … where cut. */
function around(text: string, at: number, max: number): string {
  if (text.length <= max) return text;
  const from = Math.max(0, Math.min(at - Math.floor(max / 3), text.length - max));
  return `${from > 0 ? '…' : ''}${text.slice(from, from + max)}${from + max < text.length ? '…' : ''}`;
}

const stripCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

function encodingOf(bytes: Buffer, name: string): GrepEncoding | null {
  if (contentKind(bytes, true) === 'text') return bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  return legacyEncoding(name, bytes) ? 'windows-1252' : null;
}

interface Piece {
  text: string;
  scanned: number;
  real?: string;
  encoding?: GrepEncoding;
  skipped?: GrepItemResult['skipped'];
  /** Byte where the rest of the file starts, when this piece is not its end. */
  restFrom?: number;
}

function readPiece(item: GrepItem): Piece {
  let fd: number;
  try {
    fd = openSync(item.path as string, OPEN_FLAGS);
  } catch {
    return { text: '', scanned: 0, skipped: 'gone' };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { text: '', scanned: 0, skipped: 'gone' };
    const real = PROC_FD ? readlinkSync(`/proc/self/fd/${fd}`) : realpathSync(item.path as string);
    const from = item.from ?? 0;
    const to = Math.min(item.to ?? st.size, st.size);
    const buf = Buffer.allocUnsafe(Math.max(0, to - from));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    let bytes = buf.subarray(0, got);
    const encoding = item.encoding ?? encodingOf(bytes, item.name);
    if (!encoding) return { text: '', scanned: got, real, skipped: 'binary' };
    let restFrom: number | undefined;
    // A piece short of the file's end stops after its last line end (UTF-16 files come in one piece).
    if (from + got < st.size && encoding !== 'utf-16le' && encoding !== 'utf-16be') {
      const cut = bytes.lastIndexOf(0x0a);
      if (cut >= 0) bytes = bytes.subarray(0, cut + 1);
      restFrom = from + bytes.length;
    }
    const text = encoding === 'windows-1252' ? iconv.decode(bytes, 'windows-1252') : from === 0 ? decodeText(bytes) : bytes.toString('utf8');
    return { text, scanned: bytes.length, real, encoding, ...(restFrom !== undefined ? { restFrom } : {}) };
  } finally {
    closeSync(fd);
  }
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const contextOf = (lines: string[]) => lines.map((l) => around(stripCr(l), 0, MAX_CONTEXT_CHARS));

function search(req: GrepRequest): GrepItemResult[] {
  const { whole, line: lineRe } = compile(req.pattern, req.ignoreCase);
  const ctx = req.context;
  const results: GrepItemResult[] = [];
  let room = req.maxMatches;
  for (const item of req.items) {
    const piece: Piece = item.text !== undefined ? { text: item.text, scanned: item.text.length, encoding: 'utf-8' } : readPiece(item);
    const result: GrepItemResult = { key: item.key, matches: [], scanned: piece.scanned, ...(piece.real ? { real: piece.real } : {}) };
    results.push(result);
    if (piece.skipped) {
      result.skipped = piece.skipped;
      continue;
    }
    const encoding = piece.encoding as GrepEncoding;
    const text = piece.text;
    let lines: string[] | null = null;
    if (room > 0 && (whole === null || whole.matcher(text).find())) {
      lines = splitLines(text);
      for (let i = 0; i < lines.length; i++) {
        const lineNo = item.firstLine + i;
        if (item.skipBefore !== undefined && lineNo < item.skipBefore) continue;
        const raw = stripCr(lines[i] as string);
        const m = lineRe.matcher(raw);
        if (!m.find()) continue;
        if (room === 0) {
          result.again = { skipBefore: lineNo, encoding };
          break;
        }
        room--;
        const found: GrepLine = { line: lineNo, text: around(raw, m.start(), MAX_LINE_CHARS) };
        if (ctx > 0) {
          const before = [...item.before.slice(Math.max(0, item.before.length - Math.max(0, ctx - i))), ...contextOf(lines.slice(Math.max(0, i - ctx), i))];
          const after = contextOf(lines.slice(i + 1, i + 1 + ctx));
          if (before.length) found.before = before;
          if (after.length) found.after = after;
        }
        result.matches.push(found);
      }
    } else if (room === 0) {
      result.again = { skipBefore: item.skipBefore ?? item.firstLine, encoding };
    }
    if (!result.again && piece.restFrom !== undefined) {
      lines ??= splitLines(text);
      // A piece without a line end (one very long line) goes on in the same line.
      const line = item.firstLine + lines.length - (text.endsWith('\n') ? 0 : 1);
      result.rest = { from: piece.restFrom, line, encoding, before: ctx > 0 ? contextOf(lines.slice(-ctx)) : [] };
    }
  }
  return results;
}

parentPort?.on('message', (req: GrepRequest) => {
  let reply: GrepReply;
  try {
    reply = { id: req.id, ok: true, results: search(req) };
  } catch (err) {
    const message = err instanceof RE2JSException ? `invalid pattern: ${err.message}` : err instanceof Error ? err.message : String(err);
    reply = { id: req.id, ok: false, message };
  }
  parentPort?.postMessage(reply);
});
