import http from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import os from 'node:os';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import { MAX_LINE_BYTES } from '../../../shared/limits.js';
import type { MemoryBudget } from '../clientMemory/memoryBudget.js';
import { BudgetedResponse } from './budgetedResponse.js';
import { guardResponse, jsonError, readBody } from './httpResponses.js';
import { hostAllowed, isLoopbackAddress, LOOPBACK_NAMES, originAllowed, sameSecret } from './requestGuards.js';
import { limitConnections } from './tcpSlots.js';

/**
 * What the HTTP endpoint hands its checked requests to (the MCP side:
 * mcp/httpMcp.ts). The endpoint owns bytes ↔ messages; this owns what a
 * message means.
 */
export interface HttpMessages {
  /** A request passed the checks (before its body is read): a session it names was active now. */
  arrived(req: http.IncomingMessage): void;
  /** A POST whose body parsed as JSON within MAX_LINE_BYTES and MAX_BATCH; `raw` is its bytes, for the traffic log. */
  post(req: http.IncomingMessage, res: http.ServerResponse, body: unknown, raw: Buffer): Promise<void>;
  /** A GET or DELETE (a 2025 session's stream, or its end). */
  stream(req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export interface HttpOptions {
  host: string;
  port: number;
  /** null: no token (loopback binds only). */
  token: string | null;
  /** Binding to a non-loopback address needs this, explicitly. */
  allowRemote: boolean;
  messages: HttpMessages;
  /** The memory budget for clients: request bodies and unsent responses count there. */
  memory: MemoryBudget;
  log?: (message: string) => void;
}

export interface HttpEndpoint {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Messages one 2025-03-26 batch may carry. */
const MAX_BATCH = 8;
/** TCP connections kept at once (tcpSlots.ts: the idle longest makes room). */
export const MAX_HTTP_CONNECTIONS = 256;
/** Requests worked on at once, for all clients together; more are told to try again (each may build a reply of megabytes). */
export const MAX_HTTP_IN_FLIGHT = 64;

/** A non-loopback bind needs allowRemote, and a token. */
function checkBind(options: HttpOptions): boolean {
  const remote = !isLoopbackAddress(options.host);
  if (remote && !options.allowRemote) {
    throw new Error(`Refusing to serve HTTP on ${options.host}: it is not a loopback address (pass --http-allow-remote to do it anyway)`);
  }
  if (remote && options.token === null) throw new Error('--http-no-auth is only allowed on a loopback address');
  return remote;
}

/** Names a legitimate client may use for us: loopback, plus this machine's addresses for a remote bind. */
function hostNames(host: string, remote: boolean): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (!remote) return names;
  if (host === '0.0.0.0' || host === '::') {
    for (const list of Object.values(os.networkInterfaces())) {
      for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address}]` : a.address);
    }
  } else names.add(host.includes(':') ? `[${host}]` : host);
  return names;
}

/** The checks every request passes before anything of it is read: Host and Origin (DNS rebinding), the path, then the token. */
function refused(req: http.IncomingMessage, res: http.ServerResponse, port: number, hosts: Set<string>, token: string | null): boolean {
  if (!hostAllowed(req.headers.host, port, hosts) || !originAllowed(req.headers.origin, port, hosts)) {
    jsonError(res, 403, ErrorCodes.invalidRequest, 'Forbidden: Host or Origin is not this server');
    return true;
  }
  const url = new URL(req.url ?? '/', 'http://placeholder');
  if (url.pathname !== '/mcp') {
    jsonError(res, 404, ErrorCodes.methodNotFound, 'Not found: MCP is served at /mcp');
    return true;
  }
  if (token !== null && !sameSecret(/^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim(), token)) {
    jsonError(res, 401, ErrorCodes.invalidRequest, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer realm="mcp-shelf"' });
    return true;
  }
  return false;
}

/** A POST's body as JSON, bounded in bytes and batch size; null when it was answered with an error. */
async function readPost(req: http.IncomingMessage, res: BudgetedResponse, memory: MemoryBudget): Promise<{ body: unknown; raw: Buffer } | null> {
  // The body counts in the memory budget while it is read and handled; past the total, the request is refused.
  const input = memory.account();
  res.once('close', () => input.close());
  const raw = await readBody(req, MAX_LINE_BYTES, (bytes) => {
    input.set('input', bytes);
    return !input.over;
  });
  if (raw === 'too-large') return (jsonError(res, 413, ErrorCodes.invalidRequest, `Message over ${MAX_LINE_BYTES} bytes`), null);
  if (raw === 'busy') return (busy(res, 'the memory it keeps for clients is in use'), null);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return (jsonError(res, 400, ErrorCodes.parseError, 'Parse error'), null);
  }
  // 2025-03-26 allowed JSON-RPC batches; one batch is one POST's work, so it is bounded.
  if (Array.isArray(body) && body.length > MAX_BATCH)
    return (jsonError(res, 400, ErrorCodes.invalidRequest, `Batch of ${body.length} messages; at most ${MAX_BATCH}`), null);
  return { body, raw };
}

/** 503 with the busy error (1007): try again shortly. */
function busy(res: http.ServerResponse, why: string): void {
  jsonError(res, 503, ErrorCodes.serverBusy, `The server is busy: ${why}; try again shortly`, { 'retry-after': '1' });
}

function listen(server: NetServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * MCP Streamable HTTP at /mcp: checks each request (Host and Origin before
 * anything else, then the bearer token), reads a POST's JSON within its
 * bounds, and hands it to `messages`, which routes the protocol eras.
 */
export async function startHttp(options: HttpOptions): Promise<HttpEndpoint> {
  try {
    return await serveHttp(options);
  } catch (err) {
    await options.messages.close(); // not served: nothing of it may stay behind (its session sweep)
    throw err;
  }
}

async function serveHttp(options: HttpOptions): Promise<HttpEndpoint> {
  const { messages, token } = options;
  const remote = checkBind(options);
  const hosts = hostNames(options.host, remote);
  let port = options.port;
  let inFlight = 0;
  const server = http.createServer({ ServerResponse: BudgetedResponse }, (req, res) => {
    void (async () => {
      if (refused(req, res, port, hosts, token)) return;
      if (inFlight >= MAX_HTTP_IN_FLIGHT) return busy(res, `${MAX_HTTP_IN_FLIGHT} requests are being worked on`);
      inFlight++;
      res.once('close', () => inFlight--);
      res.countIn(options.memory.account());
      guardResponse(res);
      messages.arrived(req);
      if (req.method === 'POST') {
        const post = await readPost(req, res, options.memory);
        return post ? messages.post(req, res, post.body, post.raw) : undefined;
      }
      if (req.method === 'GET' || req.method === 'DELETE') return messages.stream(req, res);
      return jsonError(res, 405, ErrorCodes.invalidRequest, 'Method not allowed', { allow: 'GET, POST, DELETE' });
    })().catch((err: Error) => {
      options.log?.(`http: ${err.message}`);
      jsonError(res, 500, ErrorCodes.internalError, 'Internal error');
    });
  });
  limitConnections(server, MAX_HTTP_CONNECTIONS);
  await listen(server, options.port, options.host);
  port = (server.address() as AddressInfo).port;
  if (remote)
    options.log?.(`WARNING: MCP over HTTP is reachable from other machines on ${options.host}:${port}; anyone with the token can read the published folders`);
  const shownHost = remote ? options.host : '127.0.0.1';
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}/mcp`,
    host: options.host,
    port,
    async close() {
      await messages.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
