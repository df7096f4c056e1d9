import { execFileSync } from 'node:child_process';
import { chmod, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { changeTarget, readCurrent, sha256, writeChecked } from '../../../../../electron/core/library/safeWrite.js';
import { makeTree, uriOf } from '../../../../support/fixtures.js';

/** Writes the way an approved change is written, on real files in this process. */
describe('safeWrite', () => {
  let base: string;
  let root: string;
  let library: Library;
  const target = (rel: string) => changeTarget(library.list(), uriOf(root, rel));
  const failure = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return (err as { data: { reason: string } }).data.reason;
    }
    return 'written';
  };

  beforeAll(async () => {
    base = await makeTree({ 'pub/script.sh': '#!/bin/sh\necho hi\n', 'pub/a.txt': 'a\n', 'outside/o.txt': 'O\n' });
    root = path.join(base, 'pub');
    await chmod(path.join(root, 'script.sh'), 0o750);
    await symlink(path.join(base, 'outside', 'o.txt'), path.join(root, 'link.txt'));
    execFileSync('mkfifo', [path.join(root, 'pipe.txt')]);
    library = new Library({ maxReadBytes: 1024 * 1024 });
    await library.add(root, { showHidden: false, gitignore: true, extraIgnore: [] });
  });
  afterAll(async () => {
    await library.close();
    await rm(base, { recursive: true, force: true });
  });

  it('replaces a file whole, keeping its mode, and leaves no temporary file', async () => {
    const t = target('script.sh');
    const before = readCurrent(t, 'u', 1024);
    writeChecked(t, 'u', Buffer.from('#!/bin/sh\necho bye\n'), { hash: sha256(before?.bytes ?? Buffer.alloc(0)) }, 1024);
    expect(await readFile(path.join(root, 'script.sh'), 'utf8')).toBe('#!/bin/sh\necho bye\n');
    expect((await stat(path.join(root, 'script.sh'))).mode & 0o777).toBe(0o750);
    expect((await readdir(root)).filter((n) => n.includes('mcp-shelf'))).toEqual([]);
  });

  it('writes nothing when the file is not what the change was based on (a conflict), nor over a file that appeared', async () => {
    expect(failure(() => writeChecked(target('a.txt'), 'u', Buffer.from('x'), { hash: sha256(Buffer.from('not a\n')) }, 1024))).toBe('conflict');
    expect(failure(() => writeChecked(target('a.txt'), 'u', Buffer.from('x'), { absent: true }, 1024))).toBe('conflict');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('makes missing folders for a new file, and refuses a link, a FIFO or a link on the way', async () => {
    expect(writeChecked(target('new/deep/n.txt'), 'u', Buffer.from('n'), { absent: true }, 1024).madeFolders).toEqual(['new', 'new/deep']);
    expect(await readFile(path.join(root, 'new/deep/n.txt'), 'utf8')).toBe('n');
    expect(failure(() => writeChecked(target('link.txt'), 'u', Buffer.from('x'), { absent: true }, 1024))).toBe('not-a-file');
    expect(failure(() => readCurrent(target('pipe.txt'), 'u', 1024))).toBe('not-a-file');
    await symlink(path.join(base, 'outside'), path.join(root, 'via'));
    expect(failure(() => writeChecked(target('via/x.txt'), 'u', Buffer.from('x'), { absent: true }, 1024))).toBe('not-a-file');
    expect(await readdir(path.join(base, 'outside'))).toEqual(['o.txt']);
    expect(await readFile(path.join(base, 'outside', 'o.txt'), 'utf8')).toBe('O\n');
  });

  it('names only paths inside a published folder that its rules publish', () => {
    for (const rel of ['.env', '.git/config', 'node_modules/x.js', 'id_rsa', 'keys/server.pem'])
      expect(
        failure(() => target(rel)),
        rel,
      ).toBe('not-published');
    expect(failure(() => changeTarget(library.list(), `file://${base}/outside/o.txt`))).toBe('not-published');
    expect(failure(() => changeTarget(library.list(), `${uriOf(root, '')}/../outside/o.txt`))).toBe('not-published');
  });

  it('writes a file nobody could write before it existed, as the umask allows', async () => {
    writeChecked(target('fresh.txt'), 'u', Buffer.from('f'), { absent: true }, 1024);
    const mode = (await stat(path.join(root, 'fresh.txt'))).mode & 0o777;
    expect(mode & 0o600).toBe(0o600);
    await writeFile(path.join(root, 'fresh.txt'), 'g');
  });
});
