import * as z from 'zod';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import { MAX_URI_CHARS } from '../../../shared/limits.js';
import { classify, methodExists, MODERN_REVISIONS } from './protocolEra.js';

/**
 * The params of every request this server answers, checked before the SDK
 * sees them. The SDK parses spec methods with its own schemas and answers a
 * failure with -32603 and a raw Zod dump (initialize, logging/setLevel) or a
 * -32602 whose message is that dump (tools/call); a client deserves -32602
 * with one short sentence naming the field. The shapes follow the spec's
 * (loose objects: unknown keys and `_meta` pass), plus our own bounds on
 * client-supplied strings and lists.
 */

const uri = z.string().max(MAX_URI_CHARS, `at most ${MAX_URI_CHARS} characters`);
const shortText = z.string().max(1000, 'at most 1000 characters');
const cursor = z.string().max(4096, 'at most 4096 characters');
const implementation = z.looseObject({ name: shortText, version: shortText });
/** URIs one `subscriptions/listen` may name (the SDK sets no bound). */
export const MAX_LISTEN_URIS = 1000;
/**
 * Request ids longer than this are refused: a request's id is kept while it
 * is worked on (a listen's for as long as it lasts), by us and by the SDK.
 */
export const MAX_ID_CHARS = 1024;

const paged = z.looseObject({ cursor: cursor.optional() }).optional();

/**
 * What a 2025 client says of itself at `initialize` (its capabilities and
 * clientInfo, any extra fields included) is kept by the SDK for as long as
 * the connection lasts: at most this much, as JSON.
 */
export const MAX_CLIENT_DESCRIPTION_CHARS = 64 * 1024;
const jsonLength = (v: unknown) => {
  try {
    return JSON.stringify(v ?? null).length;
  } catch {
    return Infinity; // nested too deep to write back out: too much either way
  }
};

const SCHEMAS: Record<string, z.ZodType> = {
  initialize: z
    .looseObject({
      protocolVersion: shortText,
      capabilities: z.looseObject({}),
      clientInfo: implementation,
    })
    .refine((p) => jsonLength(p.capabilities) + jsonLength(p.clientInfo) <= MAX_CLIENT_DESCRIPTION_CHARS, {
      message: `capabilities and clientInfo together at most ${MAX_CLIENT_DESCRIPTION_CHARS} characters of JSON`,
    }),
  'logging/setLevel': z.looseObject({
    level: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']),
  }),
  'resources/list': paged,
  'resources/templates/list': paged,
  'tools/list': paged,
  'resources/read': z.looseObject({ uri }),
  'resources/subscribe': z.looseObject({ uri }),
  'resources/unsubscribe': z.looseObject({ uri }),
  'tools/call': z.looseObject({ name: shortText, arguments: z.record(z.string(), z.unknown()).optional() }),
  'completion/complete': z.looseObject({
    ref: z.discriminatedUnion('type', [
      z.looseObject({ type: z.literal('ref/resource'), uri }),
      z.looseObject({ type: z.literal('ref/prompt'), name: shortText }),
    ]),
    argument: z.looseObject({ name: shortText, value: z.string().max(MAX_URI_CHARS, `at most ${MAX_URI_CHARS} characters`) }),
    context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
  }),
  'subscriptions/listen': z.looseObject({
    notifications: z.looseObject({
      resourcesListChanged: z.boolean().optional(),
      toolsListChanged: z.boolean().optional(),
      promptsListChanged: z.boolean().optional(),
      resourceSubscriptions: z.array(uri).max(MAX_LISTEN_URIS, `at most ${MAX_LISTEN_URIS} URIs`).optional(),
    }),
  }),
};

/** Methods whose schema is `looseObject({ uri })`: most requests (every read). */
const URI_ONLY = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * What the schema of those methods accepts, told without Zod (which copies
 * the params on every read): an object, not an array, with a string `uri`
 * within the bound. Anything else goes to the schema for its message.
 */
function plainUriParams(params: unknown): boolean {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const { uri } = params as { uri?: unknown };
  return typeof uri === 'string' && uri.length <= MAX_URI_CHARS;
}

/** "Invalid params for resources/read: uri: expected string" — one line, first problem only. */
function describe(method: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  const what = issue?.code === 'invalid_type' && issue.message.endsWith('received undefined') ? 'required' : (issue?.message ?? 'malformed');
  return `Invalid params for ${method}: ${where}${what}`;
}

/**
 * The -32602 message for a request whose params do not fit its method, or
 * null when they do (or the method is not one we check: the SDK answers
 * unknown methods with -32601).
 */
function paramsProblem(method: string, params: unknown): string | null {
  if (URI_ONLY.has(method) && plainUriParams(params)) return null;
  const schema = Object.hasOwn(SCHEMAS, method) ? SCHEMAS[method] : undefined;
  if (!schema) return null;
  const r = schema.safeParse(params);
  return r.success ? null : describe(method, r.error);
}

export interface RequestProblem {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The error for a request that cannot be served as sent, else null: an id
 * over MAX_ID_CHARS, a bad envelope or an unknown revision (only when `envelope` is set: on a socket
 * the SDK checks the envelope of a connection's opening request but not of
 * the requests after it), or params that are wrong for the method in the
 * era the request claims. Methods an era does not have are left to the SDK
 * (-32601).
 */
export function screenRequest(message: { method: string; params?: unknown; id?: unknown }, options: { envelope: boolean }): RequestProblem | null {
  if (typeof message.id === 'string' && message.id.length > MAX_ID_CHARS)
    return { code: ErrorCodes.invalidRequest, message: `Invalid Request: the id is longer than ${MAX_ID_CHARS} characters` };
  const c = classify(message);
  if (c.kind === 'reject') return options.envelope ? { code: c.code, message: c.message, ...(c.data !== undefined ? { data: c.data } : {}) } : null;
  if (c.kind === 'modern' && !MODERN_REVISIONS.includes(c.revision)) {
    const requested = c.revision;
    return options.envelope
      ? {
          code: ErrorCodes.unsupportedProtocolVersion,
          message: `Unsupported protocol version: ${requested.slice(0, 100)}`,
          data: { supported: [...MODERN_REVISIONS], requested: requested.slice(0, 100) },
        }
      : null;
  }
  if (!Object.hasOwn(SCHEMAS, message.method) || !methodExists(c.kind, message.method)) return null;
  const problem = paramsProblem(message.method, message.params);
  return problem === null ? null : { code: ErrorCodes.invalidParams, message: problem };
}
