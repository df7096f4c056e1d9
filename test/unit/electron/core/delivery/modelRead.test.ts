import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DeliveryProfile } from '../../../../../electron/core/delivery/clientProfiles.js';
import { profileFor } from '../../../../../electron/core/delivery/clientProfiles.js';
import { LineIndexCache } from '../../../../../electron/core/delivery/lineIndex.js';
import { ModelReader } from '../../../../../electron/core/delivery/modelRead.js';
import { Library } from '../../../../../electron/core/library/library.js';
import { makeTree, uriOf } from '../../../../support/fixtures.js';

/** The read tool's reader in this process, over a real library and real files. */
describe('ModelReader', () => {
  let root: string;
  let library: Library;
  const profile: DeliveryProfile = profileFor(
    { name: 'unit', protocolVersion: '2025-11-25' },
    { textBudget: 100_000, imageMaxSide: 1568, imageMaxBytes: 1536 * 1024, clients: {} },
  );

  beforeAll(async () => {
    const lines = Array.from({ length: 39 }, (_, i) => `line ${i + 2}`);
    root = await makeTree({
      'long-first.txt': `${'x'.repeat(60_000)}\n${lines.join('\n')}\n`,
      // Over 1 MiB: paged from disk, looked at as a whole once per version.
      'big.log': 'a log line of some length\n'.repeat(60_000),
    });
    library = new Library({ maxReadBytes: 1024 * 1024 });
    await library.add(root, { showHidden: false, gitignore: true, extraIgnore: [] });
  });
  afterAll(async () => {
    await library.close();
    await rm(root, { recursive: true, force: true });
  });

  it('a page that starts inside a line and goes on to later lines says so in words a model can follow', async () => {
    const reader = new ModelReader({ library, lines: new LineIndexCache(), images: null });
    const read = await reader.read({ uri: uriOf(root, 'long-first.txt'), offset: 1, column: 50_001, limit: 2 }, profile);
    const note = read.result.content[1] as { text: string };
    expect(note.text).toContain('Showing line 1 from character 50,001 through line 2 of 40.');
    expect(read.detail).toBe('line 1 from character 50,001 through line 2 of 40');
  });

  it('reads of one large file at once look at it as a whole once, and all get the same page', async () => {
    const reader = new ModelReader({ library, lines: new LineIndexCache(), images: null });
    const reads = await Promise.all(Array.from({ length: 8 }, () => reader.read({ uri: uriOf(root, 'big.log'), offset: 1, limit: 3 }, profile)));
    expect(reader.scansRun).toBe(1);
    for (const r of reads) expect((r.result.content[0] as { text: string }).text).toBe('a log line of some length\n'.repeat(3));
  });

  it('a small file is read in one open (no look at its size first), and one that grew past 1 MiB since it was indexed is paged', async () => {
    const reader = new ModelReader({ library, lines: new LineIndexCache(), images: null });
    const looks: string[] = [];
    const openFile = library.openFile.bind(library);
    library.openFile = (uri: string) => {
      looks.push(uri);
      return openFile(uri);
    };
    try {
      const small = await reader.read({ uri: uriOf(root, 'long-first.txt'), offset: 2, limit: 1 }, profile);
      expect((small.result.content[0] as { text: string }).text).toBe('line 2\n');
      expect(looks).toEqual([]);
      // The index still knows it as small: the whole read finds it too large, and the page comes from the file as it is.
      await writeFile(path.join(root, 'long-first.txt'), 'a grown line\n'.repeat(100_000));
      const grown = await reader.read({ uri: uriOf(root, 'long-first.txt'), offset: 1, limit: 2 }, profile);
      expect((grown.result.content[0] as { text: string }).text).toBe('a grown line\n'.repeat(2));
    } finally {
      library.openFile = openFile;
    }
  });
});
