import { execFile } from 'node:child_process';
import { rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const run = promisify(execFile);

type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };

/**
 * What a client asks that costs us time — a pathological glob, phrase
 * searches over many large files, a backtracking-prone regex — must not
 * hold up anyone else (issue 25, findings 1 and 2; issue 23's grep). Each
 * test counts another client's reads served while the heavy request runs:
 * a thread held by the request would serve none.
 */
describe('heavy queries do not hold other clients', () => {
  let root: string;
  let shelf: ShelfProcess;
  let heavy: Client;
  let other: Client;
  const EVIL = '*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?!';
  let body: string;

  beforeAll(async () => {
    const files: Record<string, string> = { 'a-rather-long-file-name-of-forty-five-chars.txt': 'hello\n', 'small.txt': 'small\n' };
    // 120 files of 512 KB, each holding the phrase everywhere: every ranked match must be read and checked.
    body = 'the quarterly numbers were fine and the annual numbers were better\n'.repeat(8000);
    for (let i = 0; i < 120; i++) files[`big/f${String(i).padStart(3, '0')}.txt`] = body;
    root = await makeTree(files);
    shelf = await startShelf([root]);
    heavy = await connectSdkClient(shelf.socketPath, 'heavy');
    other = await connectSdkClient(shelf.socketPath, 'other');
    await eventually(
      async () => {
        const r = (await heavy.callTool({ name: 'search_resources', arguments: { query: 'hello' } })) as ToolResult;
        return r.structuredContent?.indexing === false;
      },
      60_000,
      'the index to be built',
    );
  }, 90_000);

  afterAll(async () => {
    await heavy?.close();
    await other?.close();
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  /** Runs `work` while `other` reads a small file in a loop; returns its result and the reads served meanwhile. */
  async function whileReading<T>(work: () => Promise<T>): Promise<{ result: T; served: number; worstMs: number }> {
    let done = false;
    let served = 0;
    let worstMs = 0;
    const loop = (async () => {
      while (!done) {
        const t = performance.now();
        await other.readResource({ uri: uriOf(root, 'small.txt') });
        worstMs = Math.max(worstMs, performance.now() - t);
        served++;
      }
    })();
    try {
      return { result: await work(), served, worstMs };
    } finally {
      done = true;
      await loop;
    }
  }

  it('a glob that makes a backtracking matcher run for minutes is answered at once, in list, search and grep', async () => {
    for (const [name, args] of [
      ['list_resources', { glob: EVIL }],
      ['search_resources', { query: 'hello', glob: EVIL }],
      ['grep_resources', { pattern: 'hello', glob: EVIL }],
    ] as const) {
      const { result } = await whileReading(() => heavy.callTool({ name, arguments: args }) as Promise<ToolResult>);
      expect(result.isError, name).toBeFalsy();
      expect(result.content[0]?.text, name).toMatch(/^(No published file matches|No file matches|No line matches)/);
    }
    const bad = (await heavy.callTool({ name: 'list_resources', arguments: { glob: '!(x)' } })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/Invalid glob "!\(x\)": the extglob !\(…\) is not supported/);
  });

  it('four phrase searches over 60 MB at once: each page reads a bounded share and goes on by cursor, and another client is served throughout', async () => {
    const search = () =>
      heavy.callTool({ name: 'search_resources', arguments: { query: '"annual numbers were better"', maxResults: 100 } }) as Promise<ToolResult>;
    const { result, served } = await whileReading(() => Promise.all([search(), search(), search(), search()]));
    for (const r of result) {
      const page = r.structuredContent as { results: unknown[]; nextCursor?: string };
      // 32 MiB read at most per page (the file that crosses it included), then a cursor.
      expect(page.results.length).toBe(Math.ceil((32 * 1024 * 1024) / body.length));
      expect(page.nextCursor).toBeTruthy();
    }
    expect(served).toBeGreaterThan(4);
  }, 60_000);

  it('grep with a pattern that backtracks for ages elsewhere runs in linear time in a worker', async () => {
    const { result, served } = await whileReading(
      () => heavy.callTool({ name: 'grep_resources', arguments: { pattern: '(\\w+\\s?)+$X', glob: 'big/*' } }) as Promise<ToolResult>,
    );
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toMatch(/^No line matches/);
    expect(served).toBeGreaterThan(4);
  }, 60_000);
});

describe('grep and a file swapped for a link', () => {
  it('never gives a line of what a link swapped in for a published file leads to (outside, or an excluded file)', async () => {
    const root = await makeTree({ 'notes.txt': 'harmless\n', '.env': 'TOKEN=inside-secret\n' });
    const outside = await makeTree({ 'secret.txt': 'TOKEN=outside-secret\n' });
    const shelf = await startShelf([root]);
    const client = await connectSdkClient(shelf.socketPath, 'swapper');
    try {
      for (const target of [path.join(outside, 'secret.txt'), path.join(root, '.env')]) {
        for (let round = 0; round < 10; round++) {
          // Swapped while the listing still names notes.txt as a file: grep reads it at once.
          await rm(path.join(root, 'notes.txt'));
          await symlink(target, path.join(root, 'notes.txt'));
          const r = (await client.callTool({ name: 'grep_resources', arguments: { pattern: 'TOKEN' } })) as ToolResult;
          expect(JSON.stringify(r)).not.toContain('secret');
          await rm(path.join(root, 'notes.txt'));
          await writeFile(path.join(root, 'notes.txt'), 'harmless\n');
        }
      }
      // And a FIFO swapped in is passed over, not waited on.
      await rm(path.join(root, 'notes.txt'));
      await run('mkfifo', [path.join(root, 'notes.txt')]);
      const r = (await client.callTool({ name: 'grep_resources', arguments: { pattern: 'harmless' } })) as ToolResult;
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  }, 60_000);
});
