import { closeSync, constants, existsSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

import iconv from 'iconv-lite';
import { RE2JS, RE2JSException } from 're2js';

import { runAsBackgroundThread } from '../background/backgroundThread.js';
import { contentKind, decodeText, legacyEncoding } from '../library/mediaType.js';
import { type RequiredLiteral, requiredLiteral } from './grepLiteral.js';
import { bytesHaystack, type Haystack, scanLines, textHaystack } from './grepScan.js';

// Background work: below the thread answering clients (backgroundThread.ts).
runAsBackgroundThread();

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
  /** Read this file (a published path), a piece of PIECE_BYTES from byte `from`… */
  path?: string;
  from?: number;
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

/** A file is read in pieces of this much (a large file goes on piece after piece). */
export const PIECE_BYTES = 4 * 1024 * 1024;
/** Pieces up to this many bytes are tested whole by the pattern before its literal is looked for (see searchPiece). */
const SMALL_PIECE = 64 * 1024;
/** A match line is shown at most this long (cut around the match); context lines shorter still. */
export const MAX_LINE_CHARS = 400;
const MAX_CONTEXT_CHARS = 200;
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** How a batch's pattern is matched: a whole-text test first (most files do not match), then line by line. */
interface Compiled {
  key: string;
  ignoreCase: boolean;
  /** Per line: the pattern as given. */
  line: RE2JS;
  /** A whole-text test on UTF-8 bytes, without decoding them (case-sensitive patterns). */
  bytes: RE2JS | null;
  /** A whole-text test on the lowercased text (a case-insensitive pattern simple enough to lowercase). */
  lowered: RE2JS | null;
  /** A whole-text test on the text (other case-insensitive patterns: slower). */
  text: RE2JS | null;
  /** What every matching line holds (lowercase for a case-insensitive pattern: then ASCII only), looked for before the pattern runs. */
  literal: (RequiredLiteral & { bytes: Buffer }) | null;
}

let compiled: Compiled | null = null;

/**
 * Whether lowercasing a case-insensitive pattern and the text keeps every
 * match: ASCII only, no flags groups, escapes only of punctuation or of
 * \d \s \w \b \n \t \r \f (\S, \x41 or \p{Lu} would change meaning), and
 * classes whose ranges stay within lowercase letters, uppercase letters or
 * other characters ([A-z] holds [\]^_` too; [[:upper:]] would match nothing).
 */
export function lowercasable(pattern: string): boolean {
  if (/[^\x20-\x7e]|\(\?|\[:/.test(pattern)) return false;
  for (let i = pattern.indexOf('\\'); i >= 0; i = pattern.indexOf('\\', i + 2)) {
    const next = pattern[i + 1] ?? '';
    if (/[a-zA-Z0-9]/.test(next) && !/[dswbntrf]/.test(next)) return false;
  }
  const group = (c: string) => (/[a-z]/.test(c) ? 1 : /[A-Z]/.test(c) ? 2 : 0);
  for (const m of pattern.matchAll(/([^\\])-([^\]\\])/g)) if (group(m[1] as string) !== group(m[2] as string)) return false;
  return true;
}

export function compile(pattern: string, ignoreCase: boolean): Compiled {
  const key = `${ignoreCase ? 'i' : '-'}${pattern}`;
  if (compiled?.key === key) return compiled;
  const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  const line = RE2JS.compile(pattern, flags);
  // The whole-text test finds every line that matches on its own, but for end anchors: "x$" on a CRLF line, and \A, \z meaning the text's ends.
  const wholeOk = !/\$|\\[Az]/.test(pattern);
  compiled = {
    key,
    ignoreCase,
    line,
    bytes: wholeOk && !ignoreCase ? RE2JS.compile(pattern, RE2JS.MULTILINE) : null,
    lowered: wholeOk && ignoreCase && lowercasable(pattern) ? RE2JS.compile(pattern.toLowerCase(), RE2JS.MULTILINE) : null,
    text: wholeOk && ignoreCase && !lowercasable(pattern) ? RE2JS.compile(pattern, flags | RE2JS.MULTILINE) : null,
    literal: literalOf(pattern, ignoreCase),
  };
  return compiled;
}

/**
 * The pattern's required literal, if it has one grep can look for: a
 * case-insensitive one only when ASCII (a lowercased text then holds it
 * lowercased; ſ and the Kelvin sign are dealt with where the text is lowered).
 */
function literalOf(pattern: string, ignoreCase: boolean): Compiled['literal'] {
  const found = requiredLiteral(pattern);
  if (!found) return null;
  if (!ignoreCase) return { ...found, bytes: Buffer.from(found.literal, 'utf8') };
  if (/[^\x20-\x7e]/.test(found.literal)) return null;
  const literal = found.literal.toLowerCase();
  return { literal, exact: false, bytes: Buffer.from(literal, 'utf8') };
}

/**
 * Whether the text (or its bytes) may hold a matching line; false only when
 * no line can match. test() rather than a Matcher's find(): asked for no
 * position, re2js runs its DFA (find() took the NFA, 5.7× slower on 5,000 files).
 */
export function mayMatch(c: Compiled, bytes: Buffer | null, text: () => string): boolean {
  if (c.bytes) return bytes ? c.bytes.test(bytes) : c.bytes.test(text());
  if (c.lowered) return c.lowered.test(lowered(text()));
  if (c.text) return c.text.test(text());
  return true;
}

/** U+017F (long s) folds to "s" but does not lowercase to it; the Kelvin sign lowercases to "k". */
const lowered = (text: string) => text.toLowerCase().replaceAll('ſ', 's');

/** `text` cut to `max` characters around `at`, with … where cut. */
function around(text: string, at: number, max: number): string {
  if (text.length <= max) return text;
  const from = Math.max(0, Math.min(at - Math.floor(max / 3), text.length - max));
  return `${from > 0 ? '…' : ''}${text.slice(from, from + max)}${from + max < text.length ? '…' : ''}`;
}

const stripCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

function encodingOf(bytes: Buffer, name: string): GrepEncoding | null {
  if (contentKind(bytes, true) === 'text')
    return bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  return legacyEncoding(name, bytes) ? 'windows-1252' : null;
}

function decode(bytes: Buffer, encoding: GrepEncoding, atStart: boolean): string {
  if (encoding === 'windows-1252') return iconv.decode(bytes, 'windows-1252');
  return atStart ? decodeText(bytes) : bytes.toString('utf8');
}

/** One buffer for every piece (a batch runs one file at a time). */
const pieceBuffer = Buffer.allocUnsafe(PIECE_BYTES);

interface Piece {
  /** The piece's bytes (in pieceBuffer, valid until the next piece), or null for a document's text. */
  bytes: Buffer | null;
  text: () => string;
  scanned: number;
  encoding: GrepEncoding;
  /** Byte where the rest of the file starts, when this piece is not its end. */
  restFrom?: number;
  /** The file's first piece (its text is decoded without a byte-order mark). */
  atStart: boolean;
}

/**
 * Opens a file (non-blocking: a FIFO swapped in cannot hang us), reads one
 * piece of it and hands it to `use` while the file is open (so where it
 * really is can be asked of the descriptor). No fstat: it costs more than
 * the read, and a device or a directory fails or ends the read; whatever
 * such a file gives is never sent anywhere unless its real path passes the
 * main thread's check.
 */
function withPiece(item: GrepItem, use: (piece: Piece, real: () => string) => void): GrepItemResult['skipped'] | null {
  let fd: number;
  try {
    fd = openSync(item.path as string, OPEN_FLAGS);
  } catch {
    return 'gone';
  }
  try {
    const from = item.from ?? 0;
    let got = 0;
    try {
      while (got < pieceBuffer.length) {
        const n = readSync(fd, pieceBuffer, got, pieceBuffer.length - got, from + got);
        if (n === 0) break;
        got += n;
      }
    } catch {
      return 'gone'; // a directory, a FIFO with nothing to read…
    }
    let bytes = pieceBuffer.subarray(0, got);
    const encoding = item.encoding ?? encodingOf(bytes, item.name);
    if (!encoding) return 'binary';
    let restFrom: number | undefined;
    // A full piece stops after its last line end; the rest is the next piece's (UTF-16 files are searched in one piece).
    if (got === pieceBuffer.length && encoding !== 'utf-16le' && encoding !== 'utf-16be') {
      const cut = bytes.lastIndexOf(0x0a);
      if (cut >= 0) bytes = bytes.subarray(0, cut + 1);
      restFrom = from + bytes.length;
    }
    let decoded: string | null = null;
    const piece: Piece = {
      bytes: encoding === 'utf-8' ? bytes : null,
      text: () => (decoded ??= decode(bytes, encoding, from === 0)),
      scanned: bytes.length,
      encoding,
      atStart: from === 0,
      ...(restFrom !== undefined ? { restFrom } : {}),
    };
    use(piece, () => (PROC_FD ? readlinkSync(`/proc/self/fd/${fd}`) : realpathSync(item.path as string)));
    return null;
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

/** Where a piece is searched for the pattern's literal: its bytes (UTF-8, case-sensitive) or its text; null when it has none to look for. */
function haystackOf(c: Compiled, piece: Piece): Haystack | null {
  const literal = c.literal;
  if (!literal) return null;
  if (!c.ignoreCase && piece.bytes) return bytesHaystack(piece.bytes, literal.bytes, piece.atStart);
  const text = piece.text();
  if (!c.ignoreCase) return textHaystack(text, text, literal.literal);
  const low = lowered(text);
  return low.length === text.length ? textHaystack(text, low, literal.literal) : null; // lowercasing moved positions (İ): line by line
}

/** The last `n` lines of a piece (as splitLines(text).slice(-n) gives them). */
function lastLines(hay: Haystack, n: number): string[] {
  const out: string[] = [];
  if (hay.length === 0) return out;
  let e = hay.lastNewline(hay.length - 1) === hay.length - 1 ? hay.length - 1 : hay.length;
  while (out.length < n) {
    const s = hay.lastNewline(e - 1) + 1;
    out.unshift(hay.text(s, e));
    if (s === 0) break;
    e = s - 1;
  }
  return out;
}

/**
 * Searches a batch. `prefilter` false: every piece line by line, the
 * pattern on each line (the way before the literal prefilter; tests compare).
 */
export function searchBatch(req: GrepRequest, prefilter = true): GrepItemResult[] {
  const c = compile(req.pattern, req.ignoreCase);
  const ctx = req.context;
  const results: GrepItemResult[] = [];
  let room = req.maxMatches;
  const searchPiece = (item: GrepItem, piece: Piece, result: GrepItemResult, real: (() => string) | null) => {
    // A small piece is turned down faster by the pattern's whole-text test (its DFA) than by a search for the literal.
    // There, unless the literal is the whole pattern, the lines are split as before and each tested for the literal before the pattern runs.
    const small = piece.scanned <= SMALL_PIECE;
    const may = prefilter && room > 0 && small ? mayMatch(c, piece.bytes, piece.text) : undefined;
    const hay = prefilter && may !== false && (!small || c.literal?.exact) ? haystackOf(c, piece) : null;
    if (hay) literalPiece(item, piece, result, real, hay);
    else linePiece(item, piece, result, real, may, prefilter ? c.literal : null);
  };
  const match = (
    item: GrepItem,
    result: GrepItemResult,
    lineNo: number,
    raw: string,
    at: number,
    index: number,
    before: () => string[],
    after: () => string[],
  ) => {
    room--;
    const found: GrepLine = { line: lineNo, text: around(raw, at, MAX_LINE_CHARS) };
    if (ctx > 0) {
      const b = [...item.before.slice(Math.max(0, item.before.length - Math.max(0, ctx - index))), ...contextOf(before())];
      const a = contextOf(after());
      if (b.length) found.before = b;
      if (a.length) found.after = a;
    }
    result.matches.push(found);
  };
  /** The lines holding the literal, the pattern run on those only (not at all for a plain literal). */
  const literalPiece = (item: GrepItem, piece: Piece, result: GrepItemResult, real: (() => string) | null, hay: Haystack) => {
    const literal = c.literal as NonNullable<Compiled['literal']>;
    result.scanned = piece.scanned;
    const encoding = piece.encoding;
    const goesOn = piece.restFrom !== undefined;
    let lineEnds = 0;
    if (room > 0) {
      lineEnds = scanLines(hay, ctx, goesOn, (l) => {
        const lineNo = item.firstLine + l.index;
        if (item.skipBefore !== undefined && lineNo < item.skipBefore) return true;
        const raw = stripCr(l.text);
        let at: number;
        if (literal.exact) at = raw.indexOf(literal.literal);
        else if (!c.line.test(raw))
          at = -1; // the DFA first: most lines holding the literal do not match
        else {
          const m = c.line.matcher(raw);
          at = m.find() ? m.start() : -1;
        }
        if (at < 0) return true;
        if (room === 0) {
          result.again = { skipBefore: lineNo, encoding };
          return false;
        }
        match(item, result, lineNo, raw, at, l.index, l.before, l.after);
        return true;
      });
      if (real && result.matches.length > 0) result.real = real();
    } else result.again = { skipBefore: item.skipBefore ?? item.firstLine, encoding };
    if (!result.again && goesOn) {
      result.rest = { from: piece.restFrom as number, line: item.firstLine + lineEnds, encoding, before: ctx > 0 ? contextOf(lastLines(hay, ctx)) : [] };
      if (real && result.real === undefined) result.real = real();
    }
  };
  /** Every line given to the pattern (once the whole-text test, or `may` when it was asked already, said it may match), or only those holding `literal`. */
  const linePiece = (item: GrepItem, piece: Piece, result: GrepItemResult, real: (() => string) | null, may?: boolean, literal: Compiled['literal'] = null) => {
    result.scanned = piece.scanned;
    const encoding = piece.encoding;
    let lines: string[] | null = null;
    if (room > 0 && (may ?? mayMatch(c, piece.bytes, piece.text))) {
      lines = splitLines(piece.text());
      for (let i = 0; i < lines.length; i++) {
        const lineNo = item.firstLine + i;
        if (item.skipBefore !== undefined && lineNo < item.skipBefore) continue;
        const raw = stripCr(lines[i] as string);
        // Cheaper than a Matcher (which runs re2js's backtracker): the literal, then the DFA, and a Matcher for where only on a match.
        if (literal && (!(c.ignoreCase ? lowered(raw) : raw).includes(literal.literal) || !c.line.test(raw))) continue;
        const m = c.line.matcher(raw);
        if (!m.find()) continue;
        if (room === 0) {
          result.again = { skipBefore: lineNo, encoding };
          break;
        }
        const all = lines;
        match(
          item,
          result,
          lineNo,
          raw,
          m.start(),
          i,
          () => all.slice(Math.max(0, i - ctx), i),
          () => all.slice(i + 1, i + 1 + ctx),
        );
      }
      // Where the file really is, asked only of files that matched (the main thread checks it).
      if (real && result.matches.length > 0) result.real = real();
    } else if (room === 0) {
      result.again = { skipBefore: item.skipBefore ?? item.firstLine, encoding };
    }
    if (!result.again && piece.restFrom !== undefined) {
      lines ??= splitLines(piece.text());
      // A piece without a line end (one very long line) goes on in the same line.
      const line = item.firstLine + lines.length - (piece.text().endsWith('\n') ? 0 : 1);
      result.rest = { from: piece.restFrom, line, encoding, before: ctx > 0 ? contextOf(lines.slice(-ctx)) : [] };
      if (real && result.real === undefined) result.real = real();
    }
  };
  for (const item of req.items) {
    const result: GrepItemResult = { key: item.key, matches: [], scanned: 0 };
    results.push(result);
    if (item.text !== undefined) {
      const text = item.text;
      searchPiece(item, { bytes: null, text: () => text, scanned: text.length, encoding: 'utf-8', atStart: true }, result, null);
      continue;
    }
    const skipped = withPiece(item, (piece, real) => searchPiece(item, piece, result, real));
    if (skipped) result.skipped = skipped;
  }
  return results;
}

parentPort?.on('message', (req: GrepRequest) => {
  let reply: GrepReply;
  try {
    reply = { id: req.id, ok: true, results: searchBatch(req) };
  } catch (err) {
    const message = err instanceof RE2JSException ? `invalid pattern: ${err.message}` : err instanceof Error ? err.message : String(err);
    reply = { id: req.id, ok: false, message };
  }
  parentPort?.postMessage(reply);
});
