import type { Socket } from 'node:net';

import { createMcpHandler, type McpHttpHandler, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { ClientInfo } from '../../../shared/shelfApi.js';
import type { ClientReads } from '../access/clientReads.js';
import { boundedLog } from '../base/processErrors.js';
import type { CancelHook } from '../base/requestCancel.js';
import { MemoryBudget } from '../clientMemory/memoryBudget.js';
import type { Library } from '../library/library.js';
import type { TrafficLog } from '../traffic/trafficLog.js';
import { cancelledRequestId } from '../transport/cancelled.js';
import { type InterceptedReply, SocketTransport, type WireObserver } from '../transport/socketTransport.js';
import { type Connection, requesterOf } from './connection.js';
import { fastPaths } from './fastPaths.js';
import { HttpListens } from './httpListens.js';
import { listFastPath } from './listFastPath.js';
import { type ClientIdentity, identityOf } from './protocolEra.js';
import { readFastPath } from './readFastPath.js';
import { type RequestProblem, screenRequest } from './requestParams.js';
import { createShelfServer, listChangedThrottle, type ShelfServerOptions } from './shelfServer.js';
import { MAX_LISTENS_PER_CONNECTION, SocketListens } from './socketListens.js';
import { listenSpellings } from './uriSpellings.js';

export interface HubOptions {
  /** Where connection-level problems go (stderr for the CLI). */
  log?: (message: string) => void;
  /** Records every message of every connection. */
  traffic?: TrafficLog;
  /** What each connection's server offers (the tools switch). */
  server?: ShelfServerOptions;
  /** How client reads are asked about and recorded: required, so no hub serves reads unasked or unrecorded. */
  reads: ClientReads;
  /** Told when a connection (or a modern HTTP client) is gone. */
  connectionClosed?: (connectionId: number) => void;
  /** The budget for what clients make the server keep (default: the standard bounds). */
  held?: MemoryBudget;
}

/**
 * Socket connections served at once. Each holds a server instance and its
 * buffers (~100–200 KB); past this a new one is told why and closed, so a
 * process opening connections in a loop cannot take the memory of the rest.
 */
export const MAX_SOCKET_CONNECTIONS = 1024;
/** A connection that says nothing at all this long after connecting is closed (a client sends its first message at once). */
export const HANDSHAKE_MS = 60_000;
/** When every slot is taken, a connection with nothing in flight and silent this long makes room for a newcomer. */
export const EVICT_IDLE_MS = 10_000;
/** Listens over HTTP, for all clients together. */
const MAX_HTTP_LISTENS = 256;
/** A modern HTTP client has no connection: it counts as gone after this long without a request. */
const HTTP_CLIENT_IDLE_MS = 10 * 60 * 1000;
/** Modern HTTP clients remembered at once (keyed by the name they give); the longest idle goes first. */
const MAX_HTTP_CLIENTS = 64;

/**
 * Every live MCP client. A socket connection and a 2025 HTTP session each
 * get one SDK Server, pinned to the era the SDK negotiated; a modern
 * (2026-07-28) HTTP client sends self-contained requests, each answered by a
 * fresh instance, and is shown as one client per name and version.
 */
export class ConnectionHub {
  private readonly connections = new Map<number, Connection>();
  private readonly listeners = new Set<() => void>();
  private readonly httpClients = new Map<string, Connection>();
  private nextId = 1;
  /** The socket connections being served, with their transports (to tell which are idle when all slots are taken). */
  private readonly sockets = new Map<Connection, { transport: SocketTransport; socket: Socket }>();
  private readonly options: HubOptions;
  /** When any client last sent a request (performance.now()); background work yields while they keep coming. */
  lastRequestAt = -Infinity;
  private readonly reads: ClientReads;
  /** What all clients make the server keep, per connection and in total. */
  readonly held: MemoryBudget;
  private modern: McpHttpHandler | null = null;
  private stopFeedingHttp: (() => void) | null = null;
  /** The open modern HTTP listens (their URIs' spellings; ended by a cancel). */
  private readonly httpListens = new HttpListens();
  private readonly sdkLog: (key: string, message: string) => void;
  /** Servers to tell when the tools they list change (a folder began or stopped allowing changes). */
  private readonly toolListeners = new Set<() => void>();
  private readonly onToolsChanged = (listener: () => void): (() => void) => {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  };

  constructor(
    private readonly library: Library,
    options: HubOptions,
  ) {
    this.options = { ...options };
    this.reads = options.reads;
    this.sdkLog = boundedLog((message) => options.log?.(message), 5);
    this.held = options.held ?? new MemoryBudget();
  }

  get size(): number {
    return this.connections.size;
  }

  list(): Connection[] {
    return [...this.connections.values()];
  }

  /** The tools clients are listed changed: every connection is told (notifications/tools/list_changed). */
  toolsChanged(): void {
    for (const l of [...this.toolListeners]) l();
    this.modern?.notify.toolsChanged();
  }

  /** Applies to connections made from now on (a live server's capabilities cannot change); options not named stay. */
  setServerOptions(server: ShelfServerOptions): void {
    this.options.server = { ...this.options.server, ...server };
  }

  /** Told when a client connects, says who it is, or disconnects. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clients(): ClientInfo[] {
    this.expireHttpClients();
    return this.list().map((c) => ({
      id: c.id,
      name: c.identity?.name ?? null,
      version: c.identity?.version ?? null,
      protocolVersion: c.identity?.protocolVersion ?? null,
      transport: c.transport,
      connectedAt: c.connectedAt,
      requests: c.requests,
    }));
  }

  /** Serves MCP on a freshly accepted socket until either side closes it. */
  acceptSocket(socket: Socket): void {
    socket.on('error', () => undefined);
    if (this.sockets.size >= MAX_SOCKET_CONNECTIONS && !this.evictIdlest()) {
      const error = { code: ErrorCodes.internalError, message: `Too many connections (${MAX_SOCKET_CONNECTIONS}); close some and connect again` };
      socket.end(`${JSON.stringify({ jsonrpc: '2.0', id: null, error })}\n`);
      socket.destroySoon?.();
      return;
    }
    let handle: { close(): Promise<void> } | null = null;
    const connection = this.open('socket', () => handle?.close() ?? Promise.resolve());
    const listens = new SocketListens(connection);
    const observer = this.observe(connection, (message) => {
      const cancelled = cancelledRequestId(message);
      if (cancelled !== undefined) listens.cancelled(cancelled);
    });
    const transport = new SocketTransport(socket, {
      memory: connection.held,
      onProtocolError: (message) => this.options.log?.(`connection ${connection.id}: ${message}`),
      observer,
      screen: (request) => screenRequest(request, { envelope: true }) ?? listens.admit(request),
      intercept: fastPaths(
        readFastPath(
          this.reads,
          () => requesterOf(connection),
          () => connection.era,
        ),
        listFastPath(this.library, () => connection.era),
      ),
    });
    this.sockets.set(connection, { transport, socket });
    // Silent from the start: not a client (an MCP client speaks first, at once).
    const handshake = setTimeout(() => {
      if (connection.requests === 0 && transport.messagesIn === 0) {
        this.options.log?.(`connection ${connection.id}: said nothing for ${HANDSHAKE_MS / 1000} s; closed`);
        socket.destroy();
      }
    }, HANDSHAKE_MS);
    handshake.unref();
    handle = serveStdio(
      ({ era }) => {
        connection.era = era;
        const shelf = createShelfServer(this.library, {
          ...this.options.server,
          era,
          notifications: 'connection',
          toolsChanged: this.onToolsChanged,
          listenedSpellings: (uri) => listens.spellings.of(uri),
          reads: this.reads,
          held: connection.held,
          requester: () => requesterOf(connection),
        });
        if (era === 'legacy') shelf.server.oninitialized = () => this.changed();
        return shelf.server;
      },
      { transport, maxSubscriptions: MAX_LISTENS_PER_CONNECTION, onerror: (err) => this.sdkError(`connection ${connection.id}`, err) },
    );
    socket.once('close', () => {
      clearTimeout(handshake);
      this.sockets.delete(connection);
      listens.clear();
      this.closed(connection);
    });
  }

  /**
   * All slots taken: the connection silent longest with nothing in flight
   * (and silent at least EVICT_IDLE_MS) is closed to make room, so idle or
   * silent sockets can never lock a client out. False when none may go.
   */
  private evictIdlest(): boolean {
    const cutoff = Date.now() - EVICT_IDLE_MS;
    let idlest: { connection: Connection; socket: Socket } | null = null;
    for (const [connection, { transport, socket }] of this.sockets) {
      if (!transport.idle || connection.lastSeen > cutoff) continue;
      if (!idlest || connection.lastSeen < idlest.connection.lastSeen) idlest = { connection, socket };
    }
    if (!idlest) return false;
    this.options.log?.(`connection ${idlest.connection.id}: idle while every slot was taken; closed to make room`);
    this.sockets.delete(idlest.connection);
    idlest.socket.destroy();
    return true;
  }

  /**
   * Serves one 2025 Streamable HTTP session. The SDK transport has no wire
   * hook, so its send and onmessage are wrapped to feed the traffic log.
   */
  async acceptHttpSession(transport: Transport): Promise<Connection> {
    let connection: Connection | null = null;
    const held = this.held.account();
    const shelf = createShelfServer(this.library, {
      ...this.options.server,
      era: 'legacy',
      notifications: 'connection',
      toolsChanged: this.onToolsChanged,
      reads: this.reads,
      held,
      requester: () =>
        connection
          ? requesterOf(connection)
          : { connectionId: 0, memory: held, name: null, version: null, protocolVersion: null, transport: 'http', connectedAt: Date.now(), grantable: false },
    });
    connection = this.open('http', () => shelf.server.close(), held);
    connection.era = 'legacy';
    const observer = this.observe(connection);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const json = JSON.stringify(message);
      observer.outgoing(message, Buffer.byteLength(json), json);
      return send(message, options);
    };
    shelf.server.oninitialized = () => this.changed();
    const onclose = shelf.server.onclose;
    shelf.server.onclose = () => {
      onclose?.();
      this.closed(connection);
    };
    // A response to nothing, say: the client's problem, not a crash; said in the log, at most a few a minute.
    shelf.server.onerror = (err) => this.sdkError(`http session ${connection?.id ?? '?'}`, err);
    await shelf.server.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const json = JSON.stringify(message);
      observer.incoming(message, Buffer.byteLength(json), json);
      deliver?.(message, extra);
    };
    return connection;
  }

  /**
   * The handler for modern (2026-07-28) HTTP requests: one instance per
   * request, answered as plain JSON (never an SSE event, which some clients
   * cap at 1 MiB); only `subscriptions/listen` streams, fed from the library.
   */
  modernHttp(): McpHttpHandler {
    if (this.modern) return this.modern;
    const handler = createMcpHandler(
      () =>
        createShelfServer(this.library, {
          ...this.options.server,
          era: 'modern',
          notifications: 'none',
          reads: this.reads,
          requester: (request) => requesterOf(this.httpClientFor(request)),
        }).server,
      { legacy: 'reject', responseMode: 'json', maxSubscriptions: MAX_HTTP_LISTENS, onerror: (err) => this.sdkError('http', err) },
    );
    const listChanged = listChangedThrottle(() => handler.notify.resourcesChanged());
    const unsubscribe = this.library.subscribe({
      listChanged: () => listChanged.changed(),
      updated: (uris) => {
        // The bus routes by exact URI: each update goes out in every spelling an open listen used.
        if (this.httpListens.spellings.empty) return;
        for (const uri of uris) for (const spelling of this.httpListens.spellings.of(uri)) handler.notify.resourceUpdated(spelling);
      },
    });
    this.stopFeedingHttp = () => {
      unsubscribe();
      listChanged.stop();
    };
    this.modern = handler;
    return handler;
  }

  /**
   * A modern HTTP listen's URIs count in the budget while its response stays
   * open (call `release` when it closes), and a cancel naming it calls `end`;
   * null for any other request.
   */
  holdHttpListen(message: unknown, end: () => void): { release(): void } | { problem: RequestProblem } | null {
    const m = message as { id?: unknown; method?: unknown; params?: unknown } | null;
    if (!m || typeof m !== 'object' || m.method !== 'subscriptions/listen') return null;
    const account = this.held.account();
    const { spellings, cost } = listenSpellings(m.params);
    const refused = account.holdUris(cost);
    if (refused) return { problem: { code: ErrorCodes.invalidParams, message: `Listen refused: ${refused}` } };
    const forget = this.httpListens.open(m, spellings, end);
    return {
      release: () => {
        forget();
        account.close();
      },
    };
  }

  /** A modern HTTP `notifications/cancelled`: ends the listen it names (its stream closes). */
  cancelHttpListen(message: unknown): void {
    const requestId = cancelledRequestId(message);
    if (requestId !== undefined) this.httpListens.cancelled(message as { params?: unknown }, requestId);
  }

  /**
   * A modern HTTP `resources/read` taken by the read fast path (the socket's,
   * for the client that sent it), or null for the SDK's handler: a large
   * file then goes out in pieces instead of one reply built whole.
   */
  httpRead(request: { method: string; params?: unknown }, cancel: CancelHook): Promise<InterceptedReply> | null {
    const who = () => requesterOf(this.httpClientFor(request));
    return readFastPath(this.reads, who, () => 'modern')(request, cancel);
  }

  /** The traffic observer of the modern HTTP client that sent this request (one per name and version). */
  httpClientObserver(message: unknown): WireObserver {
    return this.observe(this.httpClientFor(message));
  }

  /** The modern HTTP client that sent this request: one per name and version, made on its first request. */
  private httpClientFor(message: unknown): Connection {
    const identity = message && typeof message === 'object' ? identityOf(message as { method?: unknown; params?: unknown }) : null;
    const key = `${identity?.name ?? ''}\u0000${identity?.version ?? ''}`;
    let connection = this.httpClients.get(key);
    if (!connection) {
      this.expireHttpClients();
      if (this.httpClients.size >= MAX_HTTP_CLIENTS) {
        const oldest = [...this.httpClients.values()].sort((a, b) => a.lastSeen - b.lastSeen)[0];
        if (oldest) this.closed(oldest);
      }
      const created = this.open('http', async () => this.closed(created));
      created.era = 'modern';
      this.httpClients.set(key, created);
      connection = created;
    }
    return connection;
  }

  private expireHttpClients(): void {
    const cutoff = Date.now() - HTTP_CLIENT_IDLE_MS;
    for (const c of this.httpClients.values()) if (c.lastSeen < cutoff) this.closed(c);
  }

  private open(kind: Connection['transport'], close: () => Promise<void>, held = this.held.account()): Connection {
    const now = Date.now();
    const connection: Connection = { id: this.nextId++, transport: kind, connectedAt: now, lastSeen: now, requests: 0, era: null, identity: null, held, close };
    this.connections.set(connection.id, connection);
    this.changed();
    return connection;
  }

  private closed(connection: Connection): void {
    if (!this.connections.delete(connection.id)) return;
    connection.held.close();
    for (const [key, c] of this.httpClients) if (c === connection) this.httpClients.delete(key);
    this.options.traffic?.connectionClosed(connection.id);
    this.options.connectionClosed?.(connection.id);
    this.changed();
  }

  /** Counts requests, learns who the client is, and feeds the traffic log; `onMessage` sees every request and notification. */
  private observe(connection: Connection, onMessage?: (message: { method: string; params?: unknown }) => void): WireObserver {
    const traffic = this.options.traffic;
    return {
      incoming: (message, bytes, text) => {
        const m = message as { method?: unknown; id?: unknown; params?: unknown } | null;
        if (m && typeof m.method === 'string' && m.id !== undefined) {
          this.lastRequestAt = performance.now();
          connection.requests++;
          connection.lastSeen = Date.now();
          const identity = m.method === 'initialize' || connection.era !== 'legacy' ? identityOf(m) : null;
          if (identity && !sameIdentity(identity, connection.identity)) {
            connection.identity = identity;
            traffic?.setClient(connection.id, identity.name === null ? null : identity.version ? `${identity.name} ${identity.version}` : identity.name);
            this.changed();
          }
        }
        if (m && typeof m.method === 'string') onMessage?.(m as { method: string; params?: unknown });
        traffic?.record(connection.id, 'in', message, bytes, text);
      },
      outgoing: (message, bytes, text, form) => traffic?.record(connection.id, 'out', message, bytes, text, form),
    };
  }

  /** What the SDK reports (a client's malformed traffic, mostly): to the log, bounded per source so no client can flood it. */
  private sdkError(source: string, err: Error): void {
    this.sdkLog(source, err.message);
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.list().map((c) => c.close().catch(() => undefined)));
    this.stopFeedingHttp?.();
    await this.modern?.close();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

function sameIdentity(a: ClientIdentity, b: ClientIdentity | null): boolean {
  return b !== null && a.name === b.name && a.version === b.version && a.protocolVersion === b.protocolVersion && a.era === b.era;
}
