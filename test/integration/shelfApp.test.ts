import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APP_TOOLS, APP_URI } from '../../shared/shelfApp.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';
import { connectWebApi } from '../support/webApi.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = path.join(ROOT, '.venv-py', 'bin', 'python');
const BROWSE_SCRIPT = path.join(ROOT, 'test', 'integration', 'interop', 'python_browse.py');
if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run "npm run setup:python" (npm test does)`);

const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const PLAN = '# Plan\n\nShip the shelf inside the chat.\n';

type Way = 'modern bridge' | 'legacy bridge' | 'modern http' | 'legacy http';

/**
 * The in-chat app (MCP Apps) against the real CLI: what a host without the
 * extension gets (browse_shelf in text, from the official TypeScript and
 * Python SDKs), what a host with it gets (the view's tools marked for the
 * app, the ui:// view on the socket and over HTTP in both revisions), and
 * that the view's reads follow the shelf's rules and are filed as its own.
 */
describe('the in-chat app', () => {
  let root: string;
  let shelf: ShelfProcess;
  const clients: Client[] = [];

  async function connect(way: Way, capabilities: object, name: string = way): Promise<Client> {
    const c = new Client(
      { name, version: '1.0.0' },
      { capabilities: capabilities as never, versionNegotiation: { mode: way.startsWith('modern') ? { pin: '2026-07-28' } : 'legacy' } },
    );
    await c.connect(
      way.endsWith('bridge')
        ? new StdioClientTransport({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' })
        : new StreamableHTTPClientTransport(new URL(shelf.http?.url as string), { requestInit: { headers: { Authorization: `Bearer ${shelf.http?.token}` } } }),
    );
    clients.push(c);
    return c;
  }

  beforeAll(async () => {
    root = await makeTree({ 'notes/plan.md': PLAN, 'notes/todo.txt': 'buy milk\n', 'code/main.ts': 'export const x = 1;\n', '.env': 'SECRET=1\n' });
    shelf = await startShelf([root], ['--http', '0', '--ui', '--ui-port', '0']);
    // The first search answers once the index has the folder.
    const c = await connect('modern bridge', {}, 'warm-up');
    await eventually(
      async () => {
        const r = await c.callTool({ name: 'search_resources', arguments: { query: 'plan' } });
        return !(r.structuredContent as { indexing?: boolean }).indexing && (r.structuredContent as { results: unknown[] }).results.length > 0;
      },
      10_000,
      'the search index',
    );
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('a host without the extension (TypeScript SDK): browse_shelf answers in text a model can use — the files and how to read them', async () => {
    const c = await connect('modern bridge', {});
    const { tools } = await c.listTools();
    // The view's own tools are not listed to a client that shows no apps (VS Code, which shows them without declaring the extension, is known: clientProfiles.ts).
    expect(tools.map((t) => t.name)).toEqual(['list_resources', 'read_resource', 'list_directory', 'search_resources', 'grep_resources', 'browse_shelf']);

    const found = await c.callTool({ name: 'browse_shelf', arguments: { query: 'plan' } });
    const text = (found.content[0] as { text: string }).text;
    expect(text).toContain(`- ${path.basename(root)}: ${root} (3 files)`);
    expect(text).toContain(`Files whose path matches "plan":\n  ${uriOf(root, 'notes/plan.md')} (text/markdown, ${PLAN.length} B)`);
    expect(text).toContain(`Files whose text matches "plan", best first (line: snippet):\n  ${uriOf(root, 'notes/plan.md')}\n    1: # **Plan**`);
    expect(text).toContain('Read a file with the read_resource tool and its URI');
    // A model follows it: the URI it was given reads the file.
    const uri = /file:\/\/\S+/.exec(text)?.[0] as string;
    expect((await c.callTool({ name: 'read_resource', arguments: { uri } })).content).toEqual([{ type: 'text', text: PLAN }]);

    const all = (await c.callTool({ name: 'browse_shelf', arguments: {} })).content[0] as { text: string };
    expect(all.text).toMatch(/^MCP Shelf publishes 1 folder\(s\):\n- /);
    const inFolder = (await c.callTool({ name: 'browse_shelf', arguments: { folder: root } })).content[0] as { text: string };
    expect(inFolder.text).toContain(
      `Files in ${path.basename(root)}:\n  ${uriOf(root, 'code/main.ts')} (text/x-typescript, 20 B)\n  ${uriOf(root, 'notes/plan.md')}`,
    );
    expect(inFolder.text).not.toContain('.env');
    const bad = await c.callTool({ name: 'browse_shelf', arguments: { folder: '/nowhere' } });
    expect(bad).toMatchObject({ isError: true, structuredContent: { error: { code: -32602, message: 'Not a published folder: /nowhere' } } });
    expect((await c.callTool({ name: 'browse_shelf', arguments: { query: 'x'.repeat(1001) } })).isError).toBe(true);
  });

  it.each(['legacy', '2026-07-28'])(
    'a host without the extension (the official Python SDK, mode %s): browse_shelf answers in text, and the URI it names reads',
    async (mode) => {
      const { stdout } = await run(PYTHON, [BROWSE_SCRIPT, shelf.http?.url as string, shelf.http?.token as string, mode, 'plan'], { timeout: 60_000 });
      const seen = JSON.parse(stdout) as { protocolVersion: string; tools: string[]; isError: boolean; text: string; firstUri: string; read: string };
      expect(seen.protocolVersion).toBe(mode === 'legacy' ? '2025-11-25' : '2026-07-28');
      expect(seen.tools).toEqual(['list_resources', 'read_resource', 'list_directory', 'search_resources', 'grep_resources', 'browse_shelf']);
      expect(seen.isError).toBe(false);
      expect(seen.firstUri).toBe(uriOf(root, 'notes/plan.md'));
      expect(seen.read).toBe(PLAN);
    },
    90_000,
  );

  it.each<Way>(['modern bridge', 'legacy bridge', 'modern http', 'legacy http'])(
    'a host with the extension (%s): the view tools marked for the app, and the ui:// view with its CSP, byte for byte the built file',
    async (way) => {
      const c = await connect(way, UI);
      const { tools } = await c.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect([...byName.keys()]).toEqual([
        'list_resources',
        'read_resource',
        'list_directory',
        'search_resources',
        'grep_resources',
        'browse_shelf',
        ...Object.values(APP_TOOLS),
      ]);
      for (const name of Object.values(APP_TOOLS))
        expect(byName.get(name)?.description).toMatch(
          /^Called by the MCP Shelf app shown in the chat, not by a model \(use list_resources, search_resources and read_resource\)\./,
        );
      expect(byName.get('browse_shelf')?._meta).toEqual({ ui: { resourceUri: APP_URI, visibility: ['model', 'app'] }, 'ui/resourceUri': APP_URI });
      for (const name of Object.values(APP_TOOLS)) expect(byName.get(name)?._meta).toEqual({ ui: { resourceUri: APP_URI, visibility: ['app'] } });
      // The view reads exactly what read_resource takes.
      expect(byName.get(APP_TOOLS.read)?.inputSchema).toEqual(byName.get('read_resource')?.inputSchema);
      if (way.startsWith('legacy')) expect(c.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/ui': {} });

      const { contents } = await c.readResource({ uri: APP_URI });
      expect(contents).toHaveLength(1);
      const [view] = contents as Array<{ uri: string; mimeType: string; text: string; _meta: unknown }>;
      expect(view).toMatchObject({
        uri: APP_URI,
        mimeType: RESOURCE_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } },
      });
      expect(view?.text).toBe(await readFile(path.join(ROOT, 'dist', 'electron', 'shelf-app.html'), 'utf8'));
      // One document, nothing to fetch: no script, style sheet or image by URL.
      expect(view?.text).toMatch(/^<!doctype html>/i);
      expect(view?.text).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*\shref=|url\(\s*['"]?https?:/i);
      await expect(c.readResource({ uri: 'ui://mcp-shelf/other.html' })).rejects.toMatchObject({ code: -32602, data: { uri: 'ui://mcp-shelf/other.html' } });
      // The model's read tool is for files: the view is no file.
      expect((await c.callTool({ name: 'read_resource', arguments: { uri: APP_URI } })).isError).toBe(true);
    },
  );

  it('the view reads through the same rules, ask-before-read and history, filed as read by the app', async () => {
    const c = await connect('modern bridge', UI, 'App Host');
    const read = await c.callTool({ name: APP_TOOLS.read, arguments: { uri: uriOf(root, 'notes/plan.md') } });
    expect(read.content).toEqual([{ type: 'text', text: PLAN }]);
    for (const uri of [uriOf(root, '.env'), 'file:///etc/passwd', uriOf(root, '../outside.txt')]) {
      expect(await c.callTool({ name: APP_TOOLS.read, arguments: { uri } })).toMatchObject({ isError: true, structuredContent: { error: { code: -32602 } } });
    }
    // Listing and finding go by the index: a hidden file is not there, and ".." names no directory.
    const list = await c.callTool({ name: APP_TOOLS.list, arguments: { folder: root } });
    expect((list.structuredContent as { entries: Array<{ path: string }> }).entries.map((e) => e.path)).toEqual(['code', 'notes']);
    expect((await c.callTool({ name: APP_TOOLS.list, arguments: { folder: root, dir: '../..' } })).structuredContent).toMatchObject({ entries: [] });
    expect((await c.callTool({ name: APP_TOOLS.find, arguments: { filter: 'env' } })).structuredContent).toEqual({ matches: [], more: false });
    expect((await c.callTool({ name: APP_TOOLS.list, arguments: { folder: '/etc' } })).isError).toBe(true);
    const search = await c.callTool({ name: APP_TOOLS.search, arguments: { query: 'milk' } });
    expect(search.structuredContent).toMatchObject({ hits: [{ path: 'notes/todo.txt', name: 'todo.txt', folder: root, line: 1, snippet: 'buy **milk**' }] });

    const api = await connectWebApi(shelf);
    const page = await eventually(async () => {
      const p = await api.call('queryHistory', { client: 'App Host' });
      return p.entries.length >= 5 ? p : null;
    });
    await api.close();
    expect(page.entries.map((e) => [e.via, e.uri, e.outcome, e.failure ?? e.search?.query]).reverse()).toEqual([
      ['app', uriOf(root, 'notes/plan.md'), 'ok', undefined],
      ['app', uriOf(root, '.env'), 'error', 'secret'],
      ['app', 'file:///etc/passwd', 'error', 'outside'],
      ['app', uriOf(root, '../outside.txt'), 'error', 'outside'],
      // The person's search in the app gives it snippets: filed too, as the app's.
      ['app', '', 'ok', 'milk'],
    ]);
  });

  it('with the tools off there is no app: no tool, and no ui:// view', async () => {
    const off = await startShelf([root], ['--no-tools']);
    try {
      const c = new Client({ name: 'off', version: '1' }, { capabilities: UI as never });
      await c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'connect', '--socket', off.socketPath], stderr: 'pipe' }));
      expect(c.getServerCapabilities()?.extensions).toBeUndefined();
      expect(c.getServerCapabilities()?.tools).toBeUndefined();
      await expect(c.readResource({ uri: APP_URI })).rejects.toMatchObject({ code: -32602 });
      await c.close();
    } finally {
      await off.stop();
    }
  });
});
