import {
  classifyInboundRequest,
  CLIENT_INFO_META_KEY,
  type Implementation,
  LATEST_PROTOCOL_VERSION,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import { keptString } from '../clientMemory/keptString.js';

/**
 * The two protocol eras a connection can speak: `legacy` is 2025-11-25 and
 * older (an `initialize` handshake, then a session), `modern` is 2026-07-28
 * (no handshake; every request carries its protocol version and client
 * capabilities in `params._meta`). The SDK decides a connection's era; these
 * helpers read the same claims for the parts we answer ourselves.
 */
export type Era = 'legacy' | 'modern';

/** The modern revisions this server speaks (the SDK's own list is internal). */
export const MODERN_REVISIONS: readonly string[] = ['2026-07-28'];

/** Methods the 2026-07-28 revision removed: the SDK answers them -32601 there. */
const REMOVED_IN_MODERN = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the SDK's classifier says of one socket message, kept to what we use. */
export type Claim = { kind: 'legacy' } | { kind: 'modern'; revision: string } | { kind: 'reject'; code: number; message: string; data?: unknown };

const NO_CLAIM: Claim = { kind: 'legacy' };
/** Envelopes already found valid, by their JSON: a client sends the same one with every request. */
const validEnvelopes = new Map<string, Claim>();
const MAX_ENVELOPES = 256;
const MAX_ENVELOPE_CHARS = 4096;

function sdkClaim(message: unknown): Claim {
  const c = classifyInboundRequest({ httpMethod: 'POST', body: message });
  if (c.kind === 'legacy') return NO_CLAIM;
  if (c.kind === 'modern') return { kind: 'modern', revision: c.classification.revision ?? 'unknown' };
  return { kind: 'reject', code: c.code, message: c.message, ...(c.data !== undefined ? { data: c.data } : {}) };
}

/**
 * The SDK's classification of one socket request (no HTTP headers; the
 * message already has the JSON-RPC request shape). A request whose `_meta`
 * has no protocol-version key claims nothing and is 2025-era; a modern one
 * whose envelope was seen valid before is modern again. Both skip the SDK's
 * classifier (5–8 µs a call, a third of a small read's time).
 */
export function classify(message: { method: string; params?: unknown }): Claim {
  // Most requests claim nothing (2025 clients): told at once, with nothing to remember.
  if (claimsNothing(message.params)) return NO_CLAIM;
  // The screen and then the read fast path ask about the same message, one after the other.
  let claim = classified.get(message);
  if (!claim) classified.set(message, (claim = classifyUncached(message)));
  return claim;
}

/** Claims by message, held weakly: a client's last message (up to 4 MiB) must not outlive it here. */
const classified = new WeakMap<object, Claim>();

/** A request whose `_meta` is nested too deep to examine (JSON.stringify and the SDK's checks recurse). */
const TOO_DEEP: Claim = { kind: 'reject', code: ErrorCodes.invalidParams, message: 'Invalid _meta envelope: nested too deep' };

function classifyUncached(message: { method: string; params?: unknown }): Claim {
  try {
    return classifyShallow(message);
  } catch (err) {
    // A stack overflow here took the whole server down; the request is refused instead.
    if (err instanceof RangeError) return TOO_DEEP;
    throw err;
  }
}

/** No params, or params whose `_meta` has no protocol-version key: a request that claims no revision. */
function claimsNothing(params: unknown): boolean {
  return params === undefined || (isObject(params) && (params._meta === undefined || (isObject(params._meta) && !(PROTOCOL_VERSION_META_KEY in params._meta))));
}

function classifyShallow(message: { method: string; params?: unknown }): Claim {
  const { params } = message;
  if (claimsNothing(params)) return NO_CLAIM;
  // initialize is classified by more than its envelope: always ask the SDK.
  if (message.method === 'initialize' || !isObject(params) || !isObject(params._meta)) return sdkClaim(message);
  const key = JSON.stringify(params._meta);
  const known = key.length <= MAX_ENVELOPE_CHARS ? validEnvelopes.get(key) : undefined;
  if (known) return known;
  const claim = sdkClaim(message);
  if (claim.kind === 'modern' && key.length <= MAX_ENVELOPE_CHARS) {
    if (validEnvelopes.size >= MAX_ENVELOPES) validEnvelopes.clear();
    validEnvelopes.set(key, claim);
  }
  return claim;
}

/**
 * What a request claims: `legacy` (no envelope claim), `modern` (a valid
 * envelope naming a revision we speak), or `other` — a malformed envelope or
 * an unknown revision, which only the SDK answers (-32602 / -32022).
 */
export function claimOf(message: { method: string; params?: unknown }): Era | 'other' {
  const c = classify(message);
  if (c.kind === 'legacy') return 'legacy';
  if (c.kind === 'modern' && MODERN_REVISIONS.includes(c.revision)) return 'modern';
  return 'other';
}

/** Whether a request of this method exists in that era. */
export function methodExists(era: Era, method: string): boolean {
  return era === 'legacy' ? method !== 'server/discover' && method !== 'subscriptions/listen' : !REMOVED_IN_MODERN.has(method);
}

/** Client-supplied names are cut to this before they are kept or shown (copies of their own: keptString). */
const MAX_NAME_CHARS = 200;
const cut = (v: unknown): string | null => (typeof v === 'string' ? keptString(v, MAX_NAME_CHARS) : null);

export interface ClientIdentity {
  name: string | null;
  version: string | null;
  /** The revision the client speaks on this connection (negotiated, for 2025 clients). */
  protocolVersion: string;
  era: Era;
}

/**
 * Who sent a request, when it says: an `initialize` (2025) names the client
 * and the version it asks for (the server answers with that one when it
 * knows it, else its latest); a modern request names both in `_meta`.
 */
export function identityOf(message: { method?: unknown; params?: unknown }): ClientIdentity | null {
  const params = message.params as Record<string, unknown> | undefined;
  if (!params || typeof params !== 'object') return null;
  if (message.method === 'initialize') {
    const info = params.clientInfo as Record<string, unknown> | undefined;
    const asked = cut(params.protocolVersion);
    return {
      name: cut(info?.name),
      version: cut(info?.version),
      protocolVersion: asked !== null && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION,
      era: 'legacy',
    };
  }
  const meta = params._meta as Record<string, unknown> | undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || !MODERN_REVISIONS.includes(version)) return null;
  const info = meta?.[CLIENT_INFO_META_KEY] as Record<string, unknown> | undefined;
  return { name: cut(info?.name), version: cut(info?.version), protocolVersion: version, era: 'modern' };
}

/**
 * The fields the SDK adds to every cacheable result of a modern request
 * (`resultType`, caching hints, our identity), as JSON text to append to a
 * result object we build ourselves. A file's content may change at any
 * moment, so clients must not cache it: `ttlMs` is 0.
 */
export function modernResultSuffix(serverInfo: Implementation): string {
  return `,"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":${JSON.stringify({ 'io.modelcontextprotocol/serverInfo': serverInfo })}`;
}
