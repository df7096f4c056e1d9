import type { Interceptor } from '../transport/socketTransport.js';
import { claimOf, type Era, modernResultSuffix } from './protocolEra.js';
import { SERVER_INFO } from './shelfServer.js';

/** The first of `paths` that takes a request answers it; one none takes goes to the SDK. */
export function fastPaths(...paths: Interceptor[]): Interceptor {
  return (request, cancel) => {
    for (const take of paths) {
      const reply = take(request, cancel);
      if (reply) return reply;
    }
    return null;
  };
}

/**
 * The era a fast path answers `message` in: its claim when that matches the
 * era the SDK pinned for the connection, or any well-made claim before one
 * is pinned (a raw client may read first); null leaves the request to the
 * SDK, which owns the answers to a malformed envelope, an unknown revision,
 * or a 2025 request on a modern connection.
 */
export function fastPathEra(message: { method: string; params?: unknown }, pinned: Era | null): Era | null {
  const claim = claimOf(message);
  return claim === 'other' || (pinned !== null && claim !== pinned) ? null : claim;
}

const MODERN_SUFFIX = modernResultSuffix(SERVER_INFO);
const MODERN_FIELDS = JSON.parse(`{${MODERN_SUFFIX.slice(1)}}`) as Record<string, unknown>;

/** What a result of `era` carries besides its content: as JSON text to append, and as fields to spread. */
export const eraParts = (era: Era) => (era === 'modern' ? { suffix: MODERN_SUFFIX, fields: MODERN_FIELDS } : { suffix: '', fields: {} });
