import { rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import type { PublishedFolder } from '../../../../../electron/core/library/publishedFolder.js';
import { DIR_PAGE, FIND_LIMIT, findFiles, folderOf, listDirectory } from '../../../../../electron/core/mcp/appBrowse.js';
import { makeTree, uriOf } from '../../../../support/fixtures.js';

/** The in-chat app's browsing over a real library: directories a page at a time, and a filter that yields. */
describe('appBrowse', () => {
  let root: string;
  let library: Library;
  let folder: PublishedFolder;
  const BIG = 1200;
  const MANY = 5000;

  beforeAll(async () => {
    const files: Record<string, string> = {
      'a/b/c.txt': 'c',
      'a/x.txt': 'x',
      'a-b.txt': 'dash',
      'z.md': 'z',
      'deep/1/2/3/4.txt': '4',
      'notes/plan.md': 'plan',
      'plan/readme.txt': 'r',
      'x/planet.txt': 'p',
      // U+FFFF sorts after "/": a directory's paths must still be found once, and its files listed.
      'q/\uffff.txt': 'odd',
      'q/\uffffz/1.txt': 'odder',
      'report.pdf': '%PDF-1.4',
    };
    for (let i = 0; i < BIG; i++) files[`big/${String(i).padStart(4, '0')}.txt`] = String(i);
    for (let i = 0; i < MANY; i++) files[`many/m${String(i).padStart(4, '0')}.log`] = '';
    root = await makeTree(files);
    library = new Library({ maxReadBytes: 1024 });
    folder = await library.add(root, { showHidden: false, gitignore: true, extraIgnore: [] });
  }, 60_000);
  afterAll(async () => {
    await library.close();
    await rm(root, { recursive: true, force: true });
  });

  it('lists a directory: its subdirectories (each once, whatever lies below) first, then its files, by name', () => {
    const top = listDirectory(folder, '');
    expect(top.nextCursor).toBeUndefined();
    expect(top.entries.map((e) => `${e.type}:${e.path}`)).toEqual([
      'dir:a',
      'dir:big',
      'dir:deep',
      'dir:many',
      'dir:notes',
      'dir:plan',
      'dir:q',
      'dir:x',
      'file:a-b.txt',
      'file:report.pdf',
      'file:z.md',
    ]);
    expect(top.entries.find((e) => e.path === 'z.md')).toEqual({
      type: 'file',
      path: 'z.md',
      name: 'z.md',
      uri: uriOf(root, 'z.md'),
      mimeType: 'text/markdown',
      size: 1,
    });
    expect(top.entries.find((e) => e.path === 'report.pdf')).toMatchObject({ textUri: `${uriOf(root, 'report.pdf')}?as=text` });
    expect(listDirectory(folder, 'a').entries.map((e) => `${e.type}:${e.name}`)).toEqual(['dir:b', 'file:x.txt']);
    expect(listDirectory(folder, '/a/').entries).toHaveLength(2);
    expect(listDirectory(folder, 'q').entries.map((e) => `${e.type}:${e.path}`)).toEqual(['dir:q/\uffffz', 'file:q/\uffff.txt']);
    expect(listDirectory(folder, 'no/such/dir').entries).toEqual([]);
  });

  it('pages a big directory with a cursor that rebuilds it exactly, and refuses a cursor from elsewhere', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = listDirectory(folder, 'big', cursor);
      expect(page.entries.length).toBeLessThanOrEqual(DIR_PAGE);
      seen.push(...page.entries.map((e) => e.path));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(BIG / DIR_PAGE));
    expect(seen).toEqual(Array.from({ length: BIG }, (_, i) => `big/${String(i).padStart(4, '0')}.txt`));
    const first = listDirectory(folder, 'big');
    expect(() => listDirectory(folder, 'a', first.nextCursor)).toThrow(/Invalid cursor/);
  });

  it('finds by name first, then by folder path; at most FIND_LIMIT, saying there were more', async () => {
    const plan = await findFiles(library, 'PLAN');
    expect(plan.matches.map((m) => m.path)).toEqual(['notes/plan.md', 'x/planet.txt', 'plan/readme.txt']);
    expect(plan.more).toBe(false);
    expect(plan.matches[0]).toMatchObject({ folder: root, uri: uriOf(root, 'notes/plan.md') });
    const both = await findFiles(library, 'a b');
    expect(both.matches.map((m) => m.path)).toEqual(['a-b.txt', 'a/b/c.txt']);
    const logs = await findFiles(library, '.log');
    expect(logs.matches).toHaveLength(FIND_LIMIT);
    expect(logs.more).toBe(true);
    expect((await findFiles(library, '   ')).matches).toEqual([]);
    expect((await findFiles(library, 'readme', folderOf(library, root))).matches).toHaveLength(1);
  });

  it('scans in slices that give the event loop back, and a scan resumed across slices misses and repeats nothing', async () => {
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    // A slice of 0 ms: the scan yields at every clock check (every 1,024 paths).
    const found = await findFiles(library, '77', undefined, 0);
    done = true;
    expect(turns).toBeGreaterThan(3);
    const expected = [
      ...Array.from({ length: MANY }, (_, i) => `many/m${String(i).padStart(4, '0')}.log`),
      ...Array.from({ length: BIG }, (_, i) => `big/${String(i).padStart(4, '0')}.txt`),
    ].filter((p) => p.includes('77'));
    expect(found.matches.map((m) => m.path).sort()).toEqual(expected.sort());
  });

  it('names a folder by its path or its name, and refuses anything else', () => {
    expect(folderOf(library, root)).toBe(folder);
    expect(folderOf(library, root.split('/').pop() as string)).toBe(folder);
    expect(() => folderOf(library, '/nowhere')).toThrow(/Not a published folder/);
  });
});
