import { ExtractionError } from '../extractionError.js';
import { type FormatLimits, type FormatParts, mark, TextSink } from './formatLimits.js';

/**
 * The text of an RTF file, by a tokenizer of our own: no maintained RTF
 * reader exists for plain JavaScript (rtf.js renders into a browser DOM;
 * rtf-parser was last published in 2017). One pass over the bytes, groups
 * kept on a bounded stack, destinations that are not text (font and colour
 * tables, pictures, objects' data, field instructions, anything starred)
 * skipped, `\'hh` decoded in the file's code page and `\uN` as Unicode.
 */

/** Groups open at once, at most (Word writes a few dozen). */
export const MAX_RTF_DEPTH = 1024;

/** Destinations whose content is not the document's text. */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'objdata',
  'fldinst',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'listtable',
  'listoverridetable',
  'revtbl',
  'rsidtbl',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'generator',
  'filetbl',
  'nonshppict',
  'shpinst',
  'bkmkstart',
  'bkmkend',
  'private',
  'userprops',
]);
/** Control words that stand for text. */
const WORDS: Record<string, string> = {
  par: '\n',
  line: '\n',
  sect: '\n',
  page: '\n',
  row: '\n',
  cell: '\t',
  tab: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  emspace: '\u2003',
  enspace: '\u2002',
};

interface Group {
  skip: boolean;
  /** Characters after \uN to skip (\ucN). */
  uc: number;
}

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const hex = (c: number) => (isDigit(c) ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);

export function rtfText(bytes: Uint8Array, limits: FormatLimits): FormatParts {
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 5)) !== '{\\rtf')
    throw new ExtractionError('corrupt', 'Not an RTF file (it does not start with {\\rtf)');
  const sink = new TextSink(limits.maxChars);
  let decoder = new TextDecoder('windows-1252');
  const stack: Group[] = [];
  let group: Group = { skip: false, uc: 1 };
  /** Bytes of \'hh escapes waiting to be decoded together (a multi-byte code page's character is two of them). */
  let pending: number[] = [];
  /** Characters still to skip after a \uN. */
  let skipChars = 0;
  let destinationNext = false;
  const flush = () => {
    if (pending.length === 0) return;
    if (!group.skip) sink.push(decoder.decode(new Uint8Array(pending)));
    pending = [];
  };
  const text = (s: string) => {
    flush();
    if (!group.skip) sink.push(s);
  };
  const n = bytes.length;
  let i = 0;
  while (i < n && !sink.full) {
    const c = bytes[i] as number;
    if (c === 0x7b) {
      // {
      flush();
      if (stack.length >= MAX_RTF_DEPTH) throw new ExtractionError('too-large', `Its groups are nested more than ${MAX_RTF_DEPTH} deep (a hostile file?)`);
      stack.push(group);
      group = { ...group };
      destinationNext = true;
      skipChars = 0;
      i++;
      continue;
    }
    if (c === 0x7d) {
      // }
      flush();
      group = stack.pop() ?? group;
      skipChars = 0;
      i++;
      continue;
    }
    const first: boolean = destinationNext;
    destinationNext = false;
    if (c === 0x5c) {
      // A control symbol or word.
      const d = bytes[i + 1] ?? 0;
      if (d === 0x27) {
        // \'hh: one byte in the code page.
        const b = hex(bytes[i + 2] ?? 0) * 16 + hex(bytes[i + 3] ?? 0);
        i += 4;
        if (skipChars > 0) skipChars--;
        else if (b >= 0) pending.push(b);
        continue;
      }
      if (!isLetter(d)) {
        i += 2;
        if (d === 0x2a)
          group.skip = true; // \*: a destination to skip unless known
        else if (d === 0x7e) text('\u00a0');
        else if (d === 0x5f) text('\u2011');
        else if (d === 0x5c || d === 0x7b || d === 0x7d) {
          if (skipChars > 0) skipChars--;
          else text(String.fromCharCode(d));
        } else if (d === 0x0a || d === 0x0d) text('\n');
        if (d === 0x2a) destinationNext = first;
        continue;
      }
      let j = i + 1;
      while (j < n && j - i <= 32 && isLetter(bytes[j] as number)) j++;
      const word = new TextDecoder('latin1').decode(bytes.subarray(i + 1, j));
      let param: number | null = null;
      const negative = bytes[j] === 0x2d;
      let k = negative ? j + 1 : j;
      const digitsFrom = k;
      while (k < n && k - digitsFrom < 10 && isDigit(bytes[k] as number)) k++;
      if (k > digitsFrom) {
        param = Number(new TextDecoder('latin1').decode(bytes.subarray(digitsFrom, k))) * (negative ? -1 : 1);
        j = k;
      }
      if (bytes[j] === 0x20) j++; // the space that ends a control word is part of it
      i = j;
      if (word === 'bin') {
        // Binary data: skipped whole.
        flush();
        i += Math.max(0, param ?? 0);
        continue;
      }
      if (SKIPPED.has(word) || (first && group.skip)) {
        group.skip = true;
        continue;
      }
      if (word === 'fldrslt') continue; // a field's result is its visible text
      if (word === 'ansicpg' && param !== null) {
        try {
          decoder = new TextDecoder(`windows-${param}`);
        } catch {
          try {
            decoder = new TextDecoder(param === 932 ? 'shift_jis' : param === 936 ? 'gbk' : param === 949 ? 'euc-kr' : param === 950 ? 'big5' : 'windows-1252');
          } catch {
            decoder = new TextDecoder('windows-1252');
          }
        }
        continue;
      }
      if (word === 'uc' && param !== null) {
        group.uc = Math.max(0, Math.min(param, 8));
        continue;
      }
      if (word === 'u' && param !== null) {
        text(String.fromCharCode(param < 0 ? param + 65536 : param));
        skipChars = group.uc;
        continue;
      }
      const stands = WORDS[word];
      if (stands !== undefined) text(stands);
      continue;
    }
    i++;
    if (c === 0x0a || c === 0x0d) continue; // line breaks in the source are not text
    if (skipChars > 0) {
      skipChars--;
      continue;
    }
    // Plain text: a run up to the next special byte, at once.
    let j = i;
    while (j < n && bytes[j] !== 0x5c && bytes[j] !== 0x7b && bytes[j] !== 0x7d && bytes[j] !== 0x0a && bytes[j] !== 0x0d) j++;
    if (!group.skip) text(decoder.decode(bytes.subarray(i - 1, j)));
    i = j;
  }
  flush();
  const body = sink
    .take()
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (body === '') throw new ExtractionError('no-text', 'The document has no text');
  return { names: [mark('Document', 1)], parts: [body] };
}
