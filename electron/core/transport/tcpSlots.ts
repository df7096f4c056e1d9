import type http from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';

/**
 * Bounds the TCP connections an HTTP server keeps, counted from accept,
 * before any token is checked: 21,000 idle connects from any local user
 * once took the process's file descriptors, and then a client's read failed
 * with EMFILE. When all slots are taken, the connection idle longest (no
 * request in flight) makes room, so silent connections can never lock a
 * client out; when every one is busy, the newcomer is closed. Headers must
 * come within HEADERS_MS and a whole request within REQUEST_MS.
 */

const HEADERS_MS = 10_000;
const REQUEST_MS = 30_000;

interface Slot {
  /** Requests in flight (an upgraded socket — a WebSocket — stays busy while it is open). */
  busy: number;
  idleSince: number;
}

/** `server`: an http.Server (of any response class; typed as the net.Server it is, whose 'request' and 'upgrade' it hears). */
export function limitConnections(server: NetServer & { headersTimeout: number; requestTimeout: number }, max: number): void {
  const slots = new Map<Socket, Slot>();
  server.headersTimeout = HEADERS_MS;
  server.requestTimeout = REQUEST_MS;
  server.on('connection', (socket: Socket) => {
    if (slots.size >= max) {
      let idlest: Socket | null = null;
      let since = Number.POSITIVE_INFINITY;
      for (const [s, slot] of slots)
        if (slot.busy === 0 && slot.idleSince < since) {
          idlest = s;
          since = slot.idleSince;
        }
      if (!idlest) return void socket.destroy();
      slots.delete(idlest);
      idlest.destroy();
    }
    slots.set(socket, { busy: 0, idleSince: performance.now() });
    socket.once('close', () => slots.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const slot = slots.get(req.socket);
    if (!slot) return;
    slot.busy++;
    res.once('close', () => {
      slot.busy--;
      slot.idleSince = performance.now();
    });
  });
  server.on('upgrade', (req: http.IncomingMessage) => {
    const slot = slots.get(req.socket);
    if (slot) slot.busy++;
  });
}
