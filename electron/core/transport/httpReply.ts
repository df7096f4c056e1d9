import type http from 'node:http';

import type { WireObserver } from './orderedOutput.js';
import type { InterceptedReply } from './socketTransport.js';

/** Resolves once the response can take more, or is gone (the client left, the stall guard or the budget cut it). */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a reply a fast path made (outside the SDK) as one HTTP JSON
 * response to request `id`. A streamed reply goes out piece by piece as the
 * client takes it, so the response holds a chunk, never the file's whole
 * base64 (the SDK's path built a 7 MiB file's 9.3 MB reply as a string, its
 * JSON and its bytes, ~130 ms of the main thread each). JSON-RPC errors are
 * HTTP 200, as the SDK answers them.
 */
export async function sendInterceptedReply(res: http.ServerResponse, id: string | number, reply: InterceptedReply, observer: WireObserver): Promise<void> {
  const idJson = JSON.stringify(id);
  try {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    if ('stream' in reply) {
      const { stream } = reply;
      let bytes = 0;
      const put = async (chunk: Buffer): Promise<boolean> => {
        if (res.destroyed) return false;
        bytes += chunk.length;
        if (!res.write(chunk)) await drained(res);
        return !res.destroyed;
      };
      if (!(await put(Buffer.from(`{"jsonrpc":"2.0","id":${idJson},"result":${stream.head}`)))) return;
      try {
        for await (const piece of stream.body) if (!(await put(piece))) return;
      } catch {
        // The file failed half-way (removed, unreadable): half a body is on the wire and cannot be taken back.
        res.destroy();
        return;
      }
      const tail = Buffer.from(`${stream.tail}}`);
      bytes += tail.length;
      res.end(tail);
      const message = { jsonrpc: '2.0', id, result: stream.logged() };
      observer.outgoing(message, bytes, JSON.stringify(message), 'preview');
      return;
    }
    const message = 'result' in reply ? { jsonrpc: '2.0', id, result: reply.result } : { jsonrpc: '2.0', id, error: reply.error };
    const json =
      'result' in reply && reply.resultJson !== undefined ? `{"jsonrpc":"2.0","id":${idJson},"result":${reply.resultJson}}` : JSON.stringify(message);
    const kept = 'result' in reply ? reply.loggedJson?.() : undefined;
    const body = Buffer.from(json);
    observer.outgoing(message, body.length, kept ? `{"jsonrpc":"2.0","id":${idJson},"result":${kept.text}}` : json, kept?.form);
    res.end(body);
  } finally {
    if ('stream' in reply) reply.stream.close();
    // Written (or dropped with the response): its bytes count as the response's unsent output now.
    reply.lease?.release();
  }
}
