import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
