import { rm, utimes } from 'node:fs/promises';
import path from 'node:path';

import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * How a model finds its way on the shelf (issue 39), through the TS v2
 * client: listings within the client's budget, folders it can walk, paths
 * as a person says them, the tools it is told about, images by area.
 */

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
    expect(seen).toHaveLength(1500 + 8 + 2 - 3); // .env, .gitignore (dot files) and ignored/x.txt are never listed
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
});
