import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { SearchIndex } from '../../../../../electron/core/search/searchIndex.js';
import { eventually, makeTree } from '../../../../support/fixtures.js';
import { startService } from '../../../../support/service.js';

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

describe('SearchIndex sweeps', () => {
  it('sweeps removed files’ postings in its slices, with no file added to drive it, and finds the rest', async () => {
    const root = await makeTree(Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`${i < 60 ? 'gone' : 'kept'}/f${i}.txt`, `word${i} common\n`])));
    const library = new Library({ maxReadBytes: 1 << 20 });
    const search = new SearchIndex(library, () => false, 1000, { fromDocs: 10, fromPostings: 1000, perAdd: 0 });
    try {
      await library.add(root, RULES);
      await eventually(() => search.pending === 0 && search.indexed === 80, 10_000, 'the first index');
      expect(search.sweeping).toBe(false);
      await rm(path.join(root, 'gone'), { recursive: true });
      await eventually(() => search.indexed === 20, 10_000, 'the removals');
      await eventually(() => !search.sweeping, 10_000, 'the sweep to end');
      expect((await search.search('common')).total).toBe(20);
      expect((await search.search('word70')).hits.map((h) => h.path)).toEqual(['kept/f70.txt']);
      expect((await search.search('word10')).total).toBe(0);
    } finally {
      search.close();
      await library.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('SearchIndex after many files are deleted (security review, issue 37 item 5)', () => {
  const LOGS = 2000;
  const WORDS = 100; // distinct words a log: 200,000 in all
  const SMALL = 12_000;
  const logName = (i: number) => `log${String(i).padStart(4, '0')}.txt`;
  const logText = (i: number) => Array.from({ length: WORDS }, (_, j) => `line ${j}: event w${i}x${j} happened`).join('\n') + '\n';
  let root: string;
  beforeAll(async () => {
    root = path.join(os.tmpdir(), `search-compact-${process.pid}`);
    await mkdir(path.join(root, 'logs'), { recursive: true });
    await mkdir(path.join(root, 'cache'), { recursive: true });
    for (let from = 0; from < LOGS; from += 200) {
      await Promise.all(Array.from({ length: 200 }, (_, k) => writeFile(path.join(root, 'logs', logName(from + k)), logText(from + k))));
    }
    // Before the logs in path order: indexed first, they take the index's low numbers (compaction renumbered every log when they went).
    for (let from = 0; from < SMALL; from += 500) {
      await Promise.all(Array.from({ length: 500 }, (_, k) => writeFile(path.join(root, 'cache', `c${from + k}.txt`), `cached note n${from + k}\n`)));
    }
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('a word of log1234.txt is found there, and only there, with its snippet, after 12,000 other files went; files added after are found too', async () => {
    const svc = await startService({ sessionFolders: [root], searchIndex: true });
    try {
      const settled = async (files: number) => {
        const s = await svc.service.getStatus();
        return s.files === files && s.search !== null && s.search.pending === 0;
      };
      await eventually(() => settled(LOGS + SMALL), 30_000, 'the first index');
      expect((await svc.service.getStatus()).search?.indexed).toBe(LOGS + SMALL);
      await rm(path.join(root, 'cache'), { recursive: true });
      await eventually(() => settled(LOGS), 30_000, 'the deleted files gone');
      expect.soft((await svc.service.getStatus()).search?.indexed).toBe(LOGS);
      const probe = async () => {
        for (const [i, j] of [
          [1234, 56],
          [0, 0],
          [1999, 99],
          [1056, 7],
        ] as const) {
          const page = await svc.service.searchContent(`w${i}x${j}`, null);
          expect.soft(page.hits.map((h) => h.path)).toEqual([`logs/${logName(i)}`]);
          expect.soft(page.hits[0]?.snippet ?? '').toContain(`**w${i}x${j}**`);
        }
        expect((await svc.service.searchContent('cached', null)).total).toBe(0);
        expect((await svc.service.searchContent('happened', null)).total).toBe(LOGS);
      };
      await probe();
      // New files take the numbers the deleted ones left (once swept), and are found by their own words only.
      await mkdir(path.join(root, 'fresh'));
      await Promise.all(Array.from({ length: 500 }, (_, k) => writeFile(path.join(root, 'fresh', `f${k}.txt`), `fresh note q${k}\n`)));
      // (A file can be seen created before its text is written: indexed once it is.)
      await eventually(async () => (await svc.service.searchContent('fresh', null)).total === 500, 30_000, 'the new files indexed');
      expect((await svc.service.searchContent('q77', null)).hits.map((h) => [h.path, h.snippet])).toEqual([['fresh/f77.txt', 'fresh note **q77**']]);
      expect((await svc.service.searchContent('fresh', null)).total).toBe(500);
      await probe();
    } finally {
      await svc.stop();
    }
  });
});
