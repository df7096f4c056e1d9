import type { Socket } from 'node:net';
import type { ClientInfo } from '../../shared/shelfApi.js';
import type { Library } from '../library/library.js';
import type { TrafficLog } from '../traffic/trafficLog.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SocketTransport, type WireObserver } from '../transport/socketTransport.js';
import { directReads } from './directReads.js';
import { createShelfServer, type ShelfServer, type ShelfServerOptions } from './shelfServer.js';

export interface Connection {
  id: number;
  transport: 'socket' | 'http';
  connectedAt: number;
  requests: number;
  shelf: ShelfServer;
  close(): Promise<void>;
}

export interface HubOptions {
  /** Where connection-level problems go (stderr for the CLI). */
  log?: (message: string) => void;
  /** Records every message of every connection. */
  traffic?: TrafficLog;
  /** What each connection's server offers (the tools switch). */
  server?: ShelfServerOptions;
}

/** Every live MCP connection, each with its own SDK Server over the shared library. */
export class ConnectionHub {
  private readonly connections = new Map<number, Connection>();
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor(
    private readonly library: Library,
    options: HubOptions = {},
  ) {
    this.options = { ...options };
    this.reads = directReads(library);
  }

  private readonly options: HubOptions;
  private readonly reads: ReturnType<typeof directReads>;

  get size(): number {
    return this.connections.size;
  }

  list(): Connection[] {
    return [...this.connections.values()];
  }

  /** Applies to connections made from now on (a live server's capabilities cannot change). */
  setServerOptions(server: ShelfServerOptions): void {
    this.options.server = server;
  }

  /** Told when a client connects, initializes or disconnects. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clients(): ClientInfo[] {
    return this.list().map((c) => {
      const info = c.shelf.server.getClientVersion();
      return {
        id: c.id,
        name: info?.name ?? null,
        version: info?.version ?? null,
        transport: c.transport,
        connectedAt: c.connectedAt,
        requests: c.requests,
      };
    });
  }

  /** Serves MCP on a freshly accepted socket until either side closes it. */
  acceptSocket(socket: Socket): void {
    socket.on('error', () => undefined);
    void this.attach('socket', (id, observer) =>
      new SocketTransport(socket, {
        onProtocolError: (message) => this.options.log?.(`connection ${id}: ${message}`),
        observer,
        direct: this.reads,
      }),
    ).catch(() => socket.destroy());
  }

  /**
   * Serves one Streamable HTTP session. The SDK transport has no wire hook,
   * so its send and onmessage are wrapped to feed the traffic log.
   */
  async acceptHttp(transport: Transport): Promise<Connection> {
    return this.attach('http', (_id, observer) => {
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        const json = JSON.stringify(message);
        observer.outgoing(message, Buffer.byteLength(json), json);
        return send(message, options);
      };
      return transport;
    }, (observer) => {
      const deliver = transport.onmessage;
      transport.onmessage = (message, extra) => {
        const json = JSON.stringify(message);
        observer.incoming(message, Buffer.byteLength(json), json);
        deliver?.(message, extra);
      };
    });
  }

  /** One SDK Server for one transport, over the shared library, counted and logged. */
  private async attach(
    kind: Connection['transport'],
    makeTransport: (id: number, observer: WireObserver) => Transport,
    afterConnect?: (observer: WireObserver) => void,
  ): Promise<Connection> {
    const id = this.nextId++;
    const traffic = this.options.traffic;
    const shelf = createShelfServer(this.library, this.options.server);
    const connection: Connection = {
      id,
      transport: kind,
      connectedAt: Date.now(),
      requests: 0,
      shelf,
      close: () => shelf.server.close(),
    };
    const observer: WireObserver = {
      incoming: (message, bytes, text) => {
        const m = message as { method?: unknown; id?: unknown } | null;
        if (m && typeof m.method === 'string' && m.id !== undefined) connection.requests++;
        traffic?.record(id, 'in', message, bytes, text);
      },
      outgoing: (message, bytes, text, preview) => traffic?.record(id, 'out', message, bytes, text, preview),
    };
    const transport = makeTransport(id, observer);
    this.connections.set(id, connection);
    shelf.server.oninitialized = () => this.changed();
    shelf.server.onclose = () => {
      shelf.dispose();
      traffic?.connectionClosed(id);
      this.connections.delete(id);
      this.changed();
    };
    // Protocol-level oddities (a response to nothing, say) are the client's problem, not a crash.
    shelf.server.onerror = () => undefined;
    this.changed();
    try {
      await shelf.server.connect(transport);
    } catch (err) {
      this.options.log?.(`connection ${id}: ${(err as Error).message}`);
      this.connections.delete(id);
      shelf.dispose();
      this.changed();
      throw err;
    }
    afterConnect?.(observer);
    return connection;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.list().map((c) => c.close().catch(() => undefined)));
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
