import { randomBytes } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebSocketServer } from 'ws';

import { WEB_API_PROTOCOL, WEB_TOKEN_PROTOCOL_PREFIX } from '../../../shared/shelfApi.js';
import type { ShelfService } from '../service/shelfService.js';
import { hostAllowed, originAllowed, sameSecret } from '../transport/requestGuards.js';
import { limitConnections } from '../transport/tcpSlots.js';
import { FileLinkSlots, isFileLink, serveFileLink } from './linkedFiles.js';
import { refuse, serveWindowFile } from './windowFiles.js';
import { type Pongs, serveWindowSocket, startHeartbeat } from './windowSocket.js';

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

/** TCP connections to the window's port at once: a few tabs, each a WebSocket and a handful of page loads. */
export const MAX_WINDOW_CONNECTIONS = 128;

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

  const linkSlots = new FileLinkSlots();
  const sameHost = (req: http.IncomingMessage): boolean => hostAllowed(req.headers.host, port) && originAllowed(req.headers.origin, port);
  const server = http.createServer((req, res) => {
    if (!sameHost(req)) return refuse(res, 403, 'Forbidden: Host or Origin is not this server');
    const served = isFileLink(req.url) ? serveFileLink(req, res, service, linkSlots) : serveWindowFile(req, res, rendererRoot);
    served.catch(() => {
      // What went wrong stays on this side: a message can name paths on the machine.
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  const pongs: Pongs = new WeakMap();
  // The token is never echoed back: the server picks the API protocol, or none.
  const wss = new WebSocketServer({
    noServer: true,
    // A change the person edited before approving comes back whole (up to the 10 MiB a change may be, in UTF-8 and JSON).
    maxPayload: 32 * 1024 * 1024,
    handleProtocols: (offered) => (offered.has(WEB_API_PROTOCOL) ? WEB_API_PROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (url.pathname !== '/api' || !sameHost(req) || !sameSecret(protocolToken(req.headers['sec-websocket-protocol']), token)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveWindowSocket(ws, service, pongs));
  });
  const heartbeat = startHeartbeat(wss, service, pongs);

  // Before any token is checked, connections are bounded (the idle longest makes room; see tcpSlots.ts).
  limitConnections(server, MAX_WINDOW_CONNECTIONS);
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
