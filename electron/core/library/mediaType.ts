import { isUtf8 } from 'node:buffer';

import chardet from 'chardet';
import { Mime } from 'mime';
import otherTypes from 'mime/types/other.js';
import standardTypes from 'mime/types/standard.js';

/**
 * MIME types and the text-or-blob decision. The name decides the type when
 * it can; otherwise the content is sniffed (magic numbers), then falls back
 * to text/plain or application/octet-stream.
 */

const mime = new Mime(standardTypes, otherTypes);
// The registry maps some source-code extensions to unrelated media (`.ts` is
// MPEG transport stream, `.rs` an XML format) or to nothing; in a folder of
// files shared with AI clients these are source code.
mime.define(
  {
    'text/x-typescript': ['ts', 'mts', 'cts'],
    'text/tsx': ['tsx'],
    'text/x-python': ['py', 'pyi'],
    'text/x-rust': ['rs'],
    'text/x-go': ['go'],
    'text/x-kotlin': ['kt', 'kts'],
    'text/x-ruby': ['rb'],
    'text/x-swift': ['swift'],
    'text/x-vue': ['vue'],
    'text/x-svelte': ['svelte'],
    'text/x-scala': ['scala'],
    'text/x-csharp': ['cs'],
    'text/x-c++src': ['cpp', 'cc', 'cxx', 'hpp', 'hh'],
    'text/x-lua': ['lua'],
    'text/x-sql': ['sql'],
    'text/x-toml': ['toml'],
    'text/x-shellscript': ['sh', 'bash', 'zsh'],
    'text/x-dockerfile': ['dockerfile'],
    'text/x-diff': ['diff', 'patch'],
    'text/x-log': ['log'],
  },
  true,
);

/** Bytes needed by the content sniffer. */
export const SNIFF_BYTES = 4100;

export type ContentKind = 'text' | 'blob';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** Which UTF-16 BOM the bytes carry, if any. */
function utf16Bom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (startsWith(bytes, [0xff, 0xfe])) return 'utf-16le';
  if (startsWith(bytes, [0xfe, 0xff])) return 'utf-16be';
  return null;
}

/** The encoding a leading byte-order mark names, or null without one. */
export function bomEncoding(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | null {
  return startsWith(bytes, UTF8_BOM) ? 'utf-8' : utf16Bom(bytes);
}

/**
 * Text when the bytes carry a UTF-8/UTF-16 BOM, or are valid UTF-8 without
 * NUL. `partial` means the bytes are a prefix: a multi-byte sequence cut at
 * the end is then not held against them.
 */
export function contentKind(bytes: Uint8Array, partial = false): ContentKind {
  if (bomEncoding(bytes)) return 'text';
  if (bytes.includes(0)) return 'blob';
  if (isUtf8(bytes)) return 'text';
  if (partial) {
    // Drop up to 3 trailing bytes of a cut sequence and try again.
    for (let cut = 1; cut <= 3 && cut < bytes.length; cut++) {
      if (isUtf8(bytes.subarray(0, bytes.length - cut))) return 'text';
    }
  }
  return 'blob';
}

/**
 * Files whose name says they are binary documents (PDF, Office, zip
 * archives) are blobs whatever their bytes: a small PDF can be valid UTF-8,
 * and as text it would be garbled for every client.
 */
export function binaryByName(fileName: string): boolean {
  const type = typeFromName(fileName);
  return (
    type !== null &&
    (type === 'application/pdf' ||
      type === 'application/zip' ||
      type === 'application/epub+zip' ||
      type.startsWith('application/vnd.openxmlformats-officedocument.') ||
      type.startsWith('application/vnd.oasis.opendocument.') ||
      type.startsWith('application/vnd.ms-'))
  );
}

/** The one legacy encoding recognised (Latin-1 is its subset as far as printable text goes). */
export type LegacyEncoding = 'windows-1252';

/** How much of a file chardet looks at. */
export const LEGACY_SAMPLE_BYTES = 64 * 1024;

/**
 * What rules bytes out as legacy text, counted piece by piece (a large file
 * is looked at in chunks): any NUL, or more than 1% control bytes.
 */
export class LegacyEvidence {
  private bytes = 0;
  private controls = 0;
  private nul = false;

  add(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.nul || chunk.includes(0)) {
      this.nul = true;
      return;
    }
    for (const b of chunk) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) this.controls++;
  }

  /** The encoding to decode with, given the file's name and its first LEGACY_SAMPLE_BYTES; or null (a blob). */
  verdict(fileName: string, sample: Uint8Array): LegacyEncoding | null {
    if (this.bytes === 0 || this.nul || this.controls > this.bytes / 100 || binaryByName(fileName)) return null;
    const byName = typeFromName(fileName);
    const textual = byName !== null && (byName.startsWith('text/') || /[+/](json|xml|javascript|x-sh|x-python|yaml)$/.test(byName));
    if (textual) return 'windows-1252';
    if (byName !== null) return null; // named as something else: an image, an archive…
    const best = chardet.analyse(sample.subarray(0, LEGACY_SAMPLE_BYTES))[0];
    return best && best.confidence >= 20 && /^(ISO-8859-1|windows-1252)$/i.test(best.name) ? 'windows-1252' : null;
  }
}

/**
 * Text in a legacy 8-bit encoding (Windows-1252 / Latin-1, which most old
 * Western text files are): not UTF-8, no NUL, hardly any control bytes, and
 * either named as text or recognised as such by chardet. Returns the
 * encoding to decode with, or null (a blob).
 */
export function legacyEncoding(fileName: string, bytes: Uint8Array): LegacyEncoding | null {
  if (binaryByName(fileName)) return null;
  const evidence = new LegacyEvidence();
  evidence.add(bytes);
  return evidence.verdict(fileName, bytes);
}

/** Decodes text bytes (BOM-aware; the BOM itself is not part of the text). */
export function decodeText(bytes: Uint8Array): string {
  const encoding = utf16Bom(bytes) ?? 'utf-8';
  return new TextDecoder(encoding).decode(bytes);
}

/** The type implied by the file name alone, or null. */
export function typeFromName(fileName: string): string | null {
  const base = fileName.split('/').pop() ?? fileName;
  if (/^(Dockerfile|Containerfile)$/i.test(base)) return 'text/x-dockerfile';
  if (/^(Makefile|GNUmakefile)$/.test(base)) return 'text/x-makefile';
  return mime.getType(base);
}

/**
 * The MIME type a client is told for a file: from its name, else sniffed
 * from `head` (its first SNIFF_BYTES), else by its kind.
 */
export async function mediaType(fileName: string, head: Uint8Array, kind: ContentKind): Promise<string> {
  const byName = typeFromName(fileName);
  if (byName) return byName;
  if (kind === 'blob') {
    // Loaded on first use: most files are named for what they are.
    const { fileTypeFromBuffer } = await import('file-type');
    // A head file-type cannot parse is no known type: served as octet-stream, which is what it is to us.
    const sniffed = await fileTypeFromBuffer(head).catch(() => undefined);
    if (sniffed) return sniffed.mime;
    return 'application/octet-stream';
  }
  return 'text/plain';
}
