import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { SearchIndex } from '../../../../../electron/core/search/searchIndex.js';
import { eventually } from '../../../../support/fixtures.js';

const RULES = { showHidden: false, gitignore: true, extraIgnore: [] };

describe('SearchIndex over a big folder', () => {
  let root: string;
  beforeAll(async () => {
    root = path.join(os.tmpdir(), `search-walk-${process.pid}`);
    for (let d = 0; d < 60; d++) {
      await mkdir(path.join(root, `d${d}`), { recursive: true });
      await Promise.all(Array.from({ length: 100 }, (_, i) => writeFile(path.join(root, `d${d}`, `f${i}.txt`), `word${d}x${i} common\n`)));
    }
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('walks a folder’s first index in path order (no key per file queued), and takes changes made meanwhile', async () => {
    const library = new Library({ maxReadBytes: 1 << 20 });
    const search = new SearchIndex(library);
    try {
      await library.add(root, RULES);
      expect(search.pending).toBe(6000);
      await writeFile(path.join(root, 'd0', 'late.txt'), 'latecomer\n');
      await eventually(() => search.pending === 0, 20_000, 'the walk to finish');
      expect(search.indexed).toBe(6001);
      for (const [query, file] of [
        ['word0x0', 'd0/f0.txt'],
        ['word59x99', 'd59/f99.txt'],
        ['latecomer', 'd0/late.txt'],
      ] as const) {
        expect((await search.search(query)).hits.map((h) => h.path)).toEqual([file]);
      }
      expect((await search.search('common')).total).toBe(6000);
    } finally {
      search.close();
      await library.close();
    }
  });

  it('holds at most maxFiles files and says it is full; a change gets in once there is room', async () => {
    const library = new Library({ maxReadBytes: 1 << 20 });
    const search = new SearchIndex(library, () => false, 1000);
    try {
      await library.add(root, RULES);
      await eventually(() => search.pending === 0, 20_000, 'the walk to finish');
      expect(search.indexed).toBe(1000);
      expect(search.full).toBe(true);
      const page = await search.search('common');
      expect(page).toMatchObject({ total: 999, full: true }); // the first thousand in path order hold d0/late.txt, without the word
      // Room made by removing ten indexed files; a file changed later gets in.
      for (let i = 0; i < 10; i++) await rm(path.join(root, 'd0', `f${i}.txt`));
      await writeFile(path.join(root, 'd59', 'f99.txt'), 'word59x99 changed\n');
      await eventually(async () => (await search.search('changed')).hits.length === 1, 10_000, 'the changed file indexed');
    } finally {
      search.close();
      await library.close();
    }
  });
});
