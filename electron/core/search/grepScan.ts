/**
 * A piece of a file searched for a pattern's required literal first
 * (grepLiteral.ts): a byte search over the piece as read (UTF-8) or over its
 * text, and only the lines holding the literal are decoded and given to the
 * pattern — a plain literal is not run through the pattern at all. The old
 * way decoded every 4 MiB piece, split it into lines and made a Matcher for
 * each: a literal in a 100 MB log spent a quarter of its time collecting that.
 * What it finds is what the line-by-line search finds (a test compares them).
 */

/** Where the literal and line ends are looked for: the piece's bytes, or its (maybe lowercased) text. */
export interface Haystack {
  length: number;
  /** The next occurrence of the literal at or after `from`, −1 if none. */
  find(from: number): number;
  /** The next line end (\n) at or after `from`, −1 if none. */
  newline(from: number): number;
  /** The last line end at or before `at`, −1 if none (or `at` < 0). */
  lastNewline(at: number): number;
  /** The piece's text from `start` to `end` (haystack positions). */
  text(start: number, end: number): string;
}

/** The file's first line is decoded the way the whole text was (a byte-order mark dropped); one decoder for all (a new one a file cost 10 µs). */
const utf8 = new TextDecoder('utf-8');

export function bytesHaystack(bytes: Buffer, literal: Buffer, pieceStart: boolean): Haystack {
  return {
    length: bytes.length,
    find: (from) => bytes.indexOf(literal, from),
    newline: (from) => bytes.indexOf(0x0a, from),
    lastNewline: (at) => (at < 0 ? -1 : bytes.lastIndexOf(0x0a, at)),
    text: (start, end) => (pieceStart && start === 0 ? utf8.decode(bytes.subarray(0, end)) : bytes.toString('utf8', start, end)),
  };
}

/** `searched` is the text or its lowercased copy, position for position the same (the caller checks the lengths). */
export function textHaystack(text: string, searched: string, literal: string): Haystack {
  return {
    length: text.length,
    find: (from) => searched.indexOf(literal, from),
    newline: (from) => searched.indexOf('\n', from),
    lastNewline: (at) => (at < 0 ? -1 : searched.lastIndexOf('\n', at)),
    text: (start, end) => text.slice(start, end),
  };
}

export interface ScanLine {
  /** Its index in the piece (0: the piece's first line). */
  index: number;
  /** Its text without \n (and still with a \r before it). */
  text: string;
  /** The lines before it in the piece (at most `context`, nearest last) and after it. */
  before: () => string[];
  after: () => string[];
}

/**
 * Each line of the piece holding the literal, in order, until `visit`
 * returns false. Returns the piece's line ends counted so far: all of them
 * when `countAll` (a piece that goes on needs its line count).
 */
export function scanLines(hay: Haystack, context: number, countAll: boolean, visit: (line: ScanLine) => boolean): number {
  let counted = 0; // line ends before `cursor`
  let cursor = 0;
  const countTo = (to: number) => {
    for (let at = hay.newline(cursor); at >= 0 && at < to; at = hay.newline(at + 1)) counted++;
    cursor = to;
  };
  const lineEnd = (start: number) => {
    const nl = hay.newline(start);
    return nl < 0 ? hay.length : nl;
  };
  for (let from = 0; from < hay.length;) {
    const at = hay.find(from);
    if (at < 0) break;
    countTo(at);
    const start = hay.lastNewline(at - 1) + 1;
    const end = lineEnd(at);
    const index = counted;
    const line: ScanLine = {
      index,
      text: hay.text(start, end),
      before: () => {
        const out: string[] = [];
        for (let e = start - 1; out.length < context && e >= 0;) {
          const s = hay.lastNewline(e - 1) + 1;
          out.unshift(hay.text(s, e));
          e = s - 1;
        }
        return out;
      },
      after: () => {
        const out: string[] = [];
        for (let s = end + 1; out.length < context && s < hay.length;) {
          const e = lineEnd(s);
          out.push(hay.text(s, e));
          s = e + 1;
        }
        return out;
      },
    };
    if (!visit(line)) return countAll ? (countTo(hay.length), counted) : counted;
    from = end + 1;
  }
  if (countAll) countTo(hay.length);
  return counted;
}
