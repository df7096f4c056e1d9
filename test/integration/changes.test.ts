import { appendFile, mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

describe('subscriptions and list changes with real file edits', () => {
  let root: string;
  let shelf: ShelfProcess;
  let client: Client;
  let other: Client;
  const updated: string[] = [];
  const otherUpdated: string[] = [];
  let listChanged = 0;
  let otherListChanged = 0;
  const logs: string[] = [];

  beforeAll(async () => {
    root = await makeTree({ 'watched.txt': 'v1', 'quiet.txt': 'q', 'sub/deep.md': '# d' });
    shelf = await startShelf([root]);
    client = await connectSdkClient(shelf.socketPath, 'subscriber');
    other = await connectSdkClient(shelf.socketPath, 'bystander');
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void otherUpdated.push(n.params.uri));
    other.setNotificationHandler(ResourceListChangedNotificationSchema, () => void otherListChanged++);
  });

  afterAll(async () => {
    await client?.close();
    await other?.close();
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('sends resources/updated to the subscribed connection only, and stops after unsubscribe', async () => {
    const uri = uriOf(root, 'watched.txt');
    await client.subscribeResource({ uri });
    await appendFile(path.join(root, 'watched.txt'), ' v2');
    await eventually(() => updated.includes(uri), 3000, 'resources/updated');
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: 'v1 v2' });
    expect(otherUpdated).toEqual([]);

    await writeFile(path.join(root, 'quiet.txt'), 'changed but not subscribed');
    await client.unsubscribeResource({ uri });
    updated.length = 0;
    await writeFile(path.join(root, 'watched.txt'), 'v3');
    await eventually(async () => ((await client.readResource({ uri })).contents[0] as { text: string }).text === 'v3');
    await new Promise((r) => setTimeout(r, 400));
    expect(updated).toEqual([]);
  });

  it('accepts a subscription to any URI alike, and never notifies for an unpublished one', async () => {
    // Refusing only some URIs would tell a client which hidden files exist.
    await expect(client.subscribeResource({ uri: uriOf(root, '.env') })).resolves.toEqual({});
    await expect(client.subscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
    await writeFile(path.join(root, '.env'), 'SECRET=2');
    await new Promise((r) => setTimeout(r, 400));
    expect(updated.filter((u) => u.endsWith('.env'))).toEqual([]);
    await expect(client.subscribeResource({ uri: 42 } as never)).rejects.toMatchObject({ code: -32602 });
  });

  it('sends list_changed to every connection when files come and go', async () => {
    const before = { mine: listChanged, theirs: otherListChanged };
    await writeFile(path.join(root, 'new.txt'), 'new');
    await eventually(() => listChanged > before.mine && otherListChanged > before.theirs, 3000, 'list_changed on create');
    expect((await client.listResources()).resources.map((r) => r.name)).toContain('new.txt');

    const afterCreate = listChanged;
    await unlink(path.join(root, 'new.txt'));
    await eventually(() => listChanged > afterCreate, 3000, 'list_changed on delete');
    const names = (await client.listResources()).resources.map((r) => r.name);
    expect(names).not.toContain('new.txt');
    await expect(client.readResource({ uri: uriOf(root, 'new.txt') })).rejects.toMatchObject({ code: -32602 });

    const afterDelete = listChanged;
    await mkdir(path.join(root, 'moved-in'));
    await writeFile(path.join(root, 'moved-in', 'x.txt'), 'x');
    await rename(path.join(root, 'sub'), path.join(root, 'sub2'));
    await eventually(
      async () => {
        const now = (await client.listResources()).resources.map((r) => r.name);
        return now.includes('sub2/deep.md') && now.includes('moved-in/x.txt') && !now.includes('sub/deep.md');
      },
      3000,
      'renamed folder in the listing',
    );
    await eventually(() => listChanged > afterDelete, 3000, 'list_changed after a folder rename');
  });

  it('reports a published folder that disappears, stops serving it, and keeps running', async () => {
    const uri = uriOf(root, 'watched.txt');
    const moved = `${root}-gone`;
    await rename(root, moved);
    try {
      await eventually(async () => (await client.listResources()).resources.length === 0, 5000, 'empty listing');
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
      await eventually(() => logs.some((l) => l.includes('missing')), 3000, 'a log message');
      expect(await client.ping()).toBeDefined();
    } finally {
      await rename(moved, root);
    }
    await eventually(async () => (await client.listResources()).resources.length > 0, 5000, 'folder served again');
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: 'v3' });
  });
});

describe('pagination', () => {
  it('pages 2,500 files in stable order, at most 1,000 a page, with opaque cursors', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2500; i++) files[`d${i % 7}/f${String(i).padStart(4, '0')}.txt`] = `${i}`;
    const root = await makeTree(files);
    const shelf = await startShelf([root]);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor ? { cursor } : {});
        expect(page.resources.length).toBeLessThanOrEqual(1000);
        pages.push(page.resources.map((r) => r.name));
        cursor = page.nextCursor;
      } while (cursor);
      expect(pages.map((p) => p.length)).toEqual([1000, 1000, 500]);
      const all = pages.flat();
      expect(new Set(all).size).toBe(2500);
      expect(all).toEqual([...all].sort());
      const again = await client.listResources();
      expect(again.resources.map((r) => r.name)).toEqual(pages[0]);
      expect(again.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    } finally {
      await client.close();
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});
