import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { fileUriOfText, textUriOf } from '../../../shared/documentUris.js';
import { MAX_URI_CHARS } from '../../../shared/limits.js';

/**
 * URI ↔ path mapping. Everything here is pure string work; whether a path is
 * published (and safe to open) is decided by the library against its index
 * and realpath, never by these functions alone.
 */

/** The `file://` URL a client sees for an absolute path (percent-encoded). */
export function pathToUri(absPath: string): string {
  return pathToFileURL(absPath).href;
}

/**
 * True when `candidate` is `root` or lies below it, compared by whole
 * segments: `/x/docs_evil` is not inside `/x/docs` (the prefix must end at a
 * separator). Both must be absolute; they are normalised here.
 */
export function isInside(root: string, candidate: string): boolean {
  const r = withoutTrailingSep(path.normalize(root));
  const c = withoutTrailingSep(path.normalize(candidate));
  return c === r || c.startsWith(r.endsWith(path.sep) ? r : r + path.sep);
}

/** `/a/b/` → `/a/b`; a filesystem root (`/`, `C:\`) stays as it is. */
function withoutTrailingSep(p: string): string {
  return p.length > 1 && p.endsWith(path.sep) && path.parse(p).root !== p ? p.slice(0, -1) : p;
}

/** Characters pathToFileURL leaves as they are in a path. */
const PLAIN_REL = /^[A-Za-z0-9._/-]+$/;

/**
 * The URI of folder-relative `rel` under `root`, whose own URI (without a
 * trailing slash) is `rootUri`. A plain name is appended as it is, which is
 * what pathToFileURL would make of it, without its resolving and encoding
 * (listing 50,000 files spent half its time there); anything else goes the
 * long way.
 */
export function uriUnder(root: string, rootUri: string, rel: string): string {
  if (path.sep === '/' && PLAIN_REL.test(rel) && !REL_NEEDS_JOIN.test(rel)) return `${rootUri}/${rel}`;
  return pathToUri(joinRel(root, rel));
}

/** A leading or doubled slash, or a `.`/`..` segment: left to path.join to normalise. */
const REL_NEEDS_JOIN = /^\/|\/\/|(^|\/)\.\.?(\/|$)/;

/** The absolute path of folder-relative `rel` (always `/`-separated) under `root`. */
export function joinRel(root: string, rel: string): string {
  // Paths from the index are already clean: plain concatenation (path.join
  // costs more than the stat it precedes); anything with dots or doubled
  // slashes goes through path.join.
  if (path.sep === '/' && rel !== '' && !REL_NEEDS_JOIN.test(rel)) {
    return root.endsWith('/') ? root + rel : `${root}/${rel}`;
  }
  return path.join(root, ...rel.split('/'));
}

/**
 * `candidate` relative to `root` with `/` separators when it lies strictly
 * below it, else null. Both must be absolute and normalised; a string prefix
 * ending at a separator is then a whole-segment match. This is the read
 * path's check, so it avoids path.relative's resolving.
 */
export function relativeBelow(root: string, candidate: string): string | null {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (candidate.length === prefix.length || !candidate.startsWith(prefix)) return null;
  const rest = candidate.slice(prefix.length);
  return path.sep === '/' ? rest : rest.split(path.sep).join('/');
}

/** Decodes each valid %XX to its byte's char and leaves the rest: enough to spot dots and slashes. */
function percentDecodeBytes(s: string): string {
  return s.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// `..` or `.` after any amount of percent-decoding, and either slash.
const DOT_SEGMENT = /(^|[/\\])\.{1,2}($|[/\\])/;

/**
 * Maps a client's URI to an absolute path, or null when the URI is not a
 * plain local `file:` URL. Refuses (null) anything with NUL bytes, dot
 * segments in any spelling (`..`, `%2e%2e`, `..%2F`), encoded slashes, a
 * host other than localhost, or a query/fragment. Never touches the disk.
 */
export function uriToPath(uri: string): string | null {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_URI_CHARS) return null;
  if (uri.includes('\0') || /%00/i.test(uri)) return null;
  if (!/^file:\//i.test(uri)) return null;
  // Check the raw path for dot segments before WHATWG parsing silently
  // normalises them away; decode repeatedly so double encoding is caught.
  let decoded = uri.replace(/^file:(\/\/[^/]*)?/i, '');
  for (let i = 0; i < 4; i++) {
    if (DOT_SEGMENT.test(decoded) || decoded.includes('\0')) return null;
    const next = percentDecodeBytes(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  if (DOT_SEGMENT.test(decoded) || decoded.includes('\0')) return null;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'file:') return null;
  if (url.hostname !== '' && url.hostname !== 'localhost') return null;
  if (url.search !== '' || url.hash !== '') return null;
  let p: string;
  try {
    p = path.sep === '/' ? posixPathOf(url) : fileURLToPath(url); // refuses encoded `/` (and `\` on Windows)
  } catch {
    return null;
  }
  if (!path.isAbsolute(p) || p.includes('\0')) return null;
  // Windows silently drops trailing spaces and dots from names, which would
  // let `docs ` reach `docs`; refuse such segments there.
  if (process.platform === 'win32' && p.split(/[\\/]/).some((s) => /[ .]$/.test(s))) return null;
  // A path that normalises to something else had tricks in it.
  if (path.normalize(p) !== p && path.normalize(p) !== p.replace(/[/\\]+$/, '')) return null;
  return p;
}

/**
 * What fileURLToPath gives for a `file:` URL on POSIX (Node's own steps: no
 * host, no encoded `/`, then percent-decoding), without its per-character
 * loop in script, which made a long URI ten times dearer to map.
 */
function posixPathOf(url: URL): string {
  if (url.hostname !== '') throw new TypeError('File URL host must be "localhost" or empty');
  if (ENCODED_SLASH.test(url.pathname)) throw new TypeError('File URL path must not include encoded / characters');
  return decodeURIComponent(url.pathname);
}

const ENCODED_SLASH = /%2f/i;

/** A `file:` URI of a path of plain characters, which pathToFileURL writes as they are. */
const PLAIN_URI = /^file:\/\/\/[A-Za-z0-9._/-]*$/;

/**
 * The resource a client's URI names, in the spelling the library lists it:
 * the same normalisation reads use (`%26` and `&`, `file://localhost/` and
 * `file:///` name one file), with a document's `?as=text` kept. A URI reads
 * would refuse is its own key, so it matches only itself. Library URIs are
 * already in this form (`pathToUri` of a path round-trips).
 */
export function resourceKey(uri: string): string {
  // The listed spelling of a plain path is its own key: no parsing (most clients send it back as listed).
  if (path.sep === '/' && PLAIN_URI.test(uri) && !uri.endsWith('/') && !REL_NEEDS_JOIN.test(uri.slice(8))) return uri;
  // A key longer than any file's listed URI here names no file, and working it
  // out costs ~80 ns a character (a flood of long non-ASCII subscriptions held
  // the main thread): such a URI is its own key, as a refused one is.
  if (keyLengthAtLeast(uri) > MAX_KEY_CHARS) return uri;
  const fileUri = fileUriOfText(uri);
  const p = uriToPath(fileUri ?? uri);
  if (p === null) return uri;
  const key = fileUri === null ? pathToUri(p) : textUriOf(pathToUri(p));
  return key.length > MAX_KEY_CHARS ? uri : key;
}

/**
 * The longest listed URI a file can have on this system: every byte of the
 * longest path it allows percent-encoded (Linux 4,096 bytes, macOS 1,024; a
 * Windows long path is 32,767 UTF-16 units of up to 3 bytes each), with the
 * scheme and `?as=text`. Longer than a request may carry (MAX_URI_CHARS): a
 * client names such a file in a shorter spelling (raw Unicode), and its
 * updates must still find it.
 */
export const MAX_KEY_CHARS = 3 * (process.platform === 'win32' ? 3 * 32_767 : process.platform === 'darwin' ? 1024 : 4096) + 32;

/**
 * A lower bound on the length of `uri`'s key when it names a path: every raw
 * non-ASCII UTF-16 unit becomes at least 6 characters (2+ UTF-8 bytes, each
 * `%XX`), and every `%XX` of a byte over 0x7F stays 3. A URI naming no path
 * (a non-ASCII host) is its own key, so the bound is never used wrongly.
 */
function keyLengthAtLeast(uri: string): number {
  let n = 0;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c > 0x7f) n += 6;
    else if (c === 0x25 /* % */ && i + 2 < uri.length && HIGH_HEX.has(uri.charCodeAt(i + 1)) && isHex(uri.charCodeAt(i + 2))) {
      n += 3;
      i += 2;
    }
  }
  return n;
}

const HIGH_HEX = new Set([...'89abcdefABCDEF'].map((c) => c.charCodeAt(0)));

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
