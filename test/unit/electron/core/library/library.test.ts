import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { eventually, makeTree, uriOf } from '../../../../support/fixtures.js';

const RULES = { showHidden: false, gitignore: true, extraIgnore: [] };

describe('Library', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  const setup = async (files: Record<string, string>) => {
    const root = await makeTree(files);
    const library = new Library({ maxReadBytes: 1024 });
    cleanup.push(
      () => rm(root, { recursive: true, force: true }),
      () => library.close(),
    );
    return { root, library };
  };

  it('lists folders in the order added and paths sorted, in pages with position cursors', async () => {
    const { root, library } = await setup({ 'b.txt': 'b', 'a.txt': 'a', 'c/d.txt': 'd' });
    const other = await makeTree({ 'z.txt': 'z' });
    cleanup.push(() => rm(other, { recursive: true, force: true }));
    await library.add(root, RULES);
    await library.add(other, RULES);
    const first = library.listResources(undefined, 2);
    expect(first.resources.map((r) => r.name)).toEqual(['a.txt', 'b.txt']);
    const second = library.listResources(first.nextCursor, 2);
    expect(second.resources.map((r) => r.name)).toEqual(['c/d.txt', 'z.txt']);
    expect(second.nextCursor).toBeUndefined();
    // A filter skips entries without costing the pages before it.
    const onlyTxtUnderC = library.listResources(undefined, 10, undefined, (_f, rel) => rel.startsWith('c/'));
    expect(onlyTxtUnderC.resources.map((r) => r.name)).toEqual(['c/d.txt']);
    expect(() => library.listResources('!!')).toThrow(/Invalid cursor/);
  });

  it('resolves only published files and reads them; the rest is one "not found"', async () => {
    const { root, library } = await setup({ 'a.txt': 'alpha', '.env': 'SECRET=1', 'big.txt': 'x'.repeat(2000) });
    await library.add(root, RULES);
    expect(library.resolve(uriOf(root, 'a.txt'))?.entry.rel).toBe('a.txt');
    for (const rel of ['.env', 'nope.txt', '../outside.txt']) expect(library.resolve(uriOf(root, rel))).toBeNull();
    expect((await library.read(uriOf(root, 'a.txt'))).contents).toEqual({ uri: uriOf(root, 'a.txt'), mimeType: 'text/plain', text: 'alpha' });
    await expect(library.read(uriOf(root, '.env'))).rejects.toMatchObject({ code: -32602, data: { uri: uriOf(root, '.env') } });
    await expect(library.read(uriOf(root, 'big.txt'))).rejects.toMatchObject({ code: 1004, data: { size: 2000, limit: 1024 } });
  });

  it('says to the owner why a URI names no published file: outside, secret, hidden, ignored, or not there', async () => {
    const { root, library } = await setup({ 'a.txt': 'a', '.env': 'S=1', '.dot': 'd', 'build/x.txt': 'x', '.gitignore': 'build/\n', 'keys/.ssh/id_rsa': 'k' });
    await library.add(root, { ...RULES, extraIgnore: ['*.log'] });
    expect(library.explainMissing(uriOf(root, '.env'))).toBe('secret');
    expect(library.explainMissing(uriOf(root, 'keys/.ssh/id_rsa'))).toBe('secret');
    expect(library.explainMissing(uriOf(root, '.dot'))).toBe('hidden');
    expect(library.explainMissing(uriOf(root, 'build/x.txt'))).toBe('ignored');
    expect(library.explainMissing(uriOf(root, 'today.log'))).toBe('ignored');
    expect(library.explainMissing(uriOf(root, 'gone.txt'))).toBe('not-found');
    expect(library.explainMissing('file:///etc/passwd')).toBe('outside');
    // A URI that climbs out with dot segments names no path at all: a bad request.
    expect(library.explainMissing(`${uriOf(root, 'a.txt')}/../../../etc/passwd`)).toBe('invalid');
    expect(library.explainMissing('https://example.com/a.txt')).toBe('invalid');
    // A made-up path thousands of levels deep costs a bounded look (its first levels and the whole), and still finds a secret at its end.
    const deep = `${uriOf(root, 'a')}${'/d'.repeat(3000)}`;
    expect(library.explainMissing(deep)).toBe('not-found');
    expect(library.explainMissing(`${deep}/.env`)).toBe('secret');
  });

  it('offers a template per folder and completes paths below it', async () => {
    const { root, library } = await setup({ 'docs/intro.md': '#', 'docs/index.md': '#', 'src/x.ts': '' });
    await library.add(root, RULES);
    expect(library.templates()).toEqual([expect.objectContaining({ uriTemplate: `${uriOf(root, '')}/{+path}` })]);
    const done = library.complete(`${uriOf(root, '')}/{+path}`, 'docs/in');
    expect(done.values).toEqual(['docs/index.md', 'docs/intro.md']);
  });

  it('tells listeners when files come and when a watched file changes; removing a folder unpublishes it', async () => {
    const { root, library } = await setup({ 'a.txt': 'a' });
    await library.add(root, RULES);
    let listChanged = 0;
    const updated: string[] = [];
    const off = library.subscribe({ listChanged: () => listChanged++, updated: (uris) => updated.push(...uris) });
    await writeFile(path.join(root, 'new.txt'), 'n');
    await writeFile(path.join(root, 'a.txt'), 'a2');
    await eventually(() => listChanged > 0 && updated.includes(uriOf(root, 'a.txt')), 5000, 'list_changed and updated');
    off();
    expect(await library.remove(root)).toBe(true);
    expect(library.list()).toEqual([]);
    expect(library.resolve(uriOf(root, 'a.txt'))).toBeNull();
  });
});
