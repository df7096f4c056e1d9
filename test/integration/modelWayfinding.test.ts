import { execFile } from 'node:child_process';
import { rm, utimes } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { imageWithText } from '../support/documents.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * How a model finds its way on the shelf (issue 39), through the TS v2
 * client: listings within the client's budget, folders it can walk, paths
 * as a person says them, the tools it is told about, images by area.
 */

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = path.join(ROOT, '.venv-py', 'bin', 'python');
const PY_SCRIPT = path.join(ROOT, 'test', 'integration', 'interop', 'python_wayfinding.py');

type Content = { type: string; text?: string; data?: string; mimeType?: string; uri?: string };
interface ToolResult {
  content: Content[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

const textOf = (r: ToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text as string)
    .join('\n');
/** What a result puts before a model: its text and its structure (a client may show both). */
const sizeOf = (r: ToolResult) => textOf(r).length + (r.structuredContent ? JSON.stringify(r.structuredContent).length : 0);

/** 1,500 files under paths of about 190 characters: one page of resources/list would be far over any budget. */
const LONG = 'a-directory-with-a-rather-long-name-as-real-projects-have/and-another-level-below-it-that-is-long-too/';
const longFiles = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`${LONG}report-${String(i).padStart(5, '0')}-final-version.txt`, `${i}\n`]));

async function connect(shelf: ShelfProcess, name: string, capabilities: Record<string, unknown> = {}): Promise<V2Client> {
  const client = new V2Client({ name, version: '1.0.0' }, { capabilities });
  await client.connect(new V2Stdio({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' }));
  return client;
}

describe('what a model gets, second pass (issue 39)', () => {
  let root: string;
  let other: string;
  let shelf: ShelfProcess;
  let client: V2Client;
  const call = async (name: string, args: Record<string, unknown>, c: V2Client = client) =>
    (await c.callTool({ name, arguments: args })) as unknown as ToolResult;

  beforeAll(async () => {
    root = await makeTree({
      'notes/a.md': '# A\n\nalpha\n',
      'notes/sub/b.md': '# B\n',
      'notes/old.md': 'old\n',
      'unique-name.txt': 'only one of me\n',
      'same.md': 'in the first folder\n',
      '.env': 'SECRET=1\n',
      '.gitignore': 'ignored/\n',
      'ignored/x.txt': 'ignored\n',
      'photo.png': await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 40, g: 120, b: 200 } } })
        .png()
        .toBuffer(),
      ...longFiles,
    });
    other = await makeTree({ 'same.md': 'in the second folder\n', 'docs/guide.md': '# Guide\n' });
    // A file last changed long ago, for modified_since.
    const old = new Date('2020-01-01T00:00:00Z');
    await utimes(path.join(root, 'notes/old.md'), old, old);
    shelf = await startShelf([root, other]);
    client = await connect(shelf, 'v2-model');
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it('list_resources: a page within the budget (text and structure together), a cursor to go on, every file once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call('list_resources', cursor ? { cursor } : {});
      expect(page.isError).toBeFalsy();
      expect(sizeOf(page)).toBeLessThanOrEqual(100_000);
      const s = page.structuredContent as { resources: Array<{ uri: string; name: string; modified?: string; title?: unknown }>; nextCursor?: string };
      // No duplicated bulk: the structure holds what the text says, not the resource's whole record.
      expect(s.resources[0]).not.toHaveProperty('title');
      expect(s.resources[0]).not.toHaveProperty('annotations');
      for (const r of s.resources) expect(textOf(page)).toContain(r.uri);
      seen.push(...s.resources.map((r) => r.uri));
      cursor = s.nextCursor;
      if (cursor) expect(textOf(page)).toContain(`cursor "${cursor}"`);
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(1500 + 9 + 2 - 3); // .env, .gitignore (dot files) and ignored/x.txt are never listed
    expect(seen).toContain(uriOf(root, 'notes/a.md'));
    expect(seen).not.toContain(uriOf(root, '.env'));
  });

  it('list_resources: each file with its modified time, and only those changed since a time when asked', async () => {
    const all = await call('list_resources', { folder: root, glob: 'notes/**' });
    const files = (all.structuredContent as { resources: Array<{ name: string; modified: string }> }).resources;
    expect(files.map((f) => f.name).sort()).toEqual(['notes/a.md', 'notes/old.md', 'notes/sub/b.md']);
    expect(files.find((f) => f.name === 'notes/old.md')?.modified).toBe('2020-01-01T00:00:00.000Z');
    expect(textOf(all)).toContain('2020-01-01T00:00:00.000Z');
    const recent = await call('list_resources', { folder: root, glob: 'notes/**', modified_since: '2021-01-01T00:00:00Z' });
    expect((recent.structuredContent as { resources: Array<{ name: string }> }).resources.map((f) => f.name).sort()).toEqual(['notes/a.md', 'notes/sub/b.md']);
    const bad = await call('list_resources', { modified_since: 'last week' });
    expect(bad.isError).toBe(true);
  });

  it('list_directory: the folders; a folder’s entries, directories first, with kind, size, modified and counts; read-only', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'list_directory');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
    const top = await call('list_directory', {});
    const folders = (top.structuredContent as { folders: Array<{ name: string; path: string }> }).folders;
    expect(folders.map((f) => f.path)).toEqual([root, other]);
    const name = path.basename(root);
    const listed = await call('list_directory', { path: name });
    expect(listed.isError).toBeFalsy();
    const entries = (listed.structuredContent as { entries: Array<{ path: string; kind: string; entries?: number; size?: number; modified?: string }> })
      .entries;
    // Directories first (ignored/ holds only ignored files: not shown), then files; never .env or .gitignore.
    expect(entries.map((e) => e.path)).toEqual([LONG.split('/')[0] + '/', 'notes/', 'photo.png', 'same.md', 'unique-name.txt']);
    expect(entries[1]).toEqual({ path: 'notes/', kind: 'dir', entries: 3 });
    expect(entries[3]).toMatchObject({ kind: 'file', size: 20, modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(textOf(listed)).toContain(`${name}/notes/\tdir\t3 entries`);
    // A path it gives goes back to it (and to read_resource) as it is.
    const notes = await call('list_directory', { path: `${name}/notes` });
    expect((notes.structuredContent as { entries: Array<{ path: string }> }).entries.map((e) => e.path)).toEqual(['notes/sub/', 'notes/a.md', 'notes/old.md']);
    const read = await call('read_resource', { uri: `${name}/notes/a.md` });
    expect(textOf(read)).toContain('alpha');
    const file = await call('list_directory', { path: `${name}/notes/a.md` });
    expect(file.isError).toBe(true);
  });

  it('list_directory: a tree to a depth, within the budget, page after page with a cursor, every entry once', async () => {
    const name = path.basename(root);
    const shallow = await call('list_directory', { path: name, depth: 2 });
    const paths = (shallow.structuredContent as { entries: Array<{ path: string }> }).entries.map((e) => e.path);
    expect(paths.slice(0, 2)).toEqual([LONG.split('/')[0] + '/', LONG.slice(0, -1).split('/').slice(0, 2).join('/') + '/']);
    expect(paths).toContain('notes/sub/');
    expect(paths).toContain('notes/a.md');
    expect(paths).not.toContain('notes/sub/b.md');
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call('list_directory', { path: name, depth: 5, ...(cursor ? { cursor } : {}) });
      expect(page.isError).toBeFalsy();
      expect(sizeOf(page)).toBeLessThanOrEqual(100_000);
      const s = page.structuredContent as { entries: Array<{ path: string }>; nextCursor?: string };
      seen.push(...s.entries.map((e) => e.path));
      cursor = s.nextCursor;
      if (cursor) expect(textOf(page)).toContain(`cursor "${cursor}"`);
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    // 2 long directories, their 1,500 files; notes/, notes/sub/ and their 3 files; 3 files at the top.
    expect(seen).toHaveLength(2 + 1500 + 2 + 3 + 3);
    expect(seen.filter((p) => p.endsWith('/'))).toEqual([LONG.split('/')[0] + '/', LONG, 'notes/', 'notes/sub/']);
    expect(seen).not.toContain('.env');
    const bad = await call('list_directory', { path: path.basename(other), cursor: 'bogus' });
    expect(bad.isError).toBe(true);
  });

  it('paths as a person says them: absolute, folder-relative, a unique bare name; otherwise the candidates, never outside', async () => {
    const name = path.basename(root);
    expect(textOf(await call('read_resource', { uri: path.join(root, 'notes/a.md') }))).toContain('alpha');
    expect(textOf(await call('read_resource', { uri: 'notes/a.md' }))).toContain('alpha'); // a path one folder has
    expect(textOf(await call('read_resource', { uri: `${name}/unique-name.txt` }))).toContain('only one of me');
    expect(textOf(await call('read_resource', { uri: 'unique-name.txt' }))).toContain('only one of me');
    expect(textOf(await call('read_resource', { uri: 'b.md' }))).toContain('# B');
    // Two folders have same.md: the error names both, by URI.
    const two = await call('read_resource', { uri: 'same.md' });
    expect(two.isError).toBe(true);
    expect(textOf(two)).toContain(uriOf(root, 'same.md'));
    expect(textOf(two)).toContain(uriOf(other, 'same.md'));
    expect(textOf(two)).toContain('file://');
    // Nothing by that name: the error says what is wanted.
    const none = await call('read_resource', { uri: 'nowhere.md' });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/file:\/\/ URI/);
    // The same checks as a URI: hidden and secret files, paths outside, a way out by "..".
    for (const said of [
      path.join(root, '.env'),
      `${name}/.env`,
      '.env',
      path.join(root, 'ignored/x.txt'),
      '/etc/passwd',
      `${name}/../../etc/passwd`,
      '../etc/passwd',
    ]) {
      const res = await call('read_resource', { uri: said });
      expect(res.isError, said).toBe(true);
      expect(textOf(res)).not.toContain('SECRET');
      expect(textOf(res)).not.toContain('root:');
    }
    expect(textOf(await call('read_resource', { uri: '/etc/passwd' }))).toContain('not inside a published folder');
    // list_directory and grep_resources take the same paths.
    const dir = await call('list_directory', { path: path.join(root, 'notes') });
    expect((dir.structuredContent as { entries: Array<{ path: string }> }).entries.map((e) => e.path)).toContain('notes/a.md');
    const grep = await call('grep_resources', { pattern: 'alpha|only one', path: `${name}/notes` });
    expect((grep.structuredContent as { files: Array<{ uri: string }> }).files.map((f) => f.uri)).toEqual([uriOf(root, 'notes/a.md')]);
    const grepFile = await call('grep_resources', { pattern: 'in the', path: uriOf(other, 'same.md') });
    expect((grepFile.structuredContent as { files: Array<{ uri: string }> }).files.map((f) => f.uri)).toEqual([uriOf(other, 'same.md')]);
  });

  it('the tools a model is told about: instructions name them; descriptions speak of tools and state the client’s own budget', async () => {
    const instructions = client.getInstructions() ?? '';
    for (const tool of ['list_directory', 'list_resources', 'read_resource', 'search_resources', 'grep_resources']) expect(instructions).toContain(tool);
    expect(instructions).not.toMatch(/resources\/(list|read)/);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'list_resources')?.description).not.toContain('resources/list');
    expect(tools.find((t) => t.name === 'read_resource')?.description).toContain('at most about 100,000 characters');
    const claudeCode = await connect(shelf, 'claude-code');
    try {
      const read = (await claudeCode.listTools()).tools.find((t) => t.name === 'read_resource');
      expect(read?.description).toContain('at most about 75,000 characters');
      expect(read?.description).not.toContain('100,000');
    } finally {
      await claudeCode.close();
    }
  });

  it('the app’s own tools only to clients that show apps (declared, or known to); still callable there', async () => {
    const names = async (c: V2Client) => (await c.listTools()).tools.map((t) => t.name);
    // This client declares no app support: browse_shelf (which answers in text), none of the view's tools.
    expect(await names(client)).toEqual(['list_resources', 'read_resource', 'list_directory', 'search_resources', 'grep_resources', 'browse_shelf']);
    const claudeCode = await connect(shelf, 'claude-code');
    const withApps = await connect(shelf, 'an-app-host', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
    const vscode = await connect(shelf, 'Visual Studio Code');
    try {
      expect((await names(claudeCode)).filter((n) => n.startsWith('shelf_app_'))).toEqual([]);
      for (const c of [withApps, vscode])
        expect((await names(c)).filter((n) => n.startsWith('shelf_app_'))).toEqual([
          'shelf_app_list',
          'shelf_app_find',
          'shelf_app_search',
          'shelf_app_read',
          'shelf_app_changes',
        ]);
      const listed = await call('shelf_app_list', {}, withApps);
      expect(listed.isError).toBeFalsy();
      expect((listed.structuredContent as { folders: unknown[] }).folders).toHaveLength(2);
    } finally {
      await claudeCode.close();
      await withApps.close();
      await vscode.close();
    }
  });

  it('images bounded by area as well as by the long side: a 4000×3000 photo goes out within 1.15 MP', async () => {
    const res = await call('read_resource', { uri: uriOf(root, 'photo.png') });
    const image = res.content.find((c) => c.type === 'image');
    expect(image).toBeDefined();
    const meta = await sharp(Buffer.from(image?.data as string, 'base64')).metadata();
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(1568);
    expect(meta.width * meta.height).toBeLessThanOrEqual(1_150_000);
    // Not smaller than it must be: the area is what bounds it here.
    expect(meta.width * meta.height).toBeGreaterThan(1_100_000);
    expect(meta.width / meta.height).toBeCloseTo(4 / 3, 2);
  }, 120_000);

  it('outputSchema for every tool that returns structuredContent; the client validates each answer (and each failure) against it', async () => {
    const host = await connect(shelf, 'an-app-host', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
    try {
      const { tools } = await host.listTools();
      const name = path.basename(root);
      const calls: Array<[string, Record<string, unknown>]> = [
        ['list_resources', { glob: 'notes/**' }],
        ['list_resources', { folder: '/not/published' }],
        ['list_directory', {}],
        ['list_directory', { path: name, depth: 2 }],
        ['list_directory', { path: 'nowhere/at/all' }],
        ['search_resources', { query: 'alpha' }],
        ['grep_resources', { pattern: 'alpha', context: 1 }],
        ['grep_resources', { pattern: '(' }],
        ['browse_shelf', { query: 'alpha' }],
        ['shelf_app_list', { folder: root }],
        ['shelf_app_find', { filter: 'notes' }],
        ['shelf_app_search', { query: 'alpha' }],
        ['shelf_app_changes', {}],
      ];
      const structured = new Set<string>();
      for (const [tool, args] of calls) {
        // The v2 client checks structuredContent against the tool's outputSchema: a mismatch rejects here.
        const res = await call(tool, args, host);
        if (res.structuredContent) structured.add(tool);
      }
      for (const tool of structured) expect(tools.find((t) => t.name === tool)?.outputSchema, tool).toMatchObject({ type: 'object' });
      expect(structured.size).toBe(9);
    } finally {
      await host.close();
    }
  });

  it('the official Python SDK finds its way the same: tools, list_directory, pages within the budget, paths; outputSchemas it validates', async () => {
    const { stdout } = await run(PYTHON, [PY_SCRIPT, process.execPath, CLI, shelf.socketPath, root], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    const seen = JSON.parse(stdout) as {
      tools: string[];
      withOutputSchema: string[];
      folders: string[];
      entries: string[];
      list: { pages: number; maxSize: number; files: number; unique: number };
      paths: Record<string, { isError: boolean; text: string }>;
    };
    expect(seen.tools).toEqual(['list_resources', 'read_resource', 'list_directory', 'search_resources', 'grep_resources', 'browse_shelf']);
    expect(seen.withOutputSchema).toEqual(['browse_shelf', 'grep_resources', 'list_directory', 'list_resources', 'search_resources']);
    expect(seen.folders).toEqual([root, other]);
    expect(seen.entries).toEqual([`${LONG.split('/')[0]}/`, 'notes/', 'photo.png', 'same.md', 'unique-name.txt']);
    expect(seen.list.pages).toBeGreaterThan(1);
    expect(seen.list.maxSize).toBeLessThanOrEqual(100_000);
    expect(seen.list).toMatchObject({ files: 1508, unique: 1508 });
    const name = path.basename(root);
    expect(seen.paths[path.join(root, 'notes', 'a.md')]).toMatchObject({ isError: false, text: expect.stringContaining('alpha') });
    expect(seen.paths[`${name}/notes/a.md`]).toMatchObject({ isError: false, text: expect.stringContaining('alpha') });
    expect(seen.paths['unique-name.txt']).toMatchObject({ isError: false, text: expect.stringContaining('only one of me') });
    expect(seen.paths['same.md']).toMatchObject({ isError: true, text: expect.stringContaining(uriOf(other, 'same.md')) });
    expect(seen.paths['/etc/passwd']).toMatchObject({ isError: true, text: expect.stringContaining('not inside a published folder') });
  }, 150_000);
});

describe('the first read of an image on a cold shelf (issue 39)', () => {
  it('goes out at once without waiting for its OCR; the text comes later at its ?as=text URI', async () => {
    const root = await makeTree({
      'sign.png': await imageWithText(['The pelican crossing is closed', 'on Sunday mornings'], 'png', { width: 4000, height: 3000 }),
    });
    // No search index: nothing reads the image before the client does.
    const shelf = await startShelf([root], ['--no-search-index']);
    const client = await connect(shelf, 'v2-model');
    try {
      const res = (await client.callTool({ name: 'read_resource', arguments: { uri: uriOf(root, 'sign.png') } })) as unknown as ToolResult;
      expect(res.content[0]?.type).toBe('image');
      const text = textOf(res);
      expect(text).not.toContain('pelican');
      expect(text).toContain(`OCR is reading it; its text will be at ${uriOf(root, 'sign.png')}?as=text`);
      // The OCR the read started: its text at the URI the note gave, and beside the image on the next read.
      const ocr = await eventually(
        async () => {
          const r = (await client.callTool({ name: 'read_resource', arguments: { uri: `${uriOf(root, 'sign.png')}?as=text` } })) as unknown as ToolResult;
          return r.isError ? null : textOf(r);
        },
        120_000,
        'the OCR text',
      );
      expect(ocr.toLowerCase()).toContain('pelican');
      const again = (await client.callTool({ name: 'read_resource', arguments: { uri: uriOf(root, 'sign.png') } })) as unknown as ToolResult;
      expect(textOf(again)).toMatch(/Text in the image, recognised by OCR[^\n]*\n[^]*pelican/i);
    } finally {
      await client.close();
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 180_000);
});
