import { randomBytes } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import mime from 'mime';
import { WebSocketServer, type WebSocket } from 'ws';
import { SHELF_EVENTS, type ShelfEventName, type ShelfEvents, type WireFrame } from '../../shared/shelfApi.js';
import { isInside } from '../library/uriPath.js';
import type { ShelfService } from '../service/shelfService.js';
import { dispatch } from '../service/dispatch.js';
import { APP_CSP } from '../windowOptions.js';
import { hostAllowed, originAllowed, sameSecret } from '../transport/requestGuards.js';

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

const COOKIE = 'mcp_shelf_token';
/** A client this far behind on traffic frames is skipped until it catches up (it can re-query). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;


function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

/**
 * The browser host: the built renderer over HTTP and the ShelfApi over a
 * WebSocket, on 127.0.0.1 only. Every request needs the random token (in the
 * URL once, then an HttpOnly SameSite cookie) and a loopback Host/Origin.
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

  const allowed = (req: http.IncomingMessage, url: URL): boolean =>
    hostAllowed(req.headers.host, port) &&
    originAllowed(req.headers.origin, port) &&
    (sameSecret(url.searchParams.get('token'), token) || sameSecret(cookieToken(req.headers.cookie), token));

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://placeholder');
      if (!allowed(req, url)) return refuse(res, 403, 'Forbidden: open the URL printed by mcp-shelf serve --ui');
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
      if (url.searchParams.has('token')) {
        // Trade the URL token for a cookie and drop it from the address bar.
        res.writeHead(303, {
          location: url.pathname,
          'set-cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
          'cache-control': 'no-store',
        });
        return res.end();
      }
      let rel = decodeURIComponent(url.pathname);
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
    })().catch((err: Error) => {
      if (!res.headersSent) refuse(res, 500, err.message);
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (url.pathname !== '/api' || !allowed(req, url)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  const serveSocket = (ws: WebSocket) => {
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
    ws.on('close', () => unsubscribe.forEach((u) => u()));
    ws.on('error', () => undefined);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
