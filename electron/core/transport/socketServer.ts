import { chmod, lstat, unlink } from 'node:fs/promises';
import net from 'node:net';

import { isPipePath } from './socketPath.js';

export class SocketInUseError extends Error {
  constructor(readonly socketPath: string) {
    super(`Another MCP Shelf is already serving on ${socketPath}`);
    this.name = 'SocketInUseError';
  }
}

/** True when something accepts connections on `socketPath`. */
export function probeSocket(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(socketPath);
    const done = (alive: boolean) => {
      sock.destroy();
      resolve(alive);
    };
    sock.setTimeout(timeoutMs, () => done(true)); // accepted but silent still counts as alive
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

export interface ListeningSocket {
  path: string;
  server: net.Server;
  /** Stops accepting; resolves when every connection has ended (the socket file is then gone). */
  close(): Promise<void>;
  /** Ends the connections still open at once, written or not (shutdown, past its grace). */
  cut(): void;
}

/**
 * Listens on a Unix socket (owner-only, 0600) or a Windows named pipe. A live
 * socket at the path belongs to another instance and is left alone; a stale
 * socket file (nothing listening) is replaced. Anything else at the path is
 * never deleted.
 */
export async function listenSocket(socketPath: string, onConnection: (socket: net.Socket) => void): Promise<ListeningSocket> {
  const pipe = isPipePath(socketPath);
  if (!pipe) {
    const st = await lstat(socketPath).catch(() => null);
    if (st) {
      if (!st.isSocket()) throw new Error(`${socketPath} exists and is not a socket; not replacing it`);
      if (await probeSocket(socketPath)) throw new SocketInUseError(socketPath);
      await unlink(socketPath);
    }
  } else if (await probeSocket(socketPath)) {
    throw new SocketInUseError(socketPath);
  }

  // Half-open: a client that ends its side still gets its replies (SocketTransport ends ours when they are sent).
  const open = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    onConnection(socket);
  });
  // Bind with a umask that leaves the socket owner-only from its first instant.
  const oldMask = pipe ? null : process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // A deep backlog: a burst of clients connecting at once (many editor windows, a script) waits to be
      // accepted instead of getting EAGAIN while the event loop is busy (the kernel caps it at somaxconn).
      server.listen({ path: socketPath, backlog: 2048 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new SocketInUseError(socketPath);
    throw err;
  } finally {
    if (oldMask !== null) process.umask(oldMask);
  }
  if (!pipe) await chmod(socketPath, 0o600);

  let closing: Promise<void> | null = null;
  return {
    path: socketPath,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => server.close(() => resolve()));
      // server.close() removes the socket file on Unix; nothing to unlink here.
      return closing;
    },
    cut() {
      for (const socket of open) socket.destroy();
    },
  };
}
