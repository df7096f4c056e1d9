import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { expandHome, FolderRegistry } from '../../../../../electron/core/service/folderRegistry.js';
import { makeTree } from '../../../../support/fixtures.js';

describe('expandHome', () => {
  it('reads ~ as the home folder, as a shell does, and leaves other paths alone', () => {
    expect(expandHome('~')).toBe(os.homedir());
    expect(expandHome('~/notes')).toBe(path.join(os.homedir(), 'notes'));
    expect(expandHome('~someone/notes')).toBe('~someone/notes');
    expect(expandHome('/tmp/~')).toBe('/tmp/~');
  });
});

describe('FolderRegistry.add', () => {
  it('refuses a relative path, saying what works, rather than resolving it against the server’s working folder', async () => {
    const root = await makeTree({ 'a.txt': 'a' });
    const library = new Library({ maxReadBytes: 1024 });
    const registry = new FolderRegistry(library, { save: async () => undefined, changed: () => undefined });
    const cwd = process.cwd();
    try {
      // The relative path names a real folder from where the server runs: it still is not taken.
      process.chdir(path.dirname(root));
      const result = await registry.add([path.basename(root)]);
      expect(result.added).toEqual([]);
      expect(result.refused).toEqual([{ path: path.basename(root), reason: expect.stringMatching(/^Not a full path: give one that starts with .* or ~/) }]);
      expect((await registry.add([root])).added).toEqual([root]);
    } finally {
      process.chdir(cwd);
      await library.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
