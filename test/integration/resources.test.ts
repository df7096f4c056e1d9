import { rm } from 'node:fs/promises';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fingerprint, makeTree, uriOf } from '../support/fixtures.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function expectMcpError(p: Promise<unknown>, code: number): Promise<McpError> {
  const err = await p.then(
    () => {
      throw new Error(`expected error ${code}, got a result`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  expect((err as McpError).code).toBe(code);
  return err as McpError;
}

describe('resources over the socket, with an SDK client through mcp-shelf connect', () => {
  let root: string;
  let other: string;
  let shelf: ShelfProcess;
  let client: Client;
  let before: string;
  const bin = Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]);

  beforeAll(async () => {
    root = await makeTree({
      'readme.md': '# Hello\n',
      'src/main.ts': 'export const x = 1;\n',
      'data/config.json': '{"a":1}\n',
      'data/blob.bin': bin,
      'image.png': PNG,
      picture: PNG, // no extension: sniffed
      LICENSE: 'MIT License\n',
      'empty.txt': '',
      'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('with bom')]),
      'utf16.txt': Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]),
      'with space/été 日本.txt': 'unicode path\n',
      'big.txt': 'x'.repeat(5000),
    });
    other = await makeTree({ 'notes.txt': 'second folder\n' });
    before = await fingerprint(root);
    shelf = await startShelf([root, other], ['--max-read-bytes', '4096']);
    client = await connectSdkClient(shelf.socketPath);
  });

  afterAll(async () => {
    await client?.close();
    expect(await shelf.stop()).toBe(0);
    expect(await fingerprint(root)).toBe(before); // reading never writes
    await rm(root, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it('negotiates 2025-11-25 with the declared capabilities (the MCP Apps extension among them)', () => {
    expect(client.getServerCapabilities()).toEqual({
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
      // The change tools come and go with the folders' "Changes by AI" option: the list is announced as it changes.
      tools: { listChanged: true },
      extensions: { 'io.modelcontextprotocol/ui': {} },
    });
    expect(client.getServerVersion()?.name).toBe('mcp-shelf');
  });

  it('lists every published file with uri, name, title, mimeType, size and lastModified', async () => {
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).toBeUndefined();
    const byName = new Map(resources.map((r) => [r.name, r]));
    expect([...byName.keys()]).toEqual([
      'LICENSE',
      'big.txt',
      'bom.txt',
      'data/blob.bin',
      'data/config.json',
      'empty.txt',
      'image.png',
      'picture',
      'readme.md',
      'src/main.ts',
      'utf16.txt',
      'with space/été 日本.txt',
      'notes.txt',
    ]);
    const uni = byName.get('with space/été 日本.txt');
    expect(uni?.uri).toBe(uriOf(root, 'with space/été 日本.txt'));
    expect(uni?.uri).toContain('with%20space/%C3%A9t%C3%A9%20%E6%97%A5%E6%9C%AC.txt');
    expect(uni?.title).toBe('été 日本.txt');
    expect(byName.get('data/config.json')).toMatchObject({ mimeType: 'application/json', size: 8 });
    expect(byName.get('image.png')?.mimeType).toBe('image/png');
    expect(byName.get('picture')?.mimeType).toBe('image/png');
    expect(byName.get('LICENSE')?.mimeType).toBe('text/plain');
    expect(byName.get('src/main.ts')?.mimeType).toBe('text/x-typescript');
    expect(byName.get('data/blob.bin')?.mimeType).toBe('application/octet-stream');
    const lm = (byName.get('readme.md')?.annotations as { lastModified?: string }).lastModified;
    expect(new Date(lm ?? '').toISOString()).toBe(lm);
  });

  it('reads text as text and binary as a base64 blob, never both', async () => {
    const text = await client.readResource({ uri: uriOf(root, 'readme.md') });
    expect(text.contents).toEqual([{ uri: uriOf(root, 'readme.md'), mimeType: 'text/markdown', text: '# Hello\n' }]);
    const blob = await client.readResource({ uri: uriOf(root, 'data/blob.bin') });
    expect(blob.contents).toHaveLength(1);
    expect(blob.contents[0]).not.toHaveProperty('text');
    expect(Buffer.from((blob.contents[0] as { blob: string }).blob, 'base64')).toEqual(bin);
    const png = await client.readResource({ uri: uriOf(root, 'image.png') });
    expect(png.contents[0]).toMatchObject({ mimeType: 'image/png', blob: PNG.toString('base64') });
  });

  it('reads an empty file as empty text, and BOM-marked files as text', async () => {
    expect((await client.readResource({ uri: uriOf(root, 'empty.txt') })).contents[0]).toMatchObject({ text: '' });
    expect((await client.readResource({ uri: uriOf(root, 'bom.txt') })).contents[0]).toMatchObject({ text: 'with bom' });
    expect((await client.readResource({ uri: uriOf(root, 'utf16.txt') })).contents[0]).toMatchObject({ text: 'hi' });
  });

  it('reads percent-encoded unicode URIs', async () => {
    const res = await client.readResource({ uri: uriOf(root, 'with space/été 日本.txt') });
    expect(res.contents[0]).toMatchObject({ text: 'unicode path\n' });
  });

  it('refuses a file over --max-read-bytes with 1004 and its size and limit', async () => {
    const err = await expectMcpError(client.readResource({ uri: uriOf(root, 'big.txt') }), 1004);
    expect(err.data).toEqual({ uri: uriOf(root, 'big.txt'), size: 5000, limit: 4096 });
  });

  it('answers -32602 with data.uri for unknown, foreign and malformed URIs alike', async () => {
    for (const uri of [uriOf(root, 'nope.txt'), 'file:///etc/passwd', 'https://example.com/x', 'test://static', 'not a uri']) {
      const err = await expectMcpError(client.readResource({ uri }), -32602);
      expect(err.data).toEqual({ uri });
      expect(err.message).toContain('Resource not found');
    }
  });

  it('answers -32602 for missing or malformed params and an invalid cursor', async () => {
    await expectMcpError(client.request({ method: 'resources/read', params: {} } as never, {} as never), -32602);
    await expectMcpError(client.request({ method: 'resources/read', params: { uri: 42 } } as never, {} as never), -32602);
    await expectMcpError(client.listResources({ cursor: 'not-a-cursor' }), -32602);
    await expectMcpError(client.listResources({ cursor: Buffer.from('{"v":1}').toString('base64url') }), -32602);
  });

  it('offers one template per folder and completes paths', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([`${uriOf(root, '')}/{+path}`, `${uriOf(other, '')}/{+path}`]);
    const ref = { type: 'ref/resource' as const, uri: resourceTemplates[0]?.uriTemplate ?? '' };
    const res = await client.complete({ ref, argument: { name: 'path', value: 'da' } });
    expect(res.completion.values).toEqual(['data/blob.bin', 'data/config.json']);
    expect(res.completion.hasMore).toBe(false);
    const all = await client.complete({ ref, argument: { name: 'path', value: '' } });
    expect(all.completion.total).toBe(12);
    await expectMcpError(client.complete({ ref: { type: 'ref/resource', uri: 'file:///nope/{+path}' }, argument: { name: 'path', value: '' } }), -32602);
    // No prompts here, so nothing to suggest for one.
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'any' }, argument: { name: 'a', value: 'x' } })).completion).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
  });

  it('answers -32601 for an unknown method, and keeps serving', async () => {
    await expectMcpError(client.request({ method: 'prompts/list' } as never, {} as never), -32601);
    await expect(client.ping()).resolves.toBeDefined();
  });
});
