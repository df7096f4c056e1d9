import { inflateRawSync } from 'node:zlib';

import { zipSync } from 'fflate';

import { ExtractionError } from './extractionError.js';

/**
 * The parts of an Office file (a zip), inflated with what they inflate to
 * bounded — not what they declare. Runs in the extraction worker.
 *
 * Why: a worker's heap limit does not count Buffer/ArrayBuffer memory, and a
 * zip says what its parts inflate to but nothing makes it true: a 3 MB .docx
 * that declared 4 KiB for a part inflating to 3 GiB took the process to
 * 3.2 GB. So each part is inflated here, by the central directory (the view
 * every zip reader takes), stopping the moment it passes the size it
 * declares; declared sizes must add up to at most the budget. The libraries
 * that read the XML then get a zip of these parts stored uncompressed
 * (storedZip), so they inflate nothing themselves.
 */

export interface PartLimits {
  /** What the parts read may inflate to, in all. */
  maxBytes: number;
  /** Parts read at most (each costs a little beside its bytes). */
  maxParts: number;
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  compressed: number;
  size: number;
  offset: number;
}

const END = 0x06054b50;
const END64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MiB = 1024 * 1024;

const corrupt = (why: string) => new ExtractionError('corrupt', `Not a readable Office file (${why})`);

/** The central directory's entries (zip64 included). */
function directory(bytes: Uint8Array): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  // The end record is in the last 22 bytes plus a comment of up to 65,535.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) throw corrupt('no zip directory');
  let count = view.getUint16(end + 10, true);
  let size = view.getUint32(end + 12, true);
  let start = view.getUint32(end + 16, true);
  if (count === 0xffff || size === 0xffffffff || start === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== LOCATOR64) throw corrupt('a zip64 directory without its locator');
    const record = u64(locator + 8);
    if (record + 56 > bytes.length || view.getUint32(record, true) !== END64) throw corrupt('a zip64 directory out of place');
    count = u64(record + 32);
    size = u64(record + 40);
    start = u64(record + 48);
  }
  const stop = start + size;
  if (stop > bytes.length) throw corrupt('the directory is past the end of the file');
  const entries: Entry[] = [];
  const decoder = new TextDecoder();
  let at = start;
  for (let n = 0; n < count; n++) {
    if (at + 46 > stop || view.getUint32(at, true) !== CENTRAL) throw corrupt('a damaged directory entry');
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const next = at + 46 + nameLength + extraLength + view.getUint16(at + 32, true);
    if (next > stop) throw corrupt('a damaged directory entry');
    const entry: Entry = {
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    };
    // zip64: the sizes and offset that do not fit say 0xffffffff and follow in this extra field, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = view.getUint16(x, true);
      const length = view.getUint16(x + 2, true);
      if (id === 1) {
        let v = x + 4;
        const take = () => {
          if (v + 8 > x + 4 + length) throw corrupt('a damaged zip64 field');
          const value = u64(v);
          v += 8;
          return value;
        };
        if (entry.size === 0xffffffff) entry.size = take();
        if (entry.compressed === 0xffffffff) entry.compressed = take();
        if (entry.offset === 0xffffffff) entry.offset = take();
      }
      x += 4 + length;
    }
    entries.push(entry);
    at = next;
  }
  return entries;
}

/** One part's bytes, inflated to at most the size it declares. */
function inflatePart(bytes: Uint8Array, e: Entry): Uint8Array {
  if (e.flags & 1) throw new ExtractionError('encrypted', 'The Office file is encrypted with a password');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (e.offset + 30 > bytes.length || view.getUint32(e.offset, true) !== LOCAL) throw corrupt(`${e.name}: no entry where the directory says`);
  const from = e.offset + 30 + view.getUint16(e.offset + 26, true) + view.getUint16(e.offset + 28, true);
  if (from + e.compressed > bytes.length) throw corrupt(`${e.name}: past the end of the file`);
  const data = bytes.subarray(from, from + e.compressed);
  if (e.method === 0) {
    if (e.compressed !== e.size) throw corrupt(`${e.name}: its sizes disagree`);
    return data;
  }
  if (e.method !== 8) throw corrupt(`${e.name}: compression method ${e.method}`);
  let out: Buffer;
  try {
    // Inflation stops as soon as the output passes the limit: a lie costs what it declared, no more.
    out = inflateRawSync(data, { maxOutputLength: Math.max(1, e.size) });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw lie(e);
    throw corrupt(`${e.name}: ${(err as Error).message}`);
  }
  if (out.length > e.size) throw lie(e);
  return out;
}

const lie = (e: Entry) => new ExtractionError('too-large', `A part (${e.name}) inflates to more than the ${e.size} bytes it declares (a zip bomb)`);

/** The parts `wanted` picks, inflated within `limits`; refuses with too-large past them. */
export function readParts(bytes: Uint8Array, wanted: (name: string) => boolean, limits: PartLimits): Map<string, Uint8Array> {
  const entries = directory(bytes).filter((e) => !e.name.endsWith('/') && wanted(e.name));
  if (entries.length > limits.maxParts) throw new ExtractionError('too-large', `It has ${entries.length} parts; at most ${limits.maxParts} are read`);
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  if (declared > limits.maxBytes) throw new ExtractionError('too-large', `Its parts expand to more than ${limits.maxBytes / MiB} MiB (a zip bomb?)`);
  const parts = new Map<string, Uint8Array>();
  for (const e of entries) parts.set(e.name, inflatePart(bytes, e));
  return parts;
}

/** A zip of these parts stored as they are: whatever reads it inflates nothing. */
export function storedZip(parts: Map<string, Uint8Array>): Uint8Array {
  return zipSync(Object.fromEntries(parts), { level: 0 });
}
