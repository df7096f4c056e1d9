import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * URI ↔ path mapping. Everything here is pure string work; whether a path is
 * published (and safe to open) is decided by the library against its index
 * and realpath, never by these functions alone.
 */

/** The `file://` URL a client sees for an absolute path (percent-encoded). */
export function pathToUri(absPath: string): string {
  return pathToFileURL(absPath).href;
}

/** Splits an absolute path into its segments, platform-aware. */
function segments(absPath: string): string[] {
  const { root } = path.parse(absPath);
  const rest = absPath.slice(root.length).split(path.sep).filter((s) => s !== '');
  return [root, ...rest];
}

/**
 * True when `candidate` is `root` or lies below it, compared segment by
 * segment: `/x/docs_evil` is not inside `/x/docs`. Both must be absolute and
 * normalised (no `..`).
 */
export function isInside(root: string, candidate: string): boolean {
  const r = segments(path.normalize(root));
  const c = segments(path.normalize(candidate));
  if (c.length < r.length) return false;
  return r.every((seg, i) => seg === c[i]);
}

/** The absolute path of folder-relative `rel` (always `/`-separated) under `root`. */
export function joinRel(root: string, rel: string): string {
  return path.join(root, ...rel.split('/'));
}

/** Relative path from `root` to `candidate` with `/` separators; assumes isInside. */
export function relativeInside(root: string, candidate: string): string {
  return path.relative(root, candidate).split(path.sep).join('/');
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
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 8192) return null;
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
    p = fileURLToPath(url); // refuses encoded `/` (and `\` on Windows)
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
