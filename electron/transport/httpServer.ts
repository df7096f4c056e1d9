import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAX_LINE_BYTES } from '../../shared/errorCodes.js';
import type { ConnectionHub } from '../mcp/connectionHub.js';
import { hostAllowed, isLoopbackAddress, LOOPBACK_NAMES, originAllowed, sameSecret } from './requestGuards.js';

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

function jsonError(res: http.ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
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
 * MCP Streamable HTTP at /mcp (the SDK's transport), one session per client,
 * each its own server over the shared library. Host and Origin are checked
 * before anything else (DNS rebinding), then the bearer token.
 */
export async function startHttp(options: HttpOptions): Promise<HttpEndpoint> {
  const { hub, token } = options;
  const remote = !isLoopbackAddress(options.host);
  if (remote && !options.allowRemote) {
    throw new Error(`Refusing to serve HTTP on ${options.host}: it is not a loopback address (pass --http-allow-remote to do it anyway)`);
  }
  if (remote && token === null) throw new Error('--http-no-auth is only allowed on a loopback address');
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; lastSeen: number }>();
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
      const sid = req.headers['mcp-session-id'];
      const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
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
        if (typeof sid === 'string') {
          if (!session) return jsonError(res, 404, -32001, 'Session not found');
          return session.transport.handleRequest(req, res, body);
        }
        if (!isInitializeRequest(body)) return jsonError(res, 400, -32600, 'Bad Request: no session; start with initialize');
        if (sessions.size >= MAX_SESSIONS) return jsonError(res, 503, -32603, 'Too many sessions');
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, { transport, lastSeen: Date.now() }),
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await hub.acceptHttp(transport);
        return transport.handleRequest(req, res, body);
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        if (typeof sid !== 'string') return jsonError(res, 400, -32600, 'Bad Request: Mcp-Session-Id header required');
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
  if (remote) options.log?.(`WARNING: MCP over HTTP is reachable from other machines on ${options.host}:${port}; anyone with the token can read the published folders`);
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
