import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { dispatch } from '../../electron/core/service/dispatch.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { startService, type TestService } from '../support/service.js';
import { connectSdkClient, runCli, socketDir } from '../support/shelfProcess.js';

describe('ShelfService on real folders', () => {
  let a: string;
  let b: string;
  let svc: TestService;
  let client: Client;
  let listChanged = 0;

  beforeAll(async () => {
    a = await makeTree({ 'one.txt': '1', '.hidden': 'h', 'skip.log': 'log' });
    b = await makeTree({ 'two.md': '# 2' });
    svc = await startService();
    client = await connectSdkClient(svc.service.socketPath);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
  });

  afterAll(async () => {
    await client?.close();
    await svc?.stop();
    await rm(a, { recursive: true, force: true });
    await rm(b, { recursive: true, force: true });
  });

  const names = async () => (await client.listResources()).resources.map((r) => r.name).sort();

  it('adds folders live: connected clients get list_changed and see the files, and they are saved', async () => {
    const result = await svc.service.addFolders([a, b, path.join(a, 'one.txt'), '/no/such/folder', a]);
    expect(result.added).toEqual([a, b]);
    expect(result.refused).toEqual([
      { path: path.join(a, 'one.txt'), reason: 'Not a folder (files cannot be published alone)' },
      { path: '/no/such/folder', reason: 'Folder not found' },
      { path: a, reason: 'Already published' },
    ]);
    await eventually(() => listChanged > 0, 3000, 'list_changed');
    expect(await names()).toEqual(['one.txt', 'skip.log', 'two.md']);
    // A folder inside a published one, or around it, would publish the same files twice.
    await mkdir(path.join(a, 'sub'));
    expect((await svc.service.addFolders([path.join(a, 'sub'), path.dirname(a)])).refused).toEqual([
      { path: path.join(a, 'sub'), reason: `Already published as part of ${a}` },
      { path: path.dirname(a), reason: `Holds ${a}, which is published on its own: remove that one first` },
    ]);
    await rm(path.join(a, 'sub'), { recursive: true });
    const saved = JSON.parse(await readFile(path.join(svc.dir, 'settings.json'), 'utf8'));
    expect(saved.folders.map((f: { path: string }) => f.path)).toEqual([a, b]);
    const folders = await svc.service.listFolders();
    expect(folders[0]).toMatchObject({ path: a, state: 'watching', fileCount: 2, totalBytes: 4, saved: true, error: null });
  });

  it('applies folder options live (hidden files, .gitignore-style extra patterns)', async () => {
    await svc.service.setFolderOptions(a, { showHidden: true, extraIgnore: ['*.log'] });
    await eventually(async () => JSON.stringify(await names()) === JSON.stringify(['.hidden', 'one.txt', 'two.md']), 3000, 'options applied');
    // Arguments are checked where both hosts call in (dispatch), against the method's schema.
    await expect(dispatch(svc.service, 'setFolderOptions', [a, { bogus: true }])).rejects.toThrow(/Invalid folder options/);
    await expect(dispatch(svc.service, 'setFolderOptions', [a, { extraIgnore: 'x' }])).rejects.toThrow(/Invalid folder options: extraIgnore/);
    await expect(dispatch(svc.service, 'setFolderEnabled', [a, 'yes'])).rejects.toThrow(/Invalid arguments for setFolderEnabled/);
    await expect(dispatch(svc.service, 'installClientConfig', ['notepad'])).rejects.toThrow(/Invalid arguments for installClientConfig/);
  });

  it('disables and enables a folder without forgetting it', async () => {
    const before = listChanged;
    const off = await svc.service.setFolderEnabled(b, false);
    expect(off).toMatchObject({ state: 'disabled', fileCount: 0 });
    await eventually(() => listChanged > before, 3000, 'list_changed on disable');
    expect(await names()).not.toContain('two.md');
    await svc.service.setFolderEnabled(b, true);
    expect(await names()).toContain('two.md');
    // The order of folders is kept.
    expect((await svc.service.listFolders()).map((f) => f.path)).toEqual([a, b]);
  });

  it('lists one folder page by page and previews exactly what a client reads', async () => {
    const page = await svc.service.listResources(b);
    expect(page.resources.map((r) => r.name)).toEqual(['two.md']);
    const preview = await svc.service.readResource(uriOf(b, 'two.md'));
    const viaClient = await client.readResource({ uri: uriOf(b, 'two.md') });
    expect(preview).toEqual({ ok: true, result: { contents: viaClient.contents }, size: 3, kind: 'text' });
    expect(await svc.service.readResource(uriOf(a, 'nope'))).toEqual({
      ok: false,
      error: { code: -32602, message: 'Resource not found', data: { uri: uriOf(a, 'nope') } },
    });
  });

  it('reports status and connected clients with their name', async () => {
    const status = await svc.service.getStatus();
    expect(status).toMatchObject({ socketPath: svc.service.socketPath, connections: 1, folders: 2, files: 3, httpUrl: null });
    const clients = await svc.service.listClients();
    expect(clients).toEqual([expect.objectContaining({ name: 'test-client', version: '1.0.0', transport: 'socket' })]);
    expect(clients[0]?.requests).toBeGreaterThan(3);
  });

  it('gives client snippets that launch the bridge with this socket', async () => {
    const snippets = await svc.service.clientConfigs();
    expect(snippets.map((s) => s.client)).toEqual([
      'claude-desktop',
      'claude-desktop-bundle',
      'vscode',
      'cursor',
      'claude-code',
      'claude-code-project',
      'windsurf',
      'gemini-cli',
      'codex',
      'goose',
    ]);
    const by = (client: string) => snippets.find((s) => s.client === client)?.text ?? '';
    const claude = JSON.parse(by('claude-desktop'));
    expect(claude.mcpServers['mcp-shelf'].args).toEqual([expect.stringMatching(/cli\.js$/), 'connect', '--socket', svc.service.socketPath]);
    expect(by('claude-desktop-bundle')).toMatch(/npm run mcpb.*mcp-shelf\.mcpb/);
    expect(JSON.parse(by('vscode')).servers['mcp-shelf'].type).toBe('stdio');
    expect(by('claude-code')).toMatch(/^claude mcp add mcp-shelf -- .*connect --socket /);
    expect(JSON.parse(by('claude-code-project')).mcpServers['mcp-shelf']).toMatchObject({ type: 'stdio', args: claude.mcpServers['mcp-shelf'].args });
    for (const client of ['windsurf', 'gemini-cli']) expect(JSON.parse(by(client))).toEqual(claude);
    // Codex's TOML, read by a real TOML parser (Python's tomllib), names the same command.
    const toml = spawnSync('python3', ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'], {
      input: by('codex'),
      encoding: 'utf8',
    });
    expect(toml.status, toml.stderr).toBe(0);
    expect(JSON.parse(toml.stdout).mcp_servers['mcp-shelf']).toEqual(claude.mcpServers['mcp-shelf']);
    expect(by('codex')).toMatch(/^# or run: codex mcp add mcp-shelf -- .*connect --socket /);
    // Goose's YAML, read by a YAML parser, is a stdio extension with the same command.
    const goose = (parseYaml(by('goose')) as { extensions: Record<string, { type: string; cmd: string; args: string[]; enabled: boolean }> }).extensions[
      'mcp-shelf'
    ];
    expect(goose).toMatchObject({ type: 'stdio', enabled: true, cmd: claude.mcpServers['mcp-shelf'].command, args: claude.mcpServers['mcp-shelf'].args });
  });

  it('validates settings and applies them live', async () => {
    await expect(svc.service.updateSettings({ maxReadBytes: -1 })).rejects.toThrow(/maxReadBytes/);
    const s = await svc.service.updateSettings({ maxReadBytes: 1 });
    expect(s.maxReadBytes).toBe(1);
    expect((await svc.service.readResource(uriOf(b, 'two.md'))).ok).toBe(false);
    await svc.service.updateSettings({ maxReadBytes: 7 * 1024 * 1024 });
    expect((await svc.service.readResource(uriOf(b, 'two.md'))).ok).toBe(true);
  });

  it('removes a folder: gone from the list, from clients and from settings', async () => {
    await svc.service.removeFolder(b);
    expect(await names()).not.toContain('two.md');
    const saved = JSON.parse(await readFile(path.join(svc.dir, 'settings.json'), 'utf8'));
    expect(saved.folders.map((f: { path: string }) => f.path)).toEqual([a]);
    await expect(svc.service.removeFolder(b)).rejects.toThrow(/Not a published folder/);
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

  it('mcp-shelf serve without FOLDERs serves the saved folders; with FOLDERs it leaves settings alone', async () => {
    const dir = await socketDir();
    const saved = await makeTree({ 'saved.txt': 's' });
    const settingsFile = path.join(dir, 'settings.json');
    const text = JSON.stringify({ folders: [{ path: saved }] });
    await writeFile(settingsFile, text);
    const sock = path.join(dir, 's.sock');
    const init =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n{"jsonrpc":"2.0","id":2,"method":"resources/list"}\n';
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('../support/shelfProcess.js');
    const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await eventually(() => err.includes('listening on'), 10000, 'serve');
      expect(err).toContain(saved);
      const { stdout } = await runCli(['connect', '--socket', sock], init);
      expect(stdout).toContain('saved.txt');
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
    expect(await readFile(settingsFile, 'utf8')).toBe(text);
    await rm(dir, { recursive: true, force: true });
    await rm(saved, { recursive: true, force: true });
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
