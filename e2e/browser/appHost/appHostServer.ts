import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { build } from 'vite';

/**
 * The web host's two origins, as the MCP Apps spec asks of a web host: the
 * host page (with the AppBridge, host.ts built for the browser) on one
 * port, and the sandbox proxy on another, served with the Content Security
 * Policy the view's resource declares (the spec's defaults for what it
 * leaves out), which the view's frame inherits.
 */
export interface AppHost {
  hostUrl: string;
  sandboxUrl: string;
  close(): Promise<void>;
}

/** The spec's CSP for a view: nothing from the network unless declared. */
export function cspHeader(csp: McpUiResourceCsp): string {
  const res = (csp.resourceDomains ?? []).join(' ');
  const list = (domains: string[] | undefined, none: string) => (domains && domains.length > 0 ? domains.join(' ') : none);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${res}`.trim(),
    `style-src 'self' 'unsafe-inline' ${res}`.trim(),
    `img-src 'self' data: ${res}`.trim(),
    `font-src 'self' ${res}`.trim(),
    `media-src 'self' data: ${res}`.trim(),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
  ].join('; ');
}

const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chat</title>
<style>
  html, body { margin: 0; height: 100%; background: #808080; font: 14px system-ui, sans-serif; }
  #chat { position: fixed; inset: 0; }
  #app-frame { display: block; width: 100%; height: 100%; border: 0; }
  /* Inline in a conversation: a column, a message, the view as tall as it asks to be. */
  html.inline, html.inline body { background: #f4f3ee; overflow: auto; }
  html.inline #chat { position: static; max-width: 760px; margin: 24px auto; display: flex; flex-direction: column; gap: 14px; }
  html.inline #chat::before { content: 'Which of my notes mention the plan?'; align-self: flex-end; background: #e8e4d8; padding: 10px 14px; border-radius: 14px; }
  html.inline #app-frame { height: 400px; border: 1px solid #d6d2c4; border-radius: 12px; }
</style></head>
<body><div id="chat"></div><script type="module" src="/host.js"></script></body></html>`;

const sandboxPage = (hostOrigin: string) => `<!doctype html>
<html><head><meta charset="utf-8">
<style>html, body { margin: 0; height: 100%; overflow: hidden; } iframe { display: block; border: 0; width: 100%; height: 100%; }</style>
</head><body><script>
(() => {
  const host = ${JSON.stringify(hostOrigin)};
  const inner = document.createElement('iframe');
  inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  inner.title = 'MCP Shelf';
  document.body.append(inner);
  window.addEventListener('message', (e) => {
    if (e.source === window.parent) {
      if (e.origin !== host) return;
      if (e.data && e.data.method === 'ui/notifications/sandbox-resource-ready') {
        const doc = inner.contentDocument;
        doc.open();
        doc.write(e.data.params.html);
        doc.close();
      } else if (inner.contentWindow) inner.contentWindow.postMessage(e.data, '*');
    } else if (e.source === inner.contentWindow) window.parent.postMessage(e.data, host);
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
})();
</script></body></html>`;

let built: Promise<string> | null = null;

/** host.ts with the official AppBridge, bundled for the browser once per run. */
function hostScript(): Promise<string> {
  built ??= (async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'app-host-'));
    try {
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir: out,
          emptyOutDir: true,
          minify: false,
          lib: { entry: path.resolve('e2e/browser/appHost/host.ts'), formats: ['es'], fileName: () => 'host.js' },
        },
      });
      return await readFile(path.join(out, 'host.js'), 'utf8');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  })();
  return built;
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startAppHost(): Promise<AppHost> {
  const script = await hostScript();
  const hostServer = http.createServer((req, res) => {
    if (req.url === '/host.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOST_PAGE);
    else if (req.url === '/host.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else res.writeHead(404).end();
  });
  const hostPort = await listen(hostServer);
  const hostOrigin = `http://127.0.0.1:${hostPort}`;
  const sandboxServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/sandbox.html') return void res.writeHead(404).end();
    let csp: McpUiResourceCsp = {};
    try {
      csp = JSON.parse(url.searchParams.get('csp') ?? '{}') as McpUiResourceCsp;
    } catch {
      // the restrictive default
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': cspHeader(csp), 'cache-control': 'no-store' })
      .end(sandboxPage(hostOrigin));
  });
  const sandboxPort = await listen(sandboxServer);
  return {
    hostUrl: `${hostOrigin}/host.html`,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}/sandbox.html`,
    async close() {
      await Promise.all([hostServer, sandboxServer].map((s) => new Promise((r) => s.close(r))));
    },
  };
}
