import { link, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';

// Replies to small files that have not changed for a while are kept; every
// read still opens and stats the file, so none of these may ever see a stale reply.
const textOf = (r: Record<string, unknown>) => (r['result'] as { contents: Array<{ text: string; uri: string }> }).contents[0];
// One fixed moment, so a file can be given exactly the times it had before.
const PAST = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
const anHourAgo = () => PAST;

describe('cached replies are never stale', () => {
  let root: string;
  let shelf: ShelfProcess;
  let c: RawClient;

  beforeAll(async () => {
    root = await makeTree({ 'settled.txt': 'version A', 'other.txt': 'x' });
    await utimes(path.join(root, 'settled.txt'), anHourAgo(), anHourAgo());
    await utimes(path.join(root, 'other.txt'), anHourAgo(), anHourAgo());
    // Only files whose change time (which utimes sets to now) is 2 s old are cached.
    await new Promise((r) => setTimeout(r, 2100));
    shelf = await startShelf([root]);
    c = await RawClient.initialized(shelf.socketPath);
  });
  afterAll(async () => {
    c?.close();
    await shelf.stop();
    await rm(root, { recursive: true, force: true });
  });

  const read = async (rel: string) => textOf(await c.request('resources/read', { uri: uriOf(root, rel) }));

  it('an in-place rewrite of the same size is seen at once, even with its old times put back', async () => {
    expect((await read('settled.txt'))?.text).toBe('version A');
    expect((await read('settled.txt'))?.text).toBe('version A'); // now from the cache
    const file = path.join(root, 'settled.txt');
    await writeFile(file, 'version B'); // same size
    await utimes(file, anHourAgo(), anHourAgo()); // mtime back in the past; ctime cannot be set back
    // No waiting for the watcher: the stat at read time must already tell.
    expect((await read('settled.txt'))?.text).toBe('version B');
  });

  it('a hard link read by its own URI gets its own URI back', async () => {
    await link(path.join(root, 'settled.txt'), path.join(root, 'linked.txt'));
    await eventually(async () => (await c.request('resources/read', { uri: uriOf(root, 'linked.txt') })).result !== undefined, 5000, 'the link to be indexed');
    expect(await read('settled.txt')).toMatchObject({ uri: uriOf(root, 'settled.txt') });
    expect(await read('linked.txt')).toMatchObject({ uri: uriOf(root, 'linked.txt'), text: 'version B' });
  });

  it('a file replaced by another (an editor’s save) is read anew', async () => {
    const file = path.join(root, 'other.txt');
    expect((await read('other.txt'))?.text).toBe('x');
    await writeFile(`${file}.tmp`, 'y');
    await utimes(`${file}.tmp`, anHourAgo(), anHourAgo());
    const { rename } = await import('node:fs/promises');
    await rename(`${file}.tmp`, file);
    expect((await read('other.txt'))?.text).toBe('y');
  });
});
