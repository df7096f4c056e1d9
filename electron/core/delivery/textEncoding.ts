import iconv from 'iconv-lite';

/**
 * How a text file's bytes become characters, for reading it a part at a
 * time: where lines end, how many characters (UTF-16 code units, as a
 * JavaScript string counts them) a run of bytes holds, where a cut falls
 * between whole characters, and decoding. One of the encodings a read
 * recognises (safeRead / scanKind): UTF-8, UTF-16 with a BOM, Windows-1252.
 */
export type PagedEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface TextEncoding {
  readonly name: PagedEncoding;
  /** Bytes of one code unit (UTF-16: 2). */
  readonly unitBytes: number;
  /** Index just past the next line end at or after `from` in `buf` (which starts at file offset `base`), or -1. */
  lineEnd(buf: Buffer, from: number, end: number, base: number): number;
  /** UTF-16 code units in buf[from, end). */
  units(buf: Buffer, from: number, end: number): number;
  /** The furthest index in [from, end] reachable with at most `max` units without splitting a character, and the units taken. */
  advance(buf: Buffer, from: number, end: number, max: number): { at: number; units: number };
  decode(buf: Buffer): string;
}

const NL = 0x0a;

const utf8: TextEncoding = {
  name: 'utf-8',
  unitBytes: 1,
  lineEnd: (buf, from, end) => {
    const i = buf.indexOf(NL, from);
    return i < 0 || i >= end ? -1 : i + 1;
  },
  units(buf, from, end) {
    let n = 0;
    for (let i = from; i < end; i++) {
      const b = buf[i] as number;
      // A lead or ASCII byte starts a character; a 4-byte one is two UTF-16 units.
      if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
    }
    return n;
  },
  advance(buf, from, end, max) {
    let i = from;
    let n = 0;
    while (i < end) {
      const b = buf[i] as number;
      const need = b >= 0xf0 ? 2 : 1;
      const len = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (n + need > max || i + len > end) break;
      n += need;
      i += len;
    }
    return { at: i, units: n };
  },
  decode: (buf) => buf.toString('utf8'),
};

const windows1252: TextEncoding = {
  name: 'windows-1252',
  unitBytes: 1,
  lineEnd: utf8.lineEnd,
  units: (_buf, from, end) => end - from,
  advance: (_buf, from, end, max) => {
    const at = Math.min(end, from + max);
    return { at, units: at - from };
  },
  // iconv-lite: Node 20's TextDecoder reads 0x80–0x9F as C1 controls, not Windows-1252's “ ” – € …
  decode: (buf) => iconv.decode(buf, 'windows-1252'),
};

function utf16(name: 'utf-16le' | 'utf-16be'): TextEncoding {
  const le = name === 'utf-16le';
  const unitAt = (buf: Buffer, i: number) => (le ? buf.readUInt16LE(i) : buf.readUInt16BE(i));
  return {
    name,
    unitBytes: 2,
    lineEnd(buf, from, end, base) {
      // "\n" is 0A 00 (LE) or 00 0A (BE), on a unit boundary: even file offsets (the BOM takes two bytes).
      for (let i = buf.indexOf(NL, from); i >= 0 && i < end; i = buf.indexOf(NL, i + 1)) {
        const unitStart = le ? i : i - 1;
        if (unitStart < from || (base + unitStart) % 2 !== 0 || unitStart + 2 > end) continue;
        if (buf[le ? i + 1 : i - 1] === 0) return unitStart + 2;
      }
      return -1;
    },
    units: (_buf, from, end) => Math.floor((end - from) / 2),
    advance(buf, from, end, max) {
      let at = Math.min(from + max * 2, end - ((end - from) % 2));
      // Never between the two halves of a surrogate pair.
      if (at > from && at < end - 1) {
        const last = unitAt(buf, at - 2);
        if (last >= 0xd800 && last <= 0xdbff) at -= 2;
      }
      return { at, units: (at - from) / 2 };
    },
    decode: (buf) => new TextDecoder(name).decode(buf),
  };
}

const ENCODINGS: Record<PagedEncoding, TextEncoding> = {
  'utf-8': utf8,
  'windows-1252': windows1252,
  'utf-16le': utf16('utf-16le'),
  'utf-16be': utf16('utf-16be'),
};

export const textEncoding = (name: PagedEncoding): TextEncoding => ENCODINGS[name];
