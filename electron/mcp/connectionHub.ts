import type { Socket } from 'node:net';
import type { Library } from '../library/library.js';
import { SocketTransport } from '../transport/socketTransport.js';
import { createShelfServer, type ShelfServer } from './shelfServer.js';

export interface Connection {
  id: number;
  transport: 'socket' | 'http';
  connectedAt: number;
  shelf: ShelfServer;
  close(): Promise<void>;
}

export interface HubOptions {
  /** Where connection-level problems go (stderr for the CLI). */
  log?: (message: string) => void;
}

/** Every live MCP connection, each with its own SDK Server over the shared library. */
export class ConnectionHub {
  private readonly connections = new Map<number, Connection>();
  private nextId = 1;

  constructor(
    private readonly library: Library,
    private readonly options: HubOptions = {},
  ) {}

  get size(): number {
    return this.connections.size;
  }

  list(): Connection[] {
    return [...this.connections.values()];
  }

  /** Serves MCP on a freshly accepted socket until either side closes it. */
  acceptSocket(socket: Socket): void {
    const id = this.nextId++;
    const transport = new SocketTransport(socket, {
      onProtocolError: (message) => this.options.log?.(`connection ${id}: ${message}`),
    });
    const shelf = createShelfServer(this.library);
    const connection: Connection = {
      id,
      transport: 'socket',
      connectedAt: Date.now(),
      shelf,
      close: () => shelf.server.close(),
    };
    this.connections.set(id, connection);
    shelf.server.onclose = () => {
      shelf.dispose();
      this.connections.delete(id);
    };
    // Protocol-level oddities (a response to nothing, say) are the client's problem, not a crash.
    shelf.server.onerror = () => undefined;
    socket.on('error', () => undefined);
    shelf.server.connect(transport).catch((err: Error) => {
      this.options.log?.(`connection ${id}: ${err.message}`);
      socket.destroy();
    });
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.list().map((c) => c.close().catch(() => undefined)));
  }
}
