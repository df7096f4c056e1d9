import { rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { type FolderChange, PublishedFolder } from '../../../../../electron/core/library/publishedFolder.js';
import { eventually, makeTree } from '../../../../support/fixtures.js';

const RULES = { showHidden: false, gitignore: true, extraIgnore: [] };

describe('PublishedFolder', () => {
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });
  const open = async (files: Record<string, string>) => {
    const root = await makeTree(files);
    const changes: FolderChange[] = [];
    const states: string[] = [];
    const folder = new PublishedFolder(1, root, RULES, { onChange: (_f, c) => changes.push(c), onState: (_f, m) => states.push(m) });
    stops.push(
      () => rm(root, { recursive: true, force: true }),
      () => folder.stop(),
    );
    await folder.start();
    return { root, folder, changes, states };
  };

  it('indexes regular files under its rules, in code-unit order', async () => {
    const { folder } = await open({ 'b.md': 'b', 'a.txt': 'a', '.hidden': 'h', 'node_modules/x.js': 'x', 'ignored.log': 'l', '.gitignore': '*.log\n' });
    expect(folder.sortedPaths()).toEqual(['a.txt', 'b.md']);
    expect(folder.get('a.txt')).toMatchObject({ rel: 'a.txt', size: 1, mimeType: 'text/plain' });
    expect(folder.state).toBe('watching');
    expect(folder.fileCount).toBe(2);
  });

  it('reports files that come, change and go', async () => {
    const { root, folder, changes } = await open({ 'a.txt': 'a' });
    await writeFile(path.join(root, 'b.txt'), 'b');
    await eventually(() => folder.get('b.txt') !== undefined, 5000, 'b.txt indexed');
    await rm(path.join(root, 'a.txt'));
    await eventually(() => folder.get('a.txt') === undefined, 5000, 'a.txt gone');
    const all = { added: changes.flatMap((c) => c.added), removed: changes.flatMap((c) => c.removed) };
    expect(all.added).toContain('b.txt');
    expect(all.removed).toContain('a.txt');
  });

  it('a rename costs one remove and one add, never a re-index; a folder removed takes its files along', async () => {
    const { root, folder, changes } = await open({ 'docs/a.md': 'a', 'docs/b.md': 'b', 'other/c.txt': 'c' });
    folder.sortedPaths(); // built now, so the changes below must keep it in order rather than rebuild it
    changes.length = 0;
    await rename(path.join(root, 'docs/a.md'), path.join(root, 'docs/a2.md'));
    await eventually(() => folder.get('docs/a2.md') !== undefined && folder.get('docs/a.md') === undefined, 5000, 'the rename applied');
    await new Promise((r) => setTimeout(r, 2000)); // past the old settle time: no re-index follows
    const all = { added: changes.flatMap((c) => c.added), removed: changes.flatMap((c) => c.removed) };
    expect(all).toEqual({ added: ['docs/a2.md'], removed: ['docs/a.md'] });
    expect(folder.totalBytes).toBe(1 + 1 + 1);
    expect(folder.reindexes).toBe(0);
    for (let i = 0; i < 30; i++) await writeFile(path.join(root, 'other', `n${(i * 7) % 30}.txt`), 'n');
    for (let i = 0; i < 30; i += 3) await rm(path.join(root, 'other', `n${i}.txt`));
    await eventually(() => folder.fileCount === 3 + 20, 5000, 'the burst applied');
    expect(folder.totalBytes).toBe(3 + 20); // kept as files come and go, not summed
    expect(folder.sortedPaths()).toEqual([...folder.sortedPaths()].sort());
    await rm(path.join(root, 'docs'), { recursive: true });
    await eventually(() => !folder.sortedPaths().some((p) => p.startsWith('docs/')) && folder.fileCount === 21, 5000, 'docs/ gone');
    expect(folder.sortedPaths()).toEqual([...folder.sortedPaths()].sort());
    expect(folder.reindexes).toBe(0);
  });

  it('a second event for a write already seen is no change; a same-size rewrite after it is one', async () => {
    const { root, folder, changes } = await open({ 'a.txt': 'a' });
    const file = path.join(root, 'b.txt');
    await writeFile(file, 'one');
    await eventually(() => folder.get('b.txt')?.size === 3, 5000, 'b.txt indexed as written');
    changes.length = 0;
    // What the watcher does when a create and its write land in two batches: a second event for the same write.
    const watcher = folder as unknown as { markPath(p: string, structural: boolean): void };
    watcher.markPath(file, false);
    watcher.markPath(file, false);
    await writeFile(path.join(root, 'c.txt'), 'c'); // a real change after them: once it is in, the events before it were handled
    await eventually(() => folder.get('c.txt') !== undefined, 5000, 'c.txt indexed');
    // Only c.txt (added, and on a busy machine its write may come as a change of its own): b.txt's second event is none.
    expect([...new Set(changes.flatMap((c) => [...c.added, ...c.removed, ...c.changed]))]).toEqual(['c.txt']);
    changes.length = 0;
    await writeFile(file, 'two'); // same size, and maybe the same mtime tick: its change time still moves
    await eventually(() => changes.some((c) => c.changed.includes('b.txt')), 5000, 'the rewrite reported');
  });

  it('writes inside an ignored folder change nothing and cost no re-index', async () => {
    const { root, folder, changes } = await open({ '.gitignore': 'build/\n', 'src/a.ts': 'a', 'build/out.js': 'o' });
    expect(folder.sortedPaths()).toEqual(['src/a.ts']);
    changes.length = 0;
    const seen = folder.watchEvents;
    for (let i = 0; i < 50; i++) await writeFile(path.join(root, 'build', `gen-${i}.js`), String(i));
    await mkdir(path.join(root, 'build', 'deep'), { recursive: true });
    await writeFile(path.join(root, 'build', 'deep', 'x.js'), 'x');
    await writeFile(path.join(root, 'src', 'b.ts'), 'b'); // a real change after them, to know the events were handled
    await eventually(() => folder.get('src/b.ts') !== undefined, 5000, 'src/b.ts indexed');
    // Only src/b.ts (added, and on a busy machine its write may come as a change of its own).
    expect([...new Set(changes.flatMap((c) => [...c.added, ...c.removed, ...c.changed]))]).toEqual(['src/b.ts']);
    expect(folder.reindexes).toBe(0);
    // build/ is not even watched: only src/b.ts reached the folder (a create and maybe a write).
    expect(folder.watchEvents - seen).toBeLessThanOrEqual(2);
  });

  it('a new file or folder whose deletion the watcher dropped is noticed by the second look; unchanged ones cause no update', async () => {
    const { root, folder, changes } = await open({ 'old.txt': 'o' });
    await writeFile(path.join(root, 'new.txt'), 'n');
    await writeFile(path.join(root, 'kept.txt'), 'k');
    await mkdir(path.join(root, 'dir'));
    await writeFile(path.join(root, 'dir', 'inner.txt'), 'i');
    await eventually(() => folder.fileCount === 4, 5000, 'the new files indexed');
    await new Promise((r) => setTimeout(r, 300)); // the writes' own events, after the folder's scan found the files
    changes.length = 0;
    // What @parcel/watcher does to a path created and deleted within one batch: nothing reaches us.
    const { watching } = folder as unknown as { watching: { watcher: { close(): Promise<void> } } };
    await watching.watcher.close();
    await rm(path.join(root, 'new.txt'));
    await rename(path.join(root, 'dir'), `${root}-dir-away`);
    stops.push(() => rm(`${root}-dir-away`, { recursive: true, force: true }));
    await eventually(() => folder.get('new.txt') === undefined && folder.get('dir/inner.txt') === undefined, 6000, 'the second look to drop them');
    expect(folder.sortedPaths()).toEqual(['kept.txt', 'old.txt']);
    expect(folder.recheckFixes).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 3500)); // past the last look
    expect(changes.flatMap((c) => c.changed)).toEqual([]);
    expect(changes.flatMap((c) => c.removed).sort()).toEqual(['dir/inner.txt', 'new.txt']);
  });

  it('lists files before stat’ing them: sizes come with the first look or the pass after; one gone before its stat is removed', async () => {
    const { root, folder, changes } = await open({ 'a.txt': 'aaaa', 'b.md': 'bb', 'gone.txt': 'g', LICENSE: 'MIT' });
    // Right after the index, before the stat pass's first turn.
    rmSync(path.join(root, 'gone.txt'));
    expect(folder.get('a.txt')).toMatchObject({ size: 4, mimeType: 'text/plain' });
    expect(folder.get('LICENSE')?.size).toBe(3);
    await eventually(() => folder.get('gone.txt') === undefined, 5000, 'the vanished file removed');
    expect(folder.totalBytes).toBe(4 + 2 + 3);
    expect(folder.get('b.md')?.mtimeMs).toBeGreaterThan(0);
    expect(changes.flatMap((c) => c.removed)).toEqual(['gone.txt']);
    expect(changes.flatMap((c) => c.changed)).toEqual([]);
  });

  it('a .gitignore written, added or removed re-syncs its own folder only, never the whole tree', async () => {
    const { root, folder } = await open({ 'a/keep.txt': 'k', 'a/drop.log': 'd', 'a/b/x.log': 'x', 'other/y.log': 'y', 'other/deep/z.txt': 'z' });
    const watched = folder.watchedDirectories;
    await writeFile(path.join(root, 'a', '.gitignore'), '*.log\n');
    await eventually(() => folder.get('a/drop.log') === undefined && folder.get('a/b/x.log') === undefined, 5000, 'a/*.log hidden');
    expect(folder.get('other/y.log')).toBeDefined();
    await writeFile(path.join(root, '.gitignore'), 'other/\n');
    await eventually(() => folder.sortedPaths().join() === 'a/keep.txt', 5000, 'other/ hidden');
    if (watched !== null) expect(folder.watchedDirectories).toBe((watched as number) - 2); // other/ and other/deep/ no longer watched
    await rm(path.join(root, 'a', '.gitignore'));
    await rm(path.join(root, '.gitignore'));
    await eventually(() => folder.fileCount === 5, 5000, 'everything back');
    await writeFile(path.join(root, 'other', 'deep', 'new.txt'), 'n'); // watched again
    await eventually(() => folder.get('other/deep/new.txt') !== undefined, 5000, 'a new file in a folder published again');
    expect(folder.reindexes).toBe(0);
  });

  it('after lost events the whole tree is looked at again, in place, and the index matches the disk', async () => {
    const { root, folder, changes } = await open({ 'gone/a.txt': 'a', 'stays/b.txt': 'b', 'becomes-file/c.txt': 'c', 'top.txt': 't' });
    // Events lost: the watcher is gone while the disk changes.
    const inside = folder as unknown as { watching: { watcher: { close(): Promise<void> } }; rescanAll: boolean; scheduleFlush(): void };
    await inside.watching.watcher.close();
    await rm(path.join(root, 'gone'), { recursive: true });
    await writeFile(path.join(root, 'stays', 'new.txt'), 'n');
    await rm(path.join(root, 'becomes-file'), { recursive: true });
    await writeFile(path.join(root, 'becomes-file'), 'now a file');
    changes.length = 0;
    inside.rescanAll = true;
    inside.scheduleFlush();
    await eventually(() => folder.reindexes === 1 && changes.length > 0, 5000, 'the rescan');
    expect(folder.sortedPaths()).toEqual(['becomes-file', 'stays/b.txt', 'stays/new.txt', 'top.txt']);
    expect(changes.flatMap((c) => c.changed)).toEqual([]); // nothing unchanged is reported as changed
  });

  it('a folder replaced by another of the same name leaves nothing of the old one behind', async () => {
    const { root, folder } = await open({ 'a/old-1.txt': '1', 'a/deep/old-2.txt': '2', 'c/new.txt': 'n' });
    await rename(path.join(root, 'a'), path.join(root, 'b'));
    await rename(path.join(root, 'c'), path.join(root, 'a'));
    await eventually(() => folder.sortedPaths().join() === 'a/new.txt,b/deep/old-2.txt,b/old-1.txt', 5000, 'the swap applied');
    await writeFile(path.join(root, 'a', 'later.txt'), 'l'); // the moved folder is watched at its new place
    await writeFile(path.join(root, 'b', 'deep', 'later.txt'), 'l');
    await eventually(() => folder.get('a/later.txt') !== undefined && folder.get('b/deep/later.txt') !== undefined, 5000, 'writes in the moved folders');
    expect(folder.reindexes).toBe(0);
  });

  it.runIf(process.platform === 'linux')('Linux: watches the directories it publishes, one each, and none that are excluded', async () => {
    const { root, folder } = await open({
      '.gitignore': 'build/\n',
      'src/a.ts': 'a',
      'src/lib/b.ts': 'b',
      'build/x/y.js': 'y',
      'node_modules/m/i.js': 'i',
      '.git/HEAD': 'h',
    });
    expect(folder.watchedDirectories).toBe(3); // the root, src, src/lib
    await mkdir(path.join(root, 'new', 'deeper', 'deepest'), { recursive: true });
    await writeFile(path.join(root, 'new', 'deeper', 'deepest', 'f.txt'), 'f');
    await eventually(() => folder.get('new/deeper/deepest/f.txt') !== undefined, 5000, 'a file in a new nested folder');
    expect(folder.watchedDirectories).toBe(6);
    await writeFile(path.join(root, 'new', 'deeper', 'deepest', 'g.txt'), 'g'); // seen through the new folder's own watch
    await eventually(() => folder.get('new/deeper/deepest/g.txt') !== undefined, 5000, 'a later file there');
    await rm(path.join(root, 'new'), { recursive: true });
    await eventually(() => folder.watchedDirectories === 3 && folder.fileCount === 2, 5000, 'the removed folders unwatched');
  });

  it('a root that disappears stops being served and comes back when it returns', async () => {
    const { root, folder, states } = await open({ 'a.txt': 'a' });
    await rename(root, `${root}-away`);
    await eventually(() => folder.state === 'missing', 5000, 'missing');
    expect(folder.fileCount).toBe(0);
    await rename(`${root}-away`, root);
    await eventually(() => folder.state === 'watching' && folder.fileCount === 1, 5000, 'served again');
    expect(states.some((s) => /missing/.test(s))).toBe(true);
  });

  it('a root replaced by a different place under the same path is not served', async () => {
    const { root, folder } = await open({ 'a.txt': 'a' });
    const elsewhere = await makeTree({ 'secret.txt': 's' });
    stops.push(() => rm(elsewhere, { recursive: true, force: true }));
    await rename(root, `${root}-old`);
    await mkdir(path.dirname(root), { recursive: true });
    const { symlink } = await import('node:fs/promises');
    await symlink(elsewhere, root);
    await eventually(() => folder.state === 'missing' && /now leads to/.test(folder.error ?? ''), 5000, 'refused as leading elsewhere');
    expect(folder.get('secret.txt')).toBeUndefined();
    await rm(root);
    await rename(`${root}-old`, root);
  });
});
