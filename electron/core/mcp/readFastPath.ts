import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { Library } from '../library/library.js';
import type { InterceptedReply,Interceptor } from '../transport/socketTransport.js';
import { claimOf, type Era,modernResultSuffix } from './protocolEra.js';
import { readParams } from './requestParams.js';
import { SERVER_INFO } from './shelfServer.js';
import { readToolResult, readToolUri, toolError } from './shelfTools.js';

/** The error response the SDK would build from a thrown error (same code, message and data). */
function errorReply(err: unknown): InterceptedReply {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e.code === 'number' && Number.isSafeInteger(e.code) ? e.code : ErrorCodes.internalError;
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : 'Internal error';
  return { error: { code, message, ...(e.data !== undefined ? { data: e.data } : {}) } };
}

const MODERN_SUFFIX = modernResultSuffix(SERVER_INFO);
const MODERN_FIELDS = JSON.parse(`{${MODERN_SUFFIX.slice(1)}}`) as Record<string, unknown>;

async function readResource(library: Library, params: unknown, era: Era): Promise<InterceptedReply> {
  const parsed = readParams(params);
  if (typeof parsed === 'string') return { error: { code: ErrorCodes.invalidParams, message: parsed } };
  const suffix = era === 'modern' ? MODERN_SUFFIX : '';
  const fields = era === 'modern' ? MODERN_FIELDS : {};
  try {
    const opened = await library.openRead(parsed.uri);
    if ('whole' in opened) {
      const result = { contents: [opened.whole.contents], ...fields };
      return opened.contentsJson === undefined ? { result } : { result, resultJson: `{"contents":[${opened.contentsJson}]${suffix}}` };
    }
    const file = opened.stream;
    const field = file.kind === 'text' ? 'text' : 'blob';
    return {
      stream: {
        head: `{"contents":[{"uri":${JSON.stringify(file.uri)},"mimeType":${JSON.stringify(file.mimeType)},"${field}":"`,
        body: file.pieces(),
        tail: `"}]${suffix}}`,
        logged: () => ({ contents: [{ uri: file.uri, mimeType: file.mimeType, [field]: file.preview() }], ...fields }),
        close: () => file.close(),
      },
    };
  } catch (err) {
    return errorReply(err);
  }
}

/**
 * The read_resource tool, answered like resources/read: the same file, the
 * tool's result shape, failures as `isError` results. A large file is
 * streamed, so a client asking for many large files at once has one of
 * them in memory at a time, not all.
 */
async function readTool(library: Library, uri: string, era: Era): Promise<InterceptedReply> {
  const suffix = era === 'modern' ? MODERN_SUFFIX : '';
  const fields = era === 'modern' ? MODERN_FIELDS : {};
  try {
    const opened = await library.openRead(uri);
    if ('whole' in opened) return { result: { ...readToolResult(opened.whole.contents), ...fields } };
    const file = opened.stream;
    const uriJson = JSON.stringify(file.uri);
    const mimeJson = JSON.stringify(file.mimeType);
    const text = file.kind === 'text';
    return {
      stream: {
        head: text ? '{"content":[{"type":"text","text":"' : `{"content":[{"type":"resource","resource":{"uri":${uriJson},"mimeType":${mimeJson},"blob":"`,
        body: file.pieces(),
        tail: text ? `"}]${suffix}}` : `"}}]${suffix}}`,
        logged: () => ({
          content: [text ? { type: 'text', text: file.preview() } : { type: 'resource', resource: { uri: file.uri, mimeType: file.mimeType, blob: file.preview() } }],
          ...fields,
        }),
        close: () => file.close(),
      },
    };
  } catch (err) {
    return { result: { ...toolError(err), ...fields } };
  }
}

/**
 * `resources/read` (and the read_resource tool) on a socket, answered
 * without the SDK's Server: the same validation, result shape (per era) and
 * errors as the registered handlers,
 * but a large file is streamed in pieces, and a small read skips the SDK's
 * per-request promise chain and schema passes — the hot path of every client.
 *
 * It takes a read whose claim matches the era the SDK pinned for the
 * connection (`eraOf`), or any well-claimed read before the SDK pinned one
 * (a raw client may read first). Anything else — a malformed envelope, an
 * unknown revision, a 2025 request on a modern connection — goes to the
 * SDK, which owns those answers.
 */
export function readFastPath(library: Library, eraOf: () => Era | null, tools: () => boolean): Interceptor {
  return (message) => {
    const toolUri =
      message.method === 'tools/call' && tools() && (message.params as { name?: unknown } | undefined)?.name === 'read_resource'
        ? readToolUri((message.params as { arguments?: unknown }).arguments)
        : null;
    if (message.method !== 'resources/read' && toolUri === null) return null;
    const claim = claimOf(message);
    const era = eraOf();
    if (claim === 'other' || (era !== null && claim !== era)) return null;
    return toolUri === null ? readResource(library, message.params, claim) : readTool(library, toolUri, claim);
  };
}
