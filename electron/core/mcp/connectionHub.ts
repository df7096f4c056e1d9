import type { Socket } from 'node:net';

import { createMcpHandler, type McpHttpHandler, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { ClientInfo } from '../../../shared/shelfApi.js';
import { ClientReads, type Requester } from '../access/clientReads.js';
import { type HeldAccount, HeldBytes } from '../clientMemory/heldBytes.js';
import type { Library } from '../library/library.js';
import type { TrafficLog } from '../traffic/trafficLog.js';
import { cancelledRequestId } from '../transport/cancelled.js';
import { SocketTransport, type WireObserver } from '../transport/socketTransport.js';
import { HttpListens } from './httpListens.js';
import { claimOf, type ClientIdentity, type Era, identityOf } from './protocolEra.js';
import { readFastPath } from './readFastPath.js';
import { type RequestProblem, screenRequest } from './requestParams.js';
import { createShelfServer, listChangedThrottle, type ShelfServerOptions } from './shelfServer.js';
import { listenSpellings, type Spelling, UriSpellings } from './uriSpellings.js';

export interface Connection {
  id: number;
  transport: 'socket' | 'http';
  connectedAt: number;
  lastSeen: number;
  requests: number;
  /** Set by the SDK's first exchange (socket, 2025 session) or by the first request (modern HTTP client). */
  era: Era | null;
  identity: ClientIdentity | null;
  /** Its share of the budget for what clients make the server keep (subscribed and listened URIs). */
  held: HeldAccount;
  close(): Promise<void>;
}

export interface HubOptions {
  /** Where connection-level problems go (stderr for the CLI). */
  log?: (message: string) => void;
  /** Records every message of every connection. */
  traffic?: TrafficLog;
  /** What each connection's server offers (the tools switch). */
  server?: ShelfServerOptions;
  /** How client reads are asked about and recorded (default: plain library reads, not recorded). */
  reads?: ClientReads;
  /** Told when a connection (or a modern HTTP client) is gone. */
  connectionClosed?: (connectionId: number) => void;
  /** The budget for what clients make the server keep (default: the standard bounds). */
  held?: HeldBytes;
}

/**
 * The requester a connection stands for. A grant ("Allow this client") can
 * be tied to a socket connection or a 2025 HTTP session, which no other
 * program can use; a modern HTTP client is only a name any request can give.
 */
export function requesterOf(c: Connection): Requester {
  return {
    connectionId: c.id,
    name: c.identity?.name ?? null,
    version: c.identity?.version ?? null,
    protocolVersion: c.identity?.protocolVersion ?? null,
    transport: c.transport,
    connectedAt: c.connectedAt,
    grantable: c.transport === 'socket' || c.era === 'legacy',
  };
}

/** Listens one socket connection may hold open at once (the SDK's default is 1024). */
const MAX_LISTENS_PER_CONNECTION = 8;
/**
 * Socket connections served at once. Each holds a server instance and its
 * buffers (~100–200 KB); past this a new one is told why and closed, so a
 * process opening connections in a loop cannot take the memory of the rest.
 */
const MAX_SOCKET_CONNECTIONS = 1024;
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
  private socketCount = 0;
  private readonly options: HubOptions;
  /** When any client last sent a request (performance.now()); background work yields while they keep coming. */
  lastRequestAt = -Infinity;
  private readonly reads: ClientReads;
  /** What all clients make the server keep, per connection and in total. */
  readonly held: HeldBytes;
  private modern: McpHttpHandler | null = null;
  private stopFeedingHttp: (() => void) | null = null;
  /** The open modern HTTP listens (their URIs' spellings; ended by a cancel). */
  private readonly httpListens = new HttpListens();

  constructor(
    private readonly library: Library,
    options: HubOptions = {},
  ) {
    this.options = { ...options };
    this.reads = options.reads ?? new ClientReads(library);
    this.held = options.held ?? new HeldBytes();
  }

  get size(): number {
    return this.connections.size;
  }

  list(): Connection[] {
    return [...this.connections.values()];
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
    if (this.socketCount >= MAX_SOCKET_CONNECTIONS) {
      const error = { code: ErrorCodes.internalError, message: `Too many connections (${MAX_SOCKET_CONNECTIONS}); close some and connect again` };
      socket.end(`${JSON.stringify({ jsonrpc: '2.0', id: null, error })}\n`);
      socket.destroySoon?.();
      return;
    }
    this.socketCount++;
    socket.once('close', () => this.socketCount--);
    let handle: { close(): Promise<void> } | null = null;
    const connection = this.open('socket', () => handle?.close() ?? Promise.resolve());
    const listens = new SocketListens(connection);
    const observer = this.observe(connection, (message) => {
      const cancelled = cancelledRequestId(message);
      if (cancelled !== undefined) listens.cancelled(cancelled);
    });
    const transport = new SocketTransport(socket, {
      onProtocolError: (message) => this.options.log?.(`connection ${connection.id}: ${message}`),
      observer,
      screen: (request) => screenRequest(request, { envelope: true }) ?? listens.admit(request),
      intercept: readFastPath(
        this.reads,
        () => requesterOf(connection),
        () => connection.era,
      ),
    });
    handle = serveStdio(
      ({ era }) => {
        connection.era = era;
        const shelf = createShelfServer(this.library, {
          ...this.options.server,
          era,
          notifications: 'connection',
          listenedSpellings: (uri) => listens.spellings.of(uri),
          reads: this.reads,
          held: connection.held,
          requester: () => requesterOf(connection),
        });
        if (era === 'legacy') shelf.server.oninitialized = () => this.changed();
        return shelf.server;
      },
      { transport, maxSubscriptions: MAX_LISTENS_PER_CONNECTION, onerror: () => undefined },
    );
    socket.once('close', () => {
      listens.clear();
      this.closed(connection);
    });
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
      reads: this.reads,
      held,
      requester: () =>
        connection
          ? requesterOf(connection)
          : { connectionId: 0, name: null, version: null, protocolVersion: null, transport: 'http', connectedAt: Date.now(), grantable: false },
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
    shelf.server.onerror = () => undefined; // a response to nothing, say: the client's problem, not a crash
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
      { legacy: 'reject', responseMode: 'json', maxSubscriptions: MAX_HTTP_LISTENS, onerror: () => undefined },
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
    const refused = account.hold(cost);
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
      outgoing: (message, bytes, text, preview) => traffic?.record(connection.id, 'out', message, bytes, text, preview),
    };
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

/**
 * The listens of one socket connection, as the SDK's router keeps them (by
 * request id; the same id again replaces; a cancel ends one): their URIs
 * count in the connection's budget, and only files they name have their
 * updates handed to the router. A listen is admitted here, by the screen,
 * only when the SDK will take it (a valid modern request on a connection
 * that is not 2025-era, with room left), so the two agree.
 */
class SocketListens {
  private readonly byId = new Map<string, { spellings: Spelling[]; cost: number }>();
  /** The URIs the listens name, by the resource each names. */
  readonly spellings = new UriSpellings();

  constructor(private readonly connection: Connection) {}

  /** Called by the screen after the params check: null to let the listen through, else why it is refused. */
  admit(request: { method: string; params?: unknown; id?: unknown }): RequestProblem | null {
    if (request.method !== 'subscriptions/listen' || this.connection.era === 'legacy' || claimOf(request) !== 'modern') return null;
    const key = JSON.stringify(request.id);
    const old = this.byId.get(key);
    // The SDK refuses a listen past its limit (a replacement too): nothing changes, nothing to count.
    if (this.byId.size >= MAX_LISTENS_PER_CONNECTION) return null;
    const { spellings, cost } = listenSpellings(request.params);
    const delta = cost - (old?.cost ?? 0);
    if (delta > 0) {
      const refused = this.connection.held.hold(delta);
      if (refused) return { code: ErrorCodes.invalidParams, message: `Listen refused: ${refused}` };
    } else this.connection.held.release(-delta);
    if (old) this.forget(old.spellings);
    this.byId.set(key, { spellings, cost });
    for (const spelling of spellings) this.spellings.add(spelling);
    return null;
  }

  /** A `notifications/cancelled`: the SDK ends the listen with that id, if there is one. */
  cancelled(requestId: string | number): void {
    const key = JSON.stringify(requestId);
    const listen = this.byId.get(key);
    if (!listen) return;
    this.byId.delete(key);
    this.forget(listen.spellings);
    this.connection.held.release(listen.cost);
  }

  clear(): void {
    this.byId.clear();
    this.spellings.clear();
  }

  private forget(spellings: Spelling[]): void {
    for (const spelling of spellings) this.spellings.delete(spelling);
  }
}
