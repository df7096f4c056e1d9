import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { completeFolderPath } from '../../../../../electron/core/service/pathCompletion.js';
import { makeTree } from '../../../../support/fixtures.js';

describe('completeFolderPath', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTree({ 'notes/a.md': 'a', 'novels/b.md': 'b', 'nothing.txt': 'f', '.nope/c': 'c', 'zeta/d': 'd' });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('lists folders (not files) starting with the typed name, hidden ones only when asked for', async () => {
    expect(await completeFolderPath(path.join(root, 'no'))).toEqual([path.join(root, 'notes') + path.sep, path.join(root, 'novels') + path.sep]);
    expect(await completeFolderPath(`${root}${path.sep}`)).toEqual(['notes', 'novels', 'zeta'].map((n) => path.join(root, n) + path.sep));
    expect(await completeFolderPath(path.join(root, '.n'))).toEqual([path.join(root, '.nope') + path.sep]);
  });

  it('keeps ~ as typed, and answers nothing for relative, missing or malformed input', async () => {
    const name = `shelf-complete-${process.pid}`;
    await mkdir(path.join(os.homedir(), name), { recursive: true });
    await writeFile(path.join(os.homedir(), name, 'x'), 'x');
    try {
      expect(await completeFolderPath(`~/${name.slice(0, -2)}`)).toContain(`~/${name}${path.sep}`);
    } finally {
      await rm(path.join(os.homedir(), name), { recursive: true, force: true });
    }
    expect(await completeFolderPath('relative/path')).toEqual([]);
    expect(await completeFolderPath(path.join(root, 'missing', 'x'))).toEqual([]);
    expect(await completeFolderPath('/a\0b')).toEqual([]);
  });
});
