import type http from 'node:http';

import { MAX_LINE_BYTES } from '../../../shared/limits.js';
import type { WireObserver } from './socketTransport.js';

/** A JSON-RPC error as a whole HTTP response (no request id: it was never read, or is not ours to answer). */
export function jsonError(res: http.ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** A request header's (first) value. */
export const header = (req: http.IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** A response whose client takes none of it for this long is cut off, as on the socket. */
const STALL_MS = 30_000;
const STALL_CHECK_MS = 5_000;

/**
 * Cuts off a response the client stops reading: every few seconds, unsent
 * output that has not shrunk since the last look counts as stalled, and a
 * stall of STALL_MS destroys the connection (its buffered reply with it).
 */
export function guardResponse(res: http.ServerResponse): void {
  let last = -1;
  let stalledMs = 0;
  const timer = setInterval(() => {
    const pending = res.writableLength;
    if (pending > 0 && pending >= last) stalledMs += STALL_CHECK_MS;
    else stalledMs = 0;
    last = pending;
    if (stalledMs >= STALL_MS) res.destroy();
  }, STALL_CHECK_MS);
  timer.unref();
  const stop = () => clearInterval(timer);
  res.once('finish', stop);
  res.once('close', stop);
}

/** The JSON-RPC messages in an SSE body, for the traffic log (the bytes pass through untouched). */
function sseLogger(observer: WireObserver): (chunk: Uint8Array | null) => void {
  const decoder = new TextDecoder();
  let buffer = '';
  return (chunk) => {
    buffer += chunk === null ? decoder.decode() : decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data === '') continue;
      try {
        observer.outgoing(JSON.parse(data), Buffer.byteLength(data), data);
      } catch {
        // not JSON: nothing to log
      }
    }
    if (buffer.length > MAX_LINE_BYTES) buffer = ''; // a runaway event is not kept for the log
  };
}

/** Writes a web Response to a Node response, logging the JSON-RPC messages it carries. */
export async function sendResponse(res: http.ServerResponse, response: Response, observer: WireObserver): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const log = sseLogger(observer);
    const reader = response.body.getReader();
    // The client went: the stream it was reading is dropped; a cancel that fails has nothing left to free.
    res.on('close', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      log(value);
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    }
    log(null);
    return void res.end();
  }
  // The body's bytes go out as they are (a string of them would be one more copy of a 10 MiB reply); the log
  // parses only a body small enough to keep, and notes a large one by its id and size.
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length <= LOGGED_WHOLE) {
    const text = body.toString('utf8');
    try {
      observer.outgoing(JSON.parse(text), body.length, text);
    } catch {
      // an empty 202, say: nothing to log
    }
  } else {
    const ends = `${body.subarray(0, 256).toString('latin1')} ${body.subarray(body.length - 256).toString('latin1')}`;
    const id = /"id":(-?\d+|"(?:[^"\\]|\\.){0,200}")/.exec(ends)?.[1];
    const message = {
      jsonrpc: '2.0',
      id: id === undefined ? null : (JSON.parse(id) as string | number),
      result: `[a reply of ${body.length} bytes, not kept]`,
    };
    observer.outgoing(message, body.length, JSON.stringify(message), 'preview');
  }
  res.end(body);
}

/** Replies up to this size are parsed for the traffic log; larger ones are logged by their id and size. */
const LOGGED_WHOLE = 1024 * 1024;

/**
 * A request's body, or 'too-large' past `limit` bytes, or 'busy' when
 * `room` says the bytes read so far no longer fit the memory budget (the
 * request is then destroyed).
 */
export function readBody(req: http.IncomingMessage, limit: number, room: (bytes: number) => boolean = () => true): Promise<Buffer | 'too-large' | 'busy'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit || !room(size)) {
        resolve(size > limit ? 'too-large' : 'busy');
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
