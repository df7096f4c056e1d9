import { ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCodes } from '../../shared/errorCodes.js';
import type { Library } from '../library/library.js';
import type { DirectHandler, DirectReply } from '../transport/socketTransport.js';
import { invalidParams } from './shelfServer.js';

/** The error response the SDK would build from a thrown error (same code, message and data). */
function errorReply(err: unknown): DirectReply {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e.code === 'number' && Number.isSafeInteger(e.code) ? e.code : ErrorCodes.internalError;
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : 'Internal error';
  return { error: { code, message, ...(e.data !== undefined ? { data: e.data } : {}) } };
}

async function readResource(library: Library, params: unknown): Promise<DirectReply> {
  const parsed = ReadResourceRequestSchema.safeParse({ method: 'resources/read', params });
  if (!parsed.success) return errorReply(invalidParams('resources/read', parsed.error));
  try {
    const opened = await library.openRead(parsed.data.params.uri);
    if ('whole' in opened) {
      const result = { contents: [opened.whole.contents] };
      return opened.contentsJson === undefined ? { result } : { result, resultJson: `{"contents":[${opened.contentsJson}]}` };
    }
    const file = opened.stream;
    const field = file.kind === 'text' ? 'text' : 'blob';
    return {
      stream: {
        head: `{"contents":[{"uri":${JSON.stringify(file.uri)},"mimeType":${JSON.stringify(file.mimeType)},"${field}":"`,
        body: file.pieces(),
        tail: '"}]}',
        logged: () => ({ contents: [{ uri: file.uri, mimeType: file.mimeType, [field]: file.preview() }] }),
        close: () => file.close(),
      },
    };
  } catch (err) {
    return errorReply(err);
  }
}

/**
 * `resources/read` on a socket, answered without the SDK's Server: the same
 * validation, result and errors as the registered handler (which HTTP
 * sessions use), but a large file is streamed in pieces, and a small read
 * skips the SDK's per-request promise chain, abort controller and second
 * schema pass — the hot path of every client.
 */
export function directReads(library: Library): DirectHandler {
  return (method, params) => (method === 'resources/read' ? readResource(library, params) : null);
}
