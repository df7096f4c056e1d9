import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { startWebHost, type WebHost } from '../../../../../electron/core/webhost/webHost.js';
import type { WireFrame } from '../../../../../shared/shelfApi.js';
import { makeTree } from '../../../../support/fixtures.js';
import { startService, type TestService } from '../../../../support/service.js';

function get(
  port: number,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathAndQuery, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

function openSocket(port: number, headers: Record<string, string>, protocols: string[] = []): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, protocols, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('web host', () => {
  let svc: TestService;
  let web: WebHost;
  let rendererDir: string;
  let folder: string;

  beforeAll(async () => {
    rendererDir = await mkdtemp(path.join(os.tmpdir(), 'renderer-'));
    await mkdir(path.join(rendererDir, 'assets'));
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>MCP Shelf</title>');
    await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    folder = await makeTree({ 'x.txt': 'x' });
    svc = await startService();
    web = await startWebHost({ service: svc.service, rendererDir, port: 0 });
  });

  afterAll(async () => {
    await web?.close();
    await svc?.stop();
    await rm(rendererDir, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  it('binds to 127.0.0.1 and prints a URL with a random token in its fragment (never sent to a server)', () => {
    expect(web.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${web.port}/#token=[A-Za-z0-9_-]{32}$`));
  });

  it('serves the window (no secret in it) with a CSP, and never sets a cookie', async () => {
    const page = await get(web.port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('MCP Shelf');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(page.headers['set-cookie']).toBeUndefined();
    const asset = await get(web.port, '/assets/app.js');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    // An address in the older ?token= form moves the token to the fragment.
    const old = await get(web.port, `/?token=${web.token}`);
    expect(old.status).toBe(303);
    expect(old.headers.location).toBe(`/#token=${web.token}`);
    expect(old.headers['set-cookie']).toBeUndefined();
    // Never to another host: a path the client spells as `//host` (or `/.//host`) stays on the window.
    for (const away of ['/.//evil.example/', '//evil.example/', '/%2F%2Fevil.example/', '/\\evil.example/']) {
      const moved = await get(web.port, `${away}?token=x`);
      expect(moved.status).toBe(303);
      expect(moved.headers.location).toBe('/#token=x');
    }
    // Escapes resolve to the window or a 404, never to a file outside the renderer.
    for (const escape of ['/assets/../../etc/passwd', '/..%2f..%2f..%2fetc%2fhostname.txt', '/%2e%2e/%2e%2e/etc/hosts.txt']) {
      const res = await get(web.port, escape);
      expect(res.body).not.toMatch(/root:|localhost/);
      expect([200, 404]).toContain(res.status);
    }
  });

  it('opens the API only with the token as a subprotocol, and never echoes it back', async () => {
    const origin = { origin: `http://127.0.0.1:${web.port}` };
    await expect(openSocket(web.port, origin)).rejects.toThrow(/403/);
    await expect(openSocket(web.port, origin, ['mcp-shelf.v1', 'token.wrong-token-wrong-token-wrong-tok'])).rejects.toThrow(/403/);
    // The old cookie is worth nothing now: another server on 127.0.0.1 may well have seen it.
    await expect(openSocket(web.port, { ...origin, cookie: `mcp_shelf_token=${web.token}` })).rejects.toThrow(/403/);
    const ws = await openSocket(web.port, origin, ['mcp-shelf.v1', `token.${web.token}`]);
    expect(ws.protocol).toBe('mcp-shelf.v1');
    ws.close();
  });

  it('refuses a non-loopback Host or Origin even with the token (DNS rebinding)', async () => {
    expect((await get(web.port, '/', { host: `evil.example:${web.port}` })).status).toBe(403);
    expect((await get(web.port, '/', { host: `127.0.0.1:${web.port + 1}` })).status).toBe(403);
    expect((await get(web.port, '/', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(web.port, '/', { host: `localhost:${web.port}`, origin: `http://localhost:${web.port}` })).status).toBe(200);
    const key = ['mcp-shelf.v1', `token.${web.token}`];
    await expect(openSocket(web.port, { origin: 'http://evil.example' }, key)).rejects.toThrow(/403/);
    await expect(openSocket(web.port, { host: `evil.example:${web.port}`, origin: `http://127.0.0.1:${web.port}` }, key)).rejects.toThrow(/403/);
  });

  it('carries a method call and an event over the WebSocket', async () => {
    const ws = await openSocket(web.port, { origin: `http://127.0.0.1:${web.port}` }, ['mcp-shelf.v1', `token.${web.token}`]);
    const frames: WireFrame[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as WireFrame));
    const waitFor = async (pred: (f: WireFrame) => boolean) => {
      for (let i = 0; i < 100; i++) {
        const f = frames.find(pred);
        if (f) return f;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no such frame in ${JSON.stringify(frames).slice(0, 300)}`);
    };
    ws.send(JSON.stringify({ type: 'call', id: 1, method: 'addFolders', args: [[folder]] }));
    expect(await waitFor((f) => f.type === 'result' && f.id === 1)).toEqual({ type: 'result', id: 1, ok: true, value: { added: [folder], refused: [] } });
    const event = (await waitFor((f) => f.type === 'event' && f.event === 'folders')) as Extract<WireFrame, { type: 'event' }>;
    expect((event.payload as Array<{ path: string }>)[0]?.path).toBe(folder);
    ws.send(JSON.stringify({ type: 'call', id: 2, method: 'close', args: [] }));
    expect(await waitFor((f) => f.type === 'result' && f.id === 2)).toMatchObject({ ok: false, error: 'Unknown method: close' });
    ws.close();
  });
});
