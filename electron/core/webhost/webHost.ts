import { randomBytes } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import mime from 'mime';
import { type WebSocket, WebSocketServer } from 'ws';

import { SHELF_EVENTS, type ShelfEventName, type ShelfEvents, WEB_API_PROTOCOL, WEB_TOKEN_PROTOCOL_PREFIX, type WireFrame } from '../../../shared/shelfApi.js';
import { isInside } from '../library/uriPath.js';
import { dispatch } from '../service/dispatch.js';
import type { ShelfService } from '../service/shelfService.js';
import { hostAllowed, originAllowed, sameSecret } from '../transport/requestGuards.js';
import { APP_CSP } from './windowCsp.js';

export interface WebHostOptions {
  service: ShelfService;
  /** The built renderer (index.html and assets). */
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  token?: string;
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

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

function protocolToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  for (const p of (value ?? '').split(',')) {
    const t = p.trim();
    if (t.startsWith(WEB_TOKEN_PROTOCOL_PREFIX)) return t.slice(WEB_TOKEN_PROTOCOL_PREFIX.length);
  }
  return undefined;
}

/**
 * The browser host: the built renderer over HTTP and the ShelfApi over a
 * WebSocket, on 127.0.0.1 only, every request with a loopback Host/Origin.
 *
 * The API needs the random token. It is printed in the URL's fragment (never
 * sent to a server, never in a log or a Referer); the page keeps it in
 * sessionStorage, which is private to this origin — scheme, host *and port*
 * — and sends it as a WebSocket subprotocol. A cookie cannot do that: cookies
 * are not scoped by port, so every other server on 127.0.0.1 would receive
 * it. The page itself (static files, no secret in them) needs no token.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const { service } = options;
  const rendererRoot = await realpath(options.rendererDir).catch(() => options.rendererDir);
  let port = options.port;

  const refuse = (res: http.ServerResponse, code: number, message: string) => {
    res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`${message}\n`);
  };

  const sameHost = (req: http.IncomingMessage): boolean => hostAllowed(req.headers.host, port) && originAllowed(req.headers.origin, port);

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://placeholder');
      if (!sameHost(req)) return refuse(res, 403, 'Forbidden: Host or Origin is not this server');
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
      if (url.searchParams.has('token')) {
        // An address in the older ?token= form: the token moves to the fragment, out of logs and Referers.
        res.writeHead(303, {
          location: `${url.pathname}#token=${encodeURIComponent(url.searchParams.get('token') ?? '')}`,
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        });
        return res.end();
      }
      let rel: string;
      try {
        rel = decodeURIComponent(url.pathname);
      } catch {
        return refuse(res, 400, 'Bad request'); // a malformed % escape: said plainly, nothing of the parser's message
      }
      if (rel === '/' || !path.extname(rel)) rel = '/index.html';
      const file = path.join(rendererRoot, rel);
      const st = await stat(file).catch(() => null);
      if (!isInside(rendererRoot, file) || !st?.isFile()) {
        if (rel === '/index.html') return refuse(res, 503, 'The window is not built: run npm run build');
        return refuse(res, 404, 'Not found');
      }
      res.writeHead(200, {
        'content-type': mime.getType(file) ?? 'application/octet-stream',
        'content-security-policy': APP_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': rel === '/index.html' ? 'no-store' : 'max-age=3600',
      });
      if (req.method === 'HEAD') return res.end();
      res.end(await readFile(file));
    })().catch(() => {
      // What went wrong stays on this side: a message can name paths on the machine.
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  // The token is never echoed back: the server picks the API protocol, or none.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024 * 1024,
    handleProtocols: (offered) => (offered.has(WEB_API_PROTOCOL) ? WEB_API_PROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (url.pathname !== '/api' || !sameHost(req) || !sameSecret(protocolToken(req.headers['sec-websocket-protocol']), token)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  const lastPong = new WeakMap<WebSocket, number>();
  const heartbeat = setInterval(() => {
    const now = Date.now();
    let wentSilent = false;
    for (const client of wss.clients) {
      const quiet = now - (lastPong.get(client) ?? now);
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

  const serveSocket = (ws: WebSocket) => {
    // An open tab can answer asks (ask-before-read folders).
    lastPong.set(ws, Date.now());
    ws.on('pong', () => lastPong.set(ws, Date.now()));
    const detach = service.attachWindow(() => Date.now() - (lastPong.get(ws) ?? 0) <= SILENT_AFTER_MS);
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
        return ws.close(1003, 'Frames must be JSON');
      }
      if (frame?.type !== 'call' || typeof frame.id !== 'number') return ws.close(1003, 'Expected a call frame');
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
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    async close() {
      clearInterval(heartbeat);
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
