import { appendFile, rm, writeFile } from 'node:fs/promises';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * Today's official clients of both protocol revisions against the real CLI,
 * over the stdio bridge and over Streamable HTTP with the bearer token: the
 * TypeScript SDK v2 client pinned to 2026-07-28 and in auto mode (which
 * must choose 2026-07-28), and the v1 client (2025-11-25).
 */

const BIN = Buffer.from([0x89, 0x00, 0xff, 0x10, 0x20, 0x7f]);
const FIVE_MIB = 5 * 1024 * 1024;
const FILES = 1500;

type Mode = 'pin' | 'auto' | 'v1';
type Via = 'bridge' | 'http';

/** The calls each test makes, the same for every client. */
interface AnyClient {
  revision(): string | undefined;
  page(cursor?: string): Promise<{ resources: Array<{ uri: string; name: string }>; nextCursor?: string }>;
  read(uri: string): Promise<{ contents: Array<{ uri: string; text?: string; blob?: string; mimeType?: string }> } & Record<string, unknown>>;
  watch(uri: string, onUpdated: (uri: string) => void, onListChanged: () => void): Promise<void>;
  readTool(uri: string): Promise<{ content: Array<{ type: string; text?: string; resource?: { blob?: string } }>; isError?: boolean }>;
  close(): Promise<void>;
}

async function connect(shelf: ShelfProcess, mode: Mode, via: Via): Promise<AnyClient> {
  const headers = { Authorization: `Bearer ${shelf.http?.token}` };
  const bridge = { command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' as const };
  const name = `${mode}-${via}`;
  if (mode === 'v1') {
    const c = new V1Client({ name, version: '1.0.0' });
    await c.connect(via === 'bridge' ? new V1Stdio(bridge) : new V1Http(new URL(shelf.http?.url as string), { requestInit: { headers } }));
    return {
      revision: () => '2025-11-25', // the v1 client speaks only the 2025 handshake
      page: (cursor) => c.listResources(cursor ? { cursor } : {}),
      read: (uri) => c.readResource({ uri }) as never,
      readTool: (uri) => c.callTool({ name: 'read_resource', arguments: { uri } }) as never,
      async watch(uri, onUpdated, onListChanged) {
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => onUpdated(n.params.uri));
        c.setNotificationHandler(ResourceListChangedNotificationSchema, () => onListChanged());
        await c.subscribeResource({ uri });
      },
      close: () => c.close(),
    };
  }
  const c = new V2Client({ name, version: '2.0.0' }, { versionNegotiation: { mode: mode === 'pin' ? { pin: '2026-07-28' } : 'auto' } });
  await c.connect(via === 'bridge' ? new V2Stdio(bridge) : new V2Http(new URL(shelf.http?.url as string), { requestInit: { headers } }));
  return {
    revision: () => c.getNegotiatedProtocolVersion(),
    // listResources() without a cursor aggregates every page; the first page is asked for as such.
    page: (cursor) => (cursor ? c.listResources({ cursor }) : c.request({ method: 'resources/list', params: {} })) as never,
    read: (uri) => c.readResource({ uri }) as never,
    readTool: (uri) => c.callTool({ name: 'read_resource', arguments: { uri } }) as never,
    async watch(uri, onUpdated, onListChanged) {
      c.setNotificationHandler('notifications/resources/updated', (n) => onUpdated(n.params.uri));
      c.setNotificationHandler('notifications/resources/list_changed', () => onListChanged());
      const sub = await c.listen({ resourceSubscriptions: [uri], resourcesListChanged: true });
      expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [uri], resourcesListChanged: true });
    },
    close: () => c.close(),
  };
}

describe('official clients of both revisions, over the bridge and over HTTP', () => {
  let root: string;
  let shelf: ShelfProcess;
  const bigText = 'five mebibytes of text, line after line\n'.repeat(Math.ceil(FIVE_MIB / 40)).slice(0, FIVE_MIB);

  beforeAll(async () => {
    const files: Record<string, string | Buffer> = { 'hello.md': '# Hello\n', 'data.bin': BIN, 'big.txt': bigText };
    for (let i = 0; i < FILES; i++) files[`many/${String(i).padStart(4, '0')}.txt`] = String(i);
    root = await makeTree(files);
    shelf = await startShelf([root], ['--http', '0']);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const cases: Array<[Mode, Via]> = [
    ['pin', 'bridge'],
    ['auto', 'bridge'],
    ['v1', 'bridge'],
    ['pin', 'http'],
    ['auto', 'http'],
    ['v1', 'http'],
  ];

  it.each(cases)(
    '%s over %s: negotiates, pages the list, reads text, blob and 5 MiB, refuses the unknown, hears changes',
    async (mode, via) => {
      const client = await connect(shelf, mode, via);
      try {
        expect(client.revision()).toBe(mode === 'v1' ? '2025-11-25' : '2026-07-28');

        const first = await client.page();
        expect(first.resources).toHaveLength(1000);
        expect(first.nextCursor).toBeTruthy();
        const second = await client.page(first.nextCursor);
        expect(second.nextCursor).toBeUndefined();
        const names = [...first.resources, ...second.resources].map((r) => r.name);
        expect(new Set(names).size).toBe(names.length);
        expect(names.filter((n) => n.startsWith('many/'))).toHaveLength(FILES);

        const text = await client.read(uriOf(root, 'hello.md'));
        expect(text.contents).toEqual([{ uri: uriOf(root, 'hello.md'), mimeType: 'text/markdown', text: '# Hello\n' }]);
        const blob = await client.read(uriOf(root, 'data.bin'));
        expect(blob.contents).toEqual([{ uri: uriOf(root, 'data.bin'), mimeType: 'application/octet-stream', blob: BIN.toString('base64') }]);
        const big = await client.read(uriOf(root, 'big.txt'));
        expect(big.contents[0]?.text?.length).toBe(FIVE_MIB);
        expect(big.contents[0]?.text === bigText).toBe(true);

        // The read_resource tool: the same files as a model takes them (the 5 MiB one a page at a time), failures as isError results.
        const bigByTool = await client.readTool(uriOf(root, 'big.txt'));
        expect(bigByTool.content[0]?.text === bigText.slice(0, 100_000)).toBe(true);
        expect(bigByTool.content[1]?.text).toMatch(/^Showing lines 1–2,500 of 131,072\. .* offset 2501\.$/);
        const described = await client.readTool(uriOf(root, 'data.bin'));
        expect(described.content.map((c) => c.type)).toEqual(['text', 'resource_link']);
        expect(described.content[0]?.text).toMatch(/^data\.bin: application\/octet-stream, 6 bytes\./);
        expect((await client.readTool(uriOf(root, 'no-such-file.txt'))).isError).toBe(true);

        const missing = uriOf(root, 'no-such-file.txt');
        await expect(client.read(missing)).rejects.toMatchObject({ code: -32602, data: { uri: missing } });

        // A real edit and a real new file, each heard on this client's own subscription or listen.
        const watched = `watch-${mode}-${via}.txt`;
        await writeFile(`${root}/${watched}`, 'v1');
        await eventually(async () => (await client.read(uriOf(root, watched))).contents[0]?.text === 'v1', 5000, 'the watched file to be served');
        const updated: string[] = [];
        let listChanged = 0;
        await client.watch(
          uriOf(root, watched),
          (u) => updated.push(u),
          () => listChanged++,
        );
        listChanged = 0;
        await appendFile(`${root}/${watched}`, ' and v2');
        await writeFile(`${root}/new-${mode}-${via}.txt`, 'new');
        await eventually(() => updated.includes(uriOf(root, watched)), 5000, 'resources/updated for the edited file');
        await eventually(() => listChanged > 0, 5000, 'list_changed for the new file');
        expect(new Set(updated)).toEqual(new Set([uriOf(root, watched)])); // only what it asked for
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
