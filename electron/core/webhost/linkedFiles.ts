import type http from 'node:http';

import { FILE_LINK_PREFIX, type ShelfService } from '../service/shelfService.js';
import { refuse } from './windowFiles.js';

/**
 * File link responses in flight at once, in total: each holds its file (up to
 * the read limit, 7 MiB) until the reader has taken it, and is read and
 * decoded on the main thread. The window's viewer fetches one at a time; 150
 * readers that never read held 1.6 GB and stalled the host 6 s before this.
 */
export const MAX_FILE_LINK_SERVES = 4;
/** A file link reader that takes nothing for this long is cut, so it cannot keep a slot. */
export const FILE_LINK_STALL_MS = 30_000;

/** Counts the file link responses in flight (one per web host). */
export class FileLinkSlots {
  inFlight = 0;

  /** Takes a slot until the response ends or its reader goes; false: all taken. */
  take(res: http.ServerResponse): boolean {
    if (this.inFlight >= MAX_FILE_LINK_SERVES) return false;
    this.inFlight++;
    res.once('close', () => this.inFlight--);
    return true;
  }
}

/** Whether a request is for a file link (`/file/<id>/<name>`). */
export function isFileLink(url: string | undefined): boolean {
  return (url ?? '').startsWith(FILE_LINK_PREFIX);
}

/**
 * `filename*` in RFC 5987 form (any name, in UTF-8), with a plain ASCII
 * fallback. encodeURIComponent leaves ' ( ) * as they are, which RFC 5987
 * does not allow: Chromium splits the value at each ' and drops one with
 * more than two, falling back to the ASCII name ("café's.pdf" saved as "caf_'s.pdf").
 */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Serves a file link the window minted (ShelfService.fileLink): the id is
 * the capability, the name only what the viewer shows. Read fresh on every
 * fetch, never cached, never embeddable by another origin.
 */
export async function serveFileLink(req: http.IncomingMessage, res: http.ServerResponse, service: ShelfService, slots: FileLinkSlots): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
  if (!slots.take(res)) {
    res.setHeader('retry-after', '1');
    return refuse(res, 503, 'Busy: other file downloads are in progress; try again');
  }
  res.setTimeout(FILE_LINK_STALL_MS, () => res.destroy());
  const [id = '', encodedName = ''] = new URL(req.url ?? '/', 'http://placeholder').pathname.slice(FILE_LINK_PREFIX.length).split('/');
  let name: string;
  try {
    name = decodeURIComponent(encodedName);
  } catch {
    return refuse(res, 400, 'Bad request');
  }
  const file = await service.readLinked(id);
  if (!file) return refuse(res, 404, 'This link has expired or its file is no longer published');
  res.writeHead(200, {
    'content-type': file.mimeType,
    'content-length': file.bytes.length,
    'content-disposition': disposition(name),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : file.bytes);
}
