import { randomUUID } from 'node:crypto';
import type http from 'node:http';

import { NodeStreamableHTTPServerTransport, toWebRequest } from '@modelcontextprotocol/node';
import { classifyInboundRequest, isInitializeRequest, isJSONRPCRequest, type JSONRPCRequest } from '@modelcontextprotocol/server';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import { cancelOfSignal } from '../base/requestCancel.js';
import { sendInterceptedReply } from '../transport/httpReply.js';
import { header, jsonError, sendResponse } from '../transport/httpResponses.js';
import type { HttpMessages } from '../transport/httpServer.js';
import type { ConnectionHub } from './connectionHub.js';
import { screenRequest } from './requestParams.js';

/** Sessions idle this long are closed (clients that vanish without DELETE). */
const IDLE_SESSION_MS = 60 * 60 * 1000;
const MAX_SESSIONS = 256;

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  lastSeen: number;
}

/** A JSON-RPC error reply to request `id`, as HTTP 200. */
function errorReply(res: http.ServerResponse, id: JSONRPCRequest['id'], error: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, error }));
}

/**
 * MCP over the HTTP endpoint, both protocol eras on one path: a 2026-07-28
 * request (it carries its envelope) goes to the SDK's per-request handler;
 * a 2025 client gets a session (the SDK's session transport), each with its
 * own server over the shared library. Beside ConnectionHub, as the SDK's
 * createMcpHandler sits beside its transports.
 */
export class McpHttp implements HttpMessages {
  private readonly sessions = new Map<string, Session>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly hub: ConnectionHub) {
    this.sweep = setInterval(() => {
      const cutoff = Date.now() - IDLE_SESSION_MS;
      for (const [, s] of this.sessions) if (s.lastSeen < cutoff) void s.transport.close();
    }, 60_000);
    this.sweep.unref();
  }

  arrived(req: http.IncomingMessage): void {
    const session = this.sessionOf(req);
    if (session) session.lastSeen = Date.now();
  }

  async post(req: http.IncomingMessage, res: http.ServerResponse, body: unknown, raw: Buffer): Promise<void> {
    // Bad params get one short -32602 here; envelope and header errors are the SDK's (with their HTTP statuses).
    const problem = isJSONRPCRequest(body) ? screenRequest(body, { envelope: false }) : null;
    if (problem && isJSONRPCRequest(body)) return errorReply(res, body.id, problem);
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: header(req, 'mcp-protocol-version'),
      mcpMethodHeader: header(req, 'mcp-method'),
      mcpNameHeader: header(req, 'mcp-name'),
      body,
    });
    // 2026-07-28 (or a request the modern path must refuse): no session, one instance per request.
    if (route.kind !== 'legacy') return this.modern(req, res, body, raw, route.kind === 'modern' && route.messageKind === 'request' ? route.message : null);
    const sid = header(req, 'mcp-session-id');
    if (sid !== undefined) {
      const session = this.sessions.get(sid);
      if (!session) return jsonError(res, 404, ErrorCodes.sessionNotFound, 'Session not found');
      return session.transport.handleRequest(req, res, body);
    }
    if (!isInitializeRequest(body)) return jsonError(res, 400, ErrorCodes.invalidRequest, 'Bad Request: no session; start with initialize');
    return this.newSession(req, res, body);
  }

  async stream(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // Sessions and the GET stream are 2025 only; 2026-07-28 clients never use them.
    if (header(req, 'mcp-session-id') === undefined) return jsonError(res, 405, ErrorCodes.invalidRequest, 'Method not allowed: no session', { allow: 'POST' });
    const session = this.sessionOf(req);
    if (!session) return jsonError(res, 404, ErrorCodes.sessionNotFound, 'Session not found');
    return session.transport.handleRequest(req, res);
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
  }

  private sessionOf(req: http.IncomingMessage): Session | undefined {
    const sid = header(req, 'mcp-session-id');
    return sid === undefined ? undefined : this.sessions.get(sid);
  }

  /**
   * A 2026-07-28 request, answered by the SDK's per-request handler (a file
   * read by the read fast path, streamed); its messages go to the traffic
   * log. `request` is set when the SDK's ladder found it a well-made modern
   * request.
   */
  private async modern(req: http.IncomingMessage, res: http.ServerResponse, body: unknown, raw: Buffer, request: JSONRPCRequest | null): Promise<void> {
    const { hub } = this;
    const observer = hub.httpClientObserver(body);
    observer.incoming(body, raw.length, raw.length <= 4096 ? raw.toString('utf8') : undefined);
    // A listen's URIs are kept while its response stays open: they count in the budget until it closes.
    // Aborting the request ends the SDK's listen, and with it the stream.
    const aborted = new AbortController();
    const held = hub.holdHttpListen(body, () => aborted.abort());
    if (held && 'problem' in held && isJSONRPCRequest(body)) return errorReply(res, body.id, held.problem);
    // A client that cancels a listen by notification and keeps the stream open (mcp-remote) still ends it.
    hub.cancelHttpListen(body);
    res.on('close', () => {
      aborted.abort();
      if (held && 'release' in held) held.release();
    });
    const read = request && hub.httpRead(request, cancelOfSignal(aborted.signal));
    if (read && request) return sendInterceptedReply(res, request.id, await read, observer);
    const web = await toWebRequest(req, body, { signal: aborted.signal });
    return sendResponse(res, await hub.modernHttp().fetch(web, { parsedBody: body }), observer);
  }

  /** A 2025 initialize: a new session (the one idle longest makes room when full). */
  private async newSession(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    const { sessions } = this;
    if (sessions.size >= MAX_SESSIONS) {
      // Full: the session idle longest makes room, so idle sessions can never lock a client out.
      let idlest: Session | undefined;
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
    const connection = await this.hub.acceptHttpSession(transport);
    await transport.handleRequest(req, res, body);
    // The SDK refused the handshake (a bad Accept header, say): no session began, nothing may stay behind.
    if (transport.sessionId === undefined) await connection.close();
  }
}
