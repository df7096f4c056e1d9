import type { WebSocket, WebSocketServer } from 'ws';

import { SHELF_EVENTS, type ShelfEventName, type ShelfEvents, type WireFrame } from '../../../shared/shelfApi.js';
import { dispatch } from '../service/dispatch.js';
import type { ShelfService } from '../service/shelfService.js';

/**
 * Each tab is pinged this often. One that has not answered for
 * SILENT_AFTER_MS (its browser killed, the machine asleep, the network
 * gone, with the socket never closed) no longer counts as a window that can
 * answer an ask, so a client's read is refused at once instead of waiting
 * out the ask's timeout; past DROP_AFTER_MS it is dropped. A tab whose page
 * is merely busy for a few seconds (the browser reads its socket only as the
 * page takes messages) is not cut off.
 */
const HEARTBEAT_MS = 5000;
const SILENT_AFTER_MS = 15_000;
const DROP_AFTER_MS = 60_000;

/** A client this far behind on traffic frames is skipped until it catches up (it can re-query). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** WebSocket close code for a frame this endpoint does not take (RFC 6455: unsupported data). */
const UNSUPPORTED_DATA = 1003;

/** When each tab last answered a ping. */
export type Pongs = WeakMap<WebSocket, number>;

/** Pings every tab; tells the service when one went silent, and drops one silent too long. Returns the timer to clear. */
export function startHeartbeat(wss: WebSocketServer, service: ShelfService, pongs: Pongs): NodeJS.Timeout {
  const heartbeat = setInterval(() => {
    const now = Date.now();
    let wentSilent = false;
    for (const client of wss.clients) {
      const quiet = now - (pongs.get(client) ?? now);
      if (quiet > DROP_AFTER_MS) {
        client.terminate(); // its 'close' detaches the window
        continue;
      }
      if (quiet > SILENT_AFTER_MS && quiet <= SILENT_AFTER_MS + HEARTBEAT_MS) wentSilent = true;
      client.ping();
    }
    if (wentSilent) service.windowsChanged();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return heartbeat;
}

/** One tab's socket: ShelfApi calls in (through dispatch), results and events out. An open tab can answer asks. */
export function serveWindowSocket(ws: WebSocket, service: ShelfService, pongs: Pongs): void {
  pongs.set(ws, Date.now());
  ws.on('pong', () => pongs.set(ws, Date.now()));
  const detach = service.attachWindow(() => Date.now() - (pongs.get(ws) ?? 0) <= SILENT_AFTER_MS);
  const send = (frame: WireFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const unsubscribe = SHELF_EVENTS.map((event) =>
    service.on(event, (payload: ShelfEvents[ShelfEventName]) => {
      if (event === 'traffic' && ws.bufferedAmount > MAX_BUFFERED_BYTES) return;
      send({ type: 'event', event, payload });
    }),
  );
  ws.on('message', (data) => {
    let frame: Partial<Extract<WireFrame, { type: 'call' }>>;
    try {
      frame = JSON.parse(data.toString()) as typeof frame;
    } catch {
      return ws.close(UNSUPPORTED_DATA, 'Frames must be JSON');
    }
    if (frame?.type !== 'call' || typeof frame.id !== 'number') return ws.close(UNSUPPORTED_DATA, 'Expected a call frame');
    const id = frame.id;
    dispatch(service, frame.method, frame.args).then(
      (value) => send({ type: 'result', id, ok: true, value: value ?? null }),
      (err: Error) => send({ type: 'result', id, ok: false, error: err.message }),
    );
  });
  ws.on('close', () => {
    unsubscribe.forEach((u) => u());
    detach();
  });
  ws.on('error', () => undefined);
}
