import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { dispatch } from '../../../../../electron/core/service/dispatch.js';
import { CLI } from '../../../../support/cliPath.js';
import { eventually, makeTree, uriOf } from '../../../../support/fixtures.js';
import { RawClient } from '../../../../support/rawClient.js';
import { startService } from '../../../../support/service.js';

/** A short temp folder for a settings folder and its socket (Unix socket paths are length-limited). */
const socketDir = () => mkdtemp(path.join(os.tmpdir(), 'shs-'));

/**
 * A real ShelfService in this process (its own settings folder, socket and
 * HTTP port), driven as the window and clients drive it; nothing here starts
 * a process (the suites that do are in test/integration).
 */

describe('client strings kept by the service are bounded', () => {
  it('a huge request id and a huge client name are kept cut, and forgotten with the connection', async () => {
    const root = await makeTree({ 'a.txt': 'a' });
    const svc = await startService({ sessionFolders: [root] });
    try {
      const socketPath = (await svc.service.getStatus()).socketPath;
      const c = await RawClient.connect(socketPath);
      const name = 'N'.repeat(500);
      await c.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } });
      const id = 'i'.repeat(2 * 1024 * 1024);
      c.send({ jsonrpc: '2.0', id, method: 'ping' });
      await c.waitFor((m) => m.id === id);
      const clients = await svc.service.listClients();
      expect(clients[0]?.name?.length).toBe(200);
      await eventually(async () => (await svc.service.queryTraffic({ method: 'ping', limit: 10 })).length >= 2, 3000, 'the ping in the log');
      for (const e of await svc.service.queryTraffic({ limit: 50 })) {
        expect(String(e.id ?? '').length).toBeLessThanOrEqual(201);
        expect((e.client ?? '').length).toBeLessThanOrEqual(210);
      }
      c.close();
      await eventually(async () => (await svc.service.listClients()).length === 0, 3000, 'the client gone');
    } finally {
      await svc.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('Streamable HTTP in the service', () => {
  it('shares the library and the traffic log, lists HTTP clients, keeps its token in settings, and offers HTTP snippets', async () => {
    const folder = await makeTree({ 'h.txt': 'over http' });
    const svc = await startService({ sessionFolders: [folder], http: { host: '127.0.0.1', port: 0 } });
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const endpoint = svc.service.httpEndpoint;
    expect(endpoint?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(endpoint?.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const saved = JSON.parse(await readFile(path.join(svc.dir, 'settings.json'), 'utf8'));
    expect(saved.http.token).toBe(endpoint?.token);
    const client = new Client({ name: 'via-http', version: '2.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint?.url as string), { requestInit: { headers: { Authorization: `Bearer ${endpoint?.token}` } } }),
    );
    try {
      expect((await client.readResource({ uri: uriOf(folder, 'h.txt') })).contents[0]).toMatchObject({ text: 'over http' });
      expect(await svc.service.listClients()).toEqual([expect.objectContaining({ name: 'via-http', version: '2.0.0', transport: 'http' })]);
      const reads = svc.service.traffic.query({ method: 'resources/read' });
      expect(reads.map((e) => [e.direction, e.kind, e.client])).toEqual([
        ['in', 'request', 'via-http 2.0.0'],
        ['out', 'response', 'via-http 2.0.0'],
      ]);
      expect((await svc.service.getStatus()).httpUrl).toBe(endpoint?.url);
      const snippets = await svc.service.clientConfigs();
      const claudeHttp = snippets.find((s) => s.client === 'claude-code-http');
      expect(claudeHttp?.text).toBe(`claude mcp add --transport http mcp-shelf ${endpoint?.url} --header 'Authorization: Bearer ${endpoint?.token}'`);
      expect(JSON.parse(snippets.find((s) => s.client === 'vscode-http')?.text ?? '{}').servers['mcp-shelf']).toEqual({
        type: 'http',
        url: endpoint?.url,
        headers: { Authorization: `Bearer ${endpoint?.token}` },
      });
    } finally {
      await client.close();
      await svc.stop();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses a non-loopback bind without the explicit flag, and no-auth on one', async () => {
    await expect(startService({ http: { host: '0.0.0.0', port: 0 } })).rejects.toThrow(/not a loopback address/);
    await expect(startService({ http: { host: '0.0.0.0', port: 0, noAuth: true, allowRemote: true } })).rejects.toThrow(/only allowed on a loopback/);
  });
});

describe('installClientConfig through the ShelfApi (the window’s “Add to …” buttons)', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'home-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('writes the entry with the service’s bridge command', async () => {
    const saved = process.env.HOME;
    process.env.HOME = home;
    const svc = await startService();
    try {
      const result = await svc.service.installClientConfig('cursor');
      expect(result).toMatchObject({ ok: true, action: 'added', file: path.join(home, '.cursor/mcp.json'), backup: null });
      const written = JSON.parse(await readFile(path.join(home, '.cursor/mcp.json'), 'utf8'));
      expect(written.mcpServers['mcp-shelf'].args).toEqual([CLI, 'connect', '--socket', svc.service.socketPath]);
      await expect(dispatch(svc.service, 'installClientConfig', ['notepad'])).rejects.toThrow(/Invalid arguments for installClientConfig/);
    } finally {
      process.env.HOME = saved;
      await svc.stop();
    }
  });
});

describe('settings file', () => {
  it('moves a corrupt file aside, warns, and starts with defaults', async () => {
    const dir = await socketDir();
    await writeFile(path.join(dir, 'settings.json'), '{"folders": [ broken');
    const svc = await startService({}, dir);
    try {
      expect(svc.logs.join('\n')).toMatch(/not valid JSON.*moved it to .*settings\.json\.corrupt-/);
      expect(await svc.service.listFolders()).toEqual([]);
      const files = await readdir(dir);
      expect(files.some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
      expect(await readFile(path.join(dir, files.find((f) => f.startsWith('settings.json.corrupt-')) ?? ''), 'utf8')).toBe('{"folders": [ broken');
    } finally {
      await svc.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('shows a saved folder that is missing at start as missing, and serves it when it appears', async () => {
    const dir = await socketDir();
    const later = path.join(dir, 'later');
    await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ folders: [{ path: later }] }));
    const svc = await startService({}, dir);
    try {
      expect((await svc.service.listFolders())[0]).toMatchObject({ path: later, state: 'missing', error: 'folder is missing' });
      await mkdir(later);
      await writeFile(path.join(later, 'x.txt'), 'x');
      await eventually(async () => (await svc.service.listFolders())[0]?.fileCount === 1, 5000, 'folder served once it appears');
    } finally {
      await svc.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('HTTP with the token', () => {
  it('a handshake the SDK rejects leaves nothing behind; a full session table makes room; a huge batch is refused', async () => {
    const root = await makeTree({ 'a.txt': 'a' });
    const svc = await startService({ sessionFolders: [root], http: { host: '127.0.0.1', port: 0, noAuth: true } });
    const url = (await svc.service.getStatus()).httpUrl as string;
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
    };
    try {
      for (let i = 0; i < 30; i++) expect((await post(initialize, { accept: 'text/html' })).status).toBe(406);
      expect((await svc.service.listClients()).length).toBe(0);
      const first = await post(initialize);
      expect(first.status).toBe(200);
      const firstId = first.headers.get('mcp-session-id') as string;
      for (let i = 0; i < 256; i++) expect((await post(initialize)).status).toBe(200); // one past the 256-session cap
      const stale = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': firstId });
      expect(stale.status).toBe(404); // the idlest session made room
      const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'resources/read', params: { uri: uriOf(root, 'a.txt') } }));
      expect((await post(batch)).status).toBe(400);
    } finally {
      await svc.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('settings the server then refuses are not saved', async () => {
    const svc = await startService();
    try {
      await expect(svc.service.updateSettings({ http: { enabled: true, host: '0.0.0.0', port: 0 } })).rejects.toThrow(/not applied/);
      const saved = JSON.parse(await readFile(path.join(svc.dir, 'settings.json'), 'utf8').catch(() => '{}')) as {
        http?: { host?: string; enabled?: boolean };
      };
      expect(saved.http?.host ?? '127.0.0.1').toBe('127.0.0.1');
      expect((await svc.service.getSettings()).http.host).toBe('127.0.0.1');
      expect((await svc.service.getStatus()).httpUrl).toBeNull();
    } finally {
      await svc.stop();
    }
  });
});
