import { rm } from 'node:fs/promises';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree } from '../support/fixtures.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * A query's work is capped (MAX_SCANNED postings, issue 42): one that
 * matches more than that is answered from what was read, and search_resources
 * says the results are partial, in its text and in structuredContent.
 */
describe('search_resources says when a query was too big to rank in full', () => {
  let root: string;
  let shelf: ShelfProcess;
  let client: Client;
  const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'search_resources', arguments: args })) as CallToolResult;
  type Found = { results: Array<{ path: string }>; indexing: boolean; partial?: boolean; nextCursor?: string };

  beforeAll(async () => {
    // 4,000 files holding the same 260 words "wa0"…"wa259": the prefix wa* expands to 256 of them, 1,024,000 postings.
    const words = Array.from({ length: 260 }, (_, i) => `wa${i}`).join(' ');
    const files: Record<string, string> = {};
    for (let i = 0; i < 4000; i++) files[`d${i % 40}/f${i}.txt`] = `${words}\nfile number n${i}\n`;
    root = await makeTree(files);
    shelf = await startShelf([root]);
    client = await connectSdkClient(shelf.socketPath);
    await eventually(async () => !((await call({ query: 'wa0' })).structuredContent as Found).indexing, 240_000, 'the index');
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('a prefix over a million postings: partial, said in the text; a word over 4,000 files: whole', async () => {
    const wide = await call({ query: 'wa*', maxResults: 10 });
    expect(wide.isError).toBeFalsy();
    const found = wide.structuredContent as Found;
    expect(found.partial).toBe(true);
    expect(found.results).toHaveLength(10);
    expect((wide.content[0] as { text: string }).text).toContain('Partial results');
    const whole = await call({ query: 'wa7 wa250', maxResults: 10 });
    const page = whole.structuredContent as Found;
    expect(page.partial).toBeUndefined();
    expect(page.results).toHaveLength(10);
    expect(page.nextCursor).toBeDefined();
    expect((whole.content[0] as { text: string }).text).not.toContain('Partial results');
    expect(((await call({ query: 'n3999' })).structuredContent as Found).results.map((r) => r.path)).toEqual(['d39/f3999.txt']);
  }, 120_000);
});
