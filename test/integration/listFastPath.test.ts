import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { docx } from '../support/documents.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { CLI, connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

type Page = { resources: Array<Record<string, unknown>>; nextCursor?: string } & Record<string, unknown>;

/**
 * resources/list on the socket is answered by the list fast path
 * (mcp/listFastPath.ts), over HTTP by the SDK's handler: official clients of
 * both revisions must get the same pages from both, documents' text entries
 * included, before and after the shelf changes.
 */
describe('resources/list: the socket fast path gives what the SDK gives', () => {
  let root: string;
  let shelf: ShelfProcess;

  beforeAll(async () => {
    const files: Record<string, string | Buffer> = { 'minutes.docx': await docx(['Committee minutes']), 'notes/unread.docx': await docx(['Not read yet']) };
    for (let i = 0; i < 1200; i++) files[`many/${String(i).padStart(4, '0')}.txt`] = `file ${i}\n`;
    root = await makeTree(files);
    // No search index: it would extract every document's text in the background, and one must stay unread here.
    shelf = await startShelf([root], ['--http', '0', '--no-search-index']);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('pages of 2025-11-25 and 2026-07-28 are the same over the socket and over HTTP, and follow changes', async () => {
    const headers = { Authorization: `Bearer ${shelf.http?.token}` };
    const v1Socket = await connectSdkClient(shelf.socketPath, 'v1-socket');
    const v1Http = new V1Client({ name: 'v1-http', version: '1.0.0' });
    await v1Http.connect(new V1Http(new URL(shelf.http?.url as string), { requestInit: { headers } }));
    const pinned = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };
    const v2Socket = new V2Client({ name: 'v2-socket', version: '2.0.0' }, pinned);
    await v2Socket.connect(new V2Stdio({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' }));
    const v2Http = new V2Client({ name: 'v2-http', version: '2.0.0' }, pinned);
    await v2Http.connect(new V2Http(new URL(shelf.http?.url as string), { requestInit: { headers } }));
    const v2Page = (c: V2Client, cursor?: string) => c.request({ method: 'resources/list', params: cursor ? { cursor } : {} }) as Promise<Page>;
    const all = async (page: (cursor?: string) => Promise<Page>) => {
      const pages: Page[] = [];
      let cursor: string | undefined;
      do {
        const p = await page(cursor);
        pages.push(p);
        cursor = p.nextCursor;
      } while (cursor);
      return pages;
    };
    const compare = async () => {
      const fromSocket = await all((cursor) => v1Socket.listResources(cursor ? { cursor } : {}) as Promise<Page>);
      expect(fromSocket.length).toBe(2);
      expect(fromSocket).toEqual(await all((cursor) => v1Http.listResources(cursor ? { cursor } : {}) as Promise<Page>));
      const modern = await all((cursor) => v2Page(v2Socket, cursor));
      expect(modern).toEqual(await all((cursor) => v2Page(v2Http, cursor)));
      expect(modern[0]).toMatchObject({ _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-shelf' } } });
      return fromSocket.flatMap((p) => p.resources);
    };
    try {
      const before = await compare();
      const text = (name: string, list: Array<Record<string, unknown>>) => list.find((r) => r.name === `${name} (text)`);
      expect(text('minutes.docx', before)).toEqual({
        uri: `${uriOf(root, 'minutes.docx')}?as=text`,
        name: 'minutes.docx (text)',
        title: 'minutes.docx — text',
        mimeType: 'text/plain',
        annotations: expect.any(Object),
      });
      // Once its text is extracted, a document's text entry has its size, from both.
      const read = await v1Socket.readResource({ uri: `${uriOf(root, 'minutes.docx')}?as=text` });
      const extracted = (read.contents[0] as { text: string }).text;
      expect(extracted).toContain('Committee minutes');
      await writeFile(path.join(root, 'many/0001.txt'), 'a longer text than it had\n');
      await writeFile(path.join(root, 'added.txt'), 'new\n');
      await rm(path.join(root, 'many/0002.txt'));
      await eventually(
        async () => {
          const l = (await v1Socket.listResources()).resources;
          return l.some((r) => r.name === 'added.txt') && !l.some((r) => r.name === 'many/0002.txt') && l.find((r) => r.name === 'many/0001.txt')?.size === 26;
        },
        10_000,
        'the changes listed',
      );
      const after = await compare();
      expect(text('minutes.docx', after)?.size).toBe(Buffer.byteLength(extracted));
      expect(text('notes/unread.docx', after)?.size).toBeUndefined();
    } finally {
      await Promise.all([v1Socket.close(), v1Http.close(), v2Socket.close(), v2Http.close()]);
    }
  });
});
