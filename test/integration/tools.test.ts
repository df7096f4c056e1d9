import { rm } from 'node:fs/promises';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

describe('read-only tools that mirror the resources', () => {
  let root: string;
  let other: string;
  let shelf: ShelfProcess;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) many[`many/f${String(i).padStart(4, '0')}.txt`] = `line one\nneedle ${i}\n`;
    root = await makeTree({
      'notes/todo.md': '# Todo\n\n- find the needle here\n- and nothing else\n',
      'src/app.ts': 'export const NEEDLE = 1;\n',
      '.env': 'needle=secret',
      'image.bin': Buffer.from([0, 1, 2, 3]),
      'big.txt': 'needle '.repeat(2000),
      ...many,
    });
    other = await makeTree({ 'other.txt': 'a needle in another folder' });
    shelf = await startShelf([root, other], ['--max-read-bytes', '4096']);
    client = await connectSdkClient(shelf.socketPath);
  });

  afterAll(async () => {
    await client?.close();
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it('lists the five tools and browse_shelf (not the in-chat app’s own: this client shows no apps), each with a description and an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_resources', 'read_resource', 'list_directory', 'search_resources', 'grep_resources', 'browse_shelf']);
    for (const t of tools) {
      expect(t.description).toBeTruthy();
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('list_resources: by folder and glob, a page at a time, never the hidden files', async () => {
    const onlyMd = await call('list_resources', { folder: root, glob: '**/*.md' });
    expect((onlyMd.structuredContent as { resources: Array<{ name: string }> }).resources.map((r) => r.name)).toEqual(['notes/todo.md']);
    const byName = await call('list_resources', { folder: other.split('/').pop() as string });
    expect((byName.structuredContent as { resources: Array<{ name: string }> }).resources.map((r) => r.name)).toEqual(['other.txt']);
    const first = await call('list_resources', {});
    const page1 = first.structuredContent as { resources: Array<{ name: string }>; nextCursor?: string };
    // A page holds what fits the budget (text and structure together), at most 1,000 files.
    expect(page1.resources.length).toBeGreaterThan(100);
    expect(page1.resources.length).toBeLessThanOrEqual(1000);
    expect((first.content[0] as { text: string }).text.length + JSON.stringify(first.structuredContent).length).toBeLessThanOrEqual(100_000);
    expect(page1.nextCursor).toBeTruthy();
    // A model that sees only the text can go on: the text gives the cursor, and each file's full URI.
    const text = (first.content[0] as { text: string }).text;
    expect(text).toContain(`cursor "${page1.nextCursor}"`);
    expect(text).toContain(`${uriOf(root, 'many/f0000.txt')}\ttext/plain\t`);
    const all = page1.resources.map((r) => r.name);
    for (let cursor = page1.nextCursor; cursor;) {
      const next = (await call('list_resources', { cursor })).structuredContent as { resources: Array<{ name: string }>; nextCursor?: string };
      all.push(...next.resources.map((r) => r.name));
      cursor = next.nextCursor;
    }
    expect(all).toHaveLength(1205); // 1,204 in one folder, 1 in the other
    expect(all).not.toContain('.env');
    expect(new Set(all).size).toBe(1205);
    // Bad arguments are the model's to fix: an isError result it can read (SEP-1303), not a protocol error.
    const notPublished = await call('list_resources', { folder: '/not/published' });
    expect(notPublished.isError).toBe(true);
    expect(notPublished.content).toEqual([{ type: 'text', text: 'Not a published folder: /not/published (-32602)' }]);
    expect((await call('list_resources', { bogus: 1 })).isError).toBe(true);
    await expect(call('no_such_tool', {})).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: no_such_tool') });
  });

  it('read_resource: text as text; a binary described with a link to it, never its bytes', async () => {
    const text = await call('read_resource', { uri: uriOf(root, 'src/app.ts') });
    expect(text.content).toEqual([{ type: 'text', text: 'export const NEEDLE = 1;\n' }]);
    const bin = await call('read_resource', { uri: uriOf(root, 'image.bin') });
    expect(bin.content).toEqual([
      {
        type: 'text',
        text: `image.bin: application/octet-stream, 4 bytes. It is binary, so its bytes are not shown here.\nIts bytes are the resource ${uriOf(root, 'image.bin')} (resources/read gives them exactly, as base64), for a client that reads or attaches resources.`,
      },
      { type: 'resource_link', uri: uriOf(root, 'image.bin'), name: 'image.bin', title: 'image.bin', mimeType: 'application/octet-stream', size: 4 },
    ]);
  });

  it('read_resource: the same refusals and codes as resources/read', async () => {
    for (const uri of [uriOf(root, '.env'), `${uriOf(root, '')}/../etc/passwd`, 'file:///etc/passwd', uriOf(root, 'missing.txt')]) {
      const res = await call('read_resource', { uri });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toEqual({ error: { code: -32602, message: 'Resource not found', data: { uri } } });
    }
    // --max-read-bytes bounds one resources/read message; the tool pages what it reads instead.
    expect((await client.readResource({ uri: uriOf(root, 'big.txt') }).catch((e: { code: number }) => e)).code).toBe(1004);
    const big = await call('read_resource', { uri: uriOf(root, 'big.txt') });
    expect(big.content).toEqual([{ type: 'text', text: 'needle '.repeat(2000) }]);
    expect(await call('read_resource', {})).toMatchObject({ isError: true, structuredContent: { error: { code: -32602 } } });
  });

  it('search_resources: ranked files with line and snippet; pages with a cursor; never hidden or oversized files', async () => {
    type Found = { results: Array<{ uri: string; path: string; line: number; snippet: string; score: number }>; nextCursor?: string; indexing: boolean };
    const find = async (args: Record<string, unknown>) => (await call('search_resources', args)).structuredContent as Found;
    await eventually(async () => !(await find({ query: 'needle' })).indexing, 20_000, 'the index');
    const res = await call('search_resources', { query: 'NEEDLE', glob: '{notes,src}/**' });
    const found = res.structuredContent as Found;
    expect(found.results.map(({ uri, path, line, snippet }) => ({ uri, path, line, snippet })).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { uri: uriOf(root, 'notes/todo.md'), path: 'notes/todo.md', line: 3, snippet: '- find the **needle** here' },
      { uri: uriOf(root, 'src/app.ts'), path: 'src/app.ts', line: 1, snippet: 'export const **NEEDLE** = 1;' },
    ]);
    expect(found.results[0]!.score).toBeGreaterThanOrEqual(found.results[1]!.score);
    // The text names each file by its full URI: names alone are ambiguous across folders.
    expect((res.content[0] as { text: string }).text).toContain(`${uriOf(root, 'src/app.ts')} (score`);
    // Pages of at most maxResults, each file once, to the end.
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await find({ query: 'needle', maxResults: 100, ...(cursor ? { cursor } : {}) });
      expect(page.results.length).toBeLessThanOrEqual(100);
      for (const r of page.results) seen.add(r.uri);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(seen.size).toBe(1200 + 3);
    expect(pages).toBe(13);
    expect((await find({ query: 'needle', folder: other })).results.map((r) => r.path)).toEqual(['other.txt']);
    expect((await find({ query: 'secret' })).results).toEqual([]); // .env holds it, and .env is never published
    expect((await find({ query: 'needle', glob: 'big.txt' })).results).toEqual([]); // over --max-read-bytes: not readable, not indexed
    expect((await call('search_resources', { query: '' })).isError).toBe(true);
    expect((await call('search_resources', { query: 'x', maxResults: 5000 })).isError).toBe(true);
  }, 60_000);
});

describe('list_resources pages a large folder by position', () => {
  it('visits each of 20,000 files once, in order, page after page', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) files[`d${String(i % 200).padStart(3, '0')}/f${String(i).padStart(5, '0')}.txt`] = '';
    const root = await makeTree(files);
    const shelf = await startShelf([root]);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = (await client.callTool({ name: 'list_resources', arguments: cursor ? { cursor } : {} })) as CallToolResult;
        const body = page.structuredContent as { resources: Array<{ name: string }>; nextCursor?: string };
        seen.push(...body.resources.map((r) => r.name));
        cursor = body.nextCursor;
        pages++;
      } while (cursor);
      // Pages are bounded by the client's budget as well as by count: more than 20 of at most 1,000.
      expect(pages).toBeGreaterThanOrEqual(20);
      expect(seen).toHaveLength(20_000);
      expect(new Set(seen).size).toBe(20_000);
      expect(seen).toEqual([...seen].sort());
    } finally {
      await client.close();
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
