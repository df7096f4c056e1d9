import { ShelfError } from '../base/shelfError.js';
import { readAsync } from '../library/fileStream.js';
import type { LineIndex } from './lineIndex.js';

/**
 * A part of a text — whole lines from a given line, within a character
 * budget — so a model reads a file of any size a page at a time and the
 * pages put back together are the file exactly. A line longer than the
 * budget is cut between characters and goes on from a column.
 *
 * Characters are UTF-16 code units (what a JavaScript string counts); a
 * cut never splits a character.
 */

export interface PageRequest {
  /** 1-based line to start at; negative counts from the end (-5: the last five lines). Default 1. */
  offset?: number;
  /** Lines at most. */
  limit?: number;
  /** 1-based character of the first line to start at (for lines longer than the budget). Default 1. */
  column?: number;
  /** Characters at most. */
  budget: number;
}

export interface Page {
  text: string;
  firstLine: number;
  /** The last line shown (whole or in part); firstLine - 1 when nothing was shown (an empty file). */
  lastLine: number;
  totalLines: number;
  /** 1 unless the page starts inside its first line. */
  startColumn: number;
  /** Where to go on, or null at the end (or when `limit` lines were shown and the file ends there). */
  next: { offset: number; column?: number } | null;
  /** The page ends inside its last line (a line longer than the budget). */
  cutLine: boolean;
}

/** The first line a request names, checked against the text's lines. */
function firstLineOf(req: PageRequest, total: number): number {
  const offset = req.offset ?? 1;
  if (!Number.isInteger(offset) || offset === 0) throw ShelfError.invalidParams('offset is a line number: 1 is the first line, -1 the last');
  if (total === 0) return 1;
  const line = offset > 0 ? offset : Math.max(1, total + offset + 1);
  if (line > total) throw ShelfError.invalidParams(`offset ${offset} is past the end: the text has ${total.toLocaleString('en')} line(s)`);
  return line;
}

function checkRequest(req: PageRequest): void {
  if (req.limit !== undefined && (!Number.isInteger(req.limit) || req.limit < 1)) throw ShelfError.invalidParams('limit is a number of lines, at least 1');
  if (req.column !== undefined && (!Number.isInteger(req.column) || req.column < 1))
    throw ShelfError.invalidParams('column is 1-based: 1 is the first character of the line');
}

const pastLine = (column: number, line: number, length: number) =>
  ShelfError.invalidParams(
    `column ${column} is past the end of line ${line.toLocaleString('en')} (it has ${length.toLocaleString('en')} character(s), its line break included)`,
  );

/** What a page's text is cut from: a string or a file's bytes, as positions and characters. */
interface Cuttable {
  /** Just past the line end at or after `at` (before `end`), or -1. */
  lineEnd(at: number): number;
  /** Characters (UTF-16 code units) in [from, to). */
  units(from: number, to: number): number;
  /** The furthest position in [from, stop] within `max` characters, not inside a character. */
  advance(from: number, stop: number, max: number): number;
}

/**
 * The one rule of a page, for strings and files alike: whole lines from
 * `from` while they fit the budget and the line limit; a first line longer
 * than the budget alone is cut between characters. `atEnd`: `end` is the
 * text's end (else a line running past `end` is longer than the budget).
 */
function fit(
  src: Cuttable,
  from: number,
  end: number,
  atEnd: boolean,
  budget: number,
  maxLines: number,
): { to: number; shown: number; cutUnits: number | null } {
  let at = from;
  let used = 0;
  let shown = 0;
  while (at < end && shown < maxLines) {
    const lineEnd = src.lineEnd(at);
    const stop = lineEnd < 0 ? end : lineEnd;
    const units = src.units(at, stop);
    if ((lineEnd >= 0 || atEnd) && used + units <= budget) {
      used += units;
      at = stop;
      shown++;
      continue;
    }
    if (shown > 0) break;
    let cut = src.advance(at, stop, budget);
    if (cut === at) cut = src.advance(at, stop, 2); // a budget under one character still moves on
    return { to: cut, shown: 1, cutUnits: src.units(at, cut) };
  }
  return { to: at, shown, cutUnits: null };
}

/** The page that `fit` found, with where to go on. */
function pageOf(text: string, first: number, total: number, column: number, fitted: { shown: number; cutUnits: number | null }, more: boolean): Page {
  const cutLine = fitted.cutUnits !== null;
  const nextLine = first + fitted.shown - (cutLine ? 1 : 0);
  const next = cutLine ? { offset: first, column: column + (fitted.cutUnits as number) } : more ? { offset: nextLine } : null;
  return { text, firstLine: first, lastLine: cutLine ? first : first + fitted.shown - 1, totalLines: total, startColumn: column, next, cutLine };
}

/**
 * Lines of an in-memory text (a small file read whole, a document's text),
 * with line starts every STRING_CHECKPOINT lines so line N is found without
 * splitting the text.
 */
const STRING_CHECKPOINT = 256;

export class StringLines {
  private readonly starts: number[] = [0];
  readonly totalLines: number;

  constructor(readonly text: string) {
    let lines = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      lines++;
      if (lines % STRING_CHECKPOINT === 0) this.starts.push(i + 1);
    }
    const lastStart = lines === 0 ? 0 : text.lastIndexOf('\n') + 1;
    this.totalLines = lines + (lastStart < text.length ? 1 : 0);
  }

  /** Index where line `line` starts. */
  lineStart(line: number): number {
    const cp = Math.min(Math.floor((line - 1) / STRING_CHECKPOINT), this.starts.length - 1);
    let at = this.starts[cp] as number;
    for (let n = cp * STRING_CHECKPOINT + 1; n < line; n++) at = this.text.indexOf('\n', at) + 1;
    return at;
  }

  page(req: PageRequest): Page {
    checkRequest(req);
    const total = this.totalLines;
    const first = firstLineOf(req, total);
    const column = req.column ?? 1;
    const text = this.text;
    let pos = total === 0 ? 0 : this.lineStart(first);
    if (column > 1) {
      // Columns run to the line's end, its line break included (a cut may fall just before it).
      const length = lineEndIn(text, pos) - pos;
      if (column - 1 >= length) throw pastLine(column, first, length);
      pos += column - 1;
      if (isLowSurrogate(text.charCodeAt(pos))) pos--; // never inside a character
    }
    const fitted = fit(
      {
        lineEnd: (at) => {
          const i = text.indexOf('\n', at);
          return i < 0 ? -1 : i + 1;
        },
        units: (a, b) => b - a,
        advance: (a, stop, max) => {
          const cut = Math.min(stop, a + max);
          return cut < stop && isLowSurrogate(text.charCodeAt(cut)) ? cut - 1 : cut;
        },
      },
      pos,
      text.length,
      true,
      req.budget,
      req.limit ?? Number.POSITIVE_INFINITY,
    );
    return pageOf(text.slice(pos, fitted.to), first, total, column, fitted, fitted.to < text.length);
  }
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function lineEndIn(text: string, from: number): number {
  const i = text.indexOf('\n', from);
  return i < 0 ? text.length : i + 1;
}

/**
 * Pages of a large text file read from disk through its line index: the
 * bytes of one page are read (at most a few per character of the budget),
 * never the whole file.
 */
export class FileLines {
  constructor(
    private readonly fd: number,
    private readonly index: LineIndex,
    private readonly size: number,
  ) {}

  get totalLines(): number {
    return this.index.totalLines;
  }

  async page(req: PageRequest): Promise<Page> {
    checkRequest(req);
    const enc = this.index.encoding;
    const total = this.index.totalLines;
    const first = firstLineOf(req, total);
    const column = req.column ?? 1;
    let pos = total === 0 ? this.size : await this.index.lineStart(this.fd, first);
    if (column > 1) pos = await this.columnByte(first, pos, column);
    // The most bytes `budget` characters can take (UTF-8: 3 per code unit at most; UTF-16: 2).
    const window = Math.min(this.size - pos, req.budget * Math.max(3, enc.unitBytes) + 4);
    const buf = Buffer.allocUnsafe(window);
    const { bytesRead } = window > 0 ? await readAsync(this.fd, buf, 0, window, pos) : { bytesRead: 0 };
    const fitted = fit(
      {
        lineEnd: (at) => enc.lineEnd(buf, at, bytesRead, pos),
        units: (a, b) => enc.units(buf, a, b),
        advance: (a, stop, max) => enc.advance(buf, a, stop, max).at,
      },
      0,
      bytesRead,
      pos + bytesRead >= this.size,
      req.budget,
      req.limit ?? Number.POSITIVE_INFINITY,
    );
    const page = pageOf(enc.decode(buf.subarray(0, fitted.to)), first, total, column, fitted, pos + fitted.to < this.size);
    // The next page starts inside this line: where, so it need not count the line's characters again.
    if (page.cutLine && page.next) this.index.resume = { line: first, column: page.next.column as number, byte: pos + fitted.to };
    return page;
  }

  /** The byte where character `column` of line `line` (starting at byte `start`) is. */
  private async columnByte(line: number, start: number, column: number): Promise<number> {
    const enc = this.index.encoding;
    const kept = this.index.resume;
    let pos = start;
    let col = 1;
    if (kept && kept.line === line && kept.column <= column) {
      pos = kept.byte;
      col = kept.column;
    }
    const buf = Buffer.allocUnsafe(256 * 1024);
    while (col < column) {
      const { bytesRead } = await readAsync(this.fd, buf, 0, Math.min(buf.length, this.size - pos), pos);
      const lineEnd = bytesRead === 0 ? 0 : enc.lineEnd(buf, 0, bytesRead, pos);
      const stop = lineEnd < 0 ? bytesRead : lineEnd; // columns run to the line's end, its line break included
      const step = enc.advance(buf, 0, stop, column - col);
      pos += step.at;
      col += step.units;
      if (col < column && (lineEnd >= 0 || bytesRead === 0 || step.at === 0)) {
        throw pastLine(column, line, col - 1);
      }
    }
    return pos;
  }
}
