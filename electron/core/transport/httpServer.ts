import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';

import { NodeStreamableHTTPServerTransport, toWebRequest } from '@modelcontextprotocol/node';
import { classifyInboundRequest, isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/server';

import { MAX_LINE_BYTES } from '../../../shared/errorCodes.js';
import type { ConnectionHub } from '../mcp/connectionHub.js';
import { screenRequest } from '../mcp/requestParams.js';
import { hostAllowed, isLoopbackAddress, LOOPBACK_NAMES, originAllowed, sameSecret } from './requestGuards.js';
import type { WireObserver } from './socketTransport.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** null: no token (loopback binds only). */
  token: string | null;
  /** Binding to a non-loopback address needs this, explicitly. */
  allowRemote: boolean;
  hub: ConnectionHub;
  log?: (message: string) => void;
}

export interface HttpEndpoint {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Sessions idle this long are closed (clients that vanish without DELETE). */
const IDLE_SESSION_MS = 60 * 60 * 1000;
const MAX_SESSIONS = 256;
/** Messages one 2025-03-26 batch may carry. */
const MAX_BATCH = 8;

function jsonError(res: http.ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

const header = (req: http.IncomingMessage, name: string): string | undefined => {
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
function guardResponse(res: http.ServerResponse): void {
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
async function sendResponse(res: http.ServerResponse, response: Response, observer: WireObserver): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const log = sseLogger(observer);
    const reader = response.body.getReader();
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
  const text = await response.text();
  try {
    observer.outgoing(JSON.parse(text), Buffer.byteLength(text), text);
  } catch {
    // an empty 202, say
  }
  res.end(text);
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve('too-large');
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * MCP Streamable HTTP at /mcp, both protocol eras on one endpoint: a
 * 2026-07-28 request (it carries its envelope) goes to the SDK's per-request
 * handler; a 2025 client gets a session (the SDK's session transport), each
 * with its own server over the shared library. Host and Origin are checked
 * before anything else (DNS rebinding), then the bearer token.
 */
export async function startHttp(options: HttpOptions): Promise<HttpEndpoint> {
  const { hub, token } = options;
  const remote = !isLoopbackAddress(options.host);
  if (remote && !options.allowRemote) {
    throw new Error(`Refusing to serve HTTP on ${options.host}: it is not a loopback address (pass --http-allow-remote to do it anyway)`);
  }
  if (remote && token === null) throw new Error('--http-no-auth is only allowed on a loopback address');
  const sessions = new Map<string, { transport: NodeStreamableHTTPServerTransport; lastSeen: number }>();
  let port = options.port;

  // Names a legitimate client may use for us: loopback, plus this machine's addresses for a remote bind.
  const hostNames = (): Set<string> => {
    const names = new Set(LOOPBACK_NAMES);
    if (remote) {
      if (options.host === '0.0.0.0' || options.host === '::') {
        for (const list of Object.values(os.networkInterfaces())) {
          for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address}]` : a.address);
        }
      } else names.add(options.host.includes(':') ? `[${options.host}]` : options.host);
    }
    return names;
  };
  const allowedHosts = hostNames();
  const tokenOk = (auth: string | undefined) => token === null || sameSecret(/^Bearer\s+(.+)$/i.exec(auth ?? '')?.[1]?.trim(), token);

  const server = http.createServer((req, res) => {
    void (async () => {
      if (!hostAllowed(req.headers.host, port, allowedHosts) || !originAllowed(req.headers.origin, port, allowedHosts)) {
        return jsonError(res, 403, -32600, 'Forbidden: Host or Origin is not this server');
      }
      const url = new URL(req.url ?? '/', 'http://placeholder');
      if (url.pathname !== '/mcp') return jsonError(res, 404, -32601, 'Not found: MCP is served at /mcp');
      if (!tokenOk(req.headers.authorization)) {
        return jsonError(res, 401, -32600, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer realm="mcp-shelf"' });
      }
      guardResponse(res);
      const sid = header(req, 'mcp-session-id');
      const session = sid === undefined ? undefined : sessions.get(sid);
      if (session) session.lastSeen = Date.now();
      if (req.method === 'POST') {
        const raw = await readBody(req, MAX_LINE_BYTES);
        if (raw === 'too-large') return jsonError(res, 413, -32600, `Message over ${MAX_LINE_BYTES} bytes`);
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return jsonError(res, 400, -32700, 'Parse error');
        }
        // 2025-03-26 allowed JSON-RPC batches; one batch is one POST's work, so it is bounded.
        if (Array.isArray(body) && body.length > MAX_BATCH) return jsonError(res, 400, -32600, `Batch of ${body.length} messages; at most ${MAX_BATCH}`);
        // Bad params get one short -32602 here; envelope and header errors are the SDK's (with their HTTP statuses).
        const problem = isJSONRPCRequest(body) ? screenRequest(body, { envelope: false }) : null;
        if (problem && isJSONRPCRequest(body)) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: problem }));
        }
        const route = classifyInboundRequest({
          httpMethod: 'POST',
          protocolVersionHeader: header(req, 'mcp-protocol-version'),
          mcpMethodHeader: header(req, 'mcp-method'),
          mcpNameHeader: header(req, 'mcp-name'),
          body,
        });
        if (route.kind !== 'legacy') {
          // 2026-07-28 (or a request the modern path must refuse): no session, one instance per request.
          const observer = hub.httpClientObserver(body);
          observer.incoming(body, raw.length, raw.length <= 4096 ? raw.toString('utf8') : undefined);
          // A listen's URIs are kept while its response stays open: they count in the budget until it closes.
          // Aborting the request ends the SDK's listen, and with it the stream.
          const aborted = new AbortController();
          const held = hub.holdHttpListen(body, () => aborted.abort());
          if (held && 'problem' in held && isJSONRPCRequest(body)) {
            res.writeHead(200, { 'content-type': 'application/json' });
            return void res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: held.problem }));
          }
          // A client that cancels a listen by notification and keeps the stream open (mcp-remote) still ends it.
          hub.cancelHttpListen(body);
          res.on('close', () => {
            aborted.abort();
            if (held && 'release' in held) held.release();
          });
          const request = await toWebRequest(req, body, { signal: aborted.signal });
          return sendResponse(res, await hub.modernHttp().fetch(request, { parsedBody: body }), observer);
        }
        if (sid !== undefined) {
          if (!session) return jsonError(res, 404, -32001, 'Session not found');
          return session.transport.handleRequest(req, res, body);
        }
        if (!isInitializeRequest(body)) return jsonError(res, 400, -32600, 'Bad Request: no session; start with initialize');
        if (sessions.size >= MAX_SESSIONS) {
          // Full: the session idle longest makes room, so idle sessions can never lock a client out.
          let idlest: { transport: NodeStreamableHTTPServerTransport; lastSeen: number } | undefined;
          for (const s of sessions.values()) if (!idlest || s.lastSeen < idlest.lastSeen) idlest = s;
          if (idlest?.transport.sessionId) sessions.delete(idlest.transport.sessionId);
          await idlest?.transport.close().catch(() => undefined);
        }
        const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, { transport, lastSeen: Date.now() }),
          // Replies as plain JSON, never as an SSE event: one client caps an
          // event at 1 MiB, and a file's reply can be 10 MiB. Notifications
          // still reach the session's GET stream.
          enableJsonResponse: true,
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        const connection = await hub.acceptHttpSession(transport);
        await transport.handleRequest(req, res, body);
        // The SDK refused the handshake (a bad Accept header, say): no session began, nothing may stay behind.
        if (transport.sessionId === undefined) await connection.close();
        return;
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        // Sessions and the GET stream are 2025 only; 2026-07-28 clients never use them.
        if (sid === undefined) return jsonError(res, 405, -32600, 'Method not allowed: no session', { allow: 'POST' });
        if (!session) return jsonError(res, 404, -32001, 'Session not found');
        return session.transport.handleRequest(req, res);
      }
      return jsonError(res, 405, -32600, 'Method not allowed', { allow: 'GET, POST, DELETE' });
    })().catch((err: Error) => {
      options.log?.(`http: ${err.message}`);
      jsonError(res, 500, -32603, 'Internal error');
    });
  });

  const sweep = setInterval(() => {
    const cutoff = Date.now() - IDLE_SESSION_MS;
    for (const [, s] of sessions) if (s.lastSeen < cutoff) void s.transport.close();
  }, 60_000);
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  if (remote)
    options.log?.(`WARNING: MCP over HTTP is reachable from other machines on ${options.host}:${port}; anyone with the token can read the published folders`);
  const shownHost = remote ? options.host : '127.0.0.1';
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}/mcp`,
    host: options.host,
    port,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
