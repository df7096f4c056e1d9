import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { MAX_INDEXED_BYTES, SearchIndex } from '../../../../../electron/core/search/searchIndex.js';
import { SkippedFiles } from '../../../../../electron/core/search/skippedFiles.js';
import { eventually, makeTree } from '../../../../support/fixtures.js';

const RULES = { showHidden: false, gitignore: true, extraIgnore: [] };

describe('the files the search index leaves out', () => {
  it('are named with why (too big, not text), big ones first; a file that shrinks is taken in; a removed folder is forgotten', async () => {
    const root = await makeTree({
      'a.txt': 'small words\n',
      'big.log': 'x'.repeat(MAX_INDEXED_BYTES + 1),
      'blob.dat': new Uint8Array([0, 1, 2, 0, 255, 0, 0, 9]),
    });
    const library = new Library({ maxReadBytes: 16 << 20 });
    const search = new SearchIndex(library);
    try {
      const folder = await library.add(root, RULES);
      await eventually(() => search.pending === 0 && search.skipped.report(library.list(), 10).files.length === 2, 20_000, 'the index');
      const report = search.skipped.report(library.list(), 10);
      expect(report.counts).toEqual({ 'too-big': 1, binary: 1, unreadable: 0, full: 0 });
      expect(report.files.map((f) => [f.path, f.reason])).toEqual([
        ['big.log', 'too-big'],
        ['blob.dat', 'binary'],
      ]);
      expect(search.skipped.has(folder, 'big.log')).toBe(true);
      expect(search.skipped.has(folder, 'a.txt')).toBe(false);

      await writeFile(path.join(root, 'big.log'), 'now small enough\n');
      await eventually(async () => (await search.search('enough')).hits.length === 1, 20_000, 'the shrunk log indexed');
      expect(search.skipped.has(folder, 'big.log')).toBe(false);

      await library.remove(root);
      expect(search.skipped.report(library.list(), 10).files).toEqual([]);
    } finally {
      search.close();
      await library.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('keeps a bounded number by name and counts the rest', () => {
    const skipped = new SkippedFiles(2);
    for (const rel of ['a', 'b', 'c', 'd']) skipped.note(`1\u0000${rel}`, 'binary');
    skipped.note('1\u0000a', 'too-big'); // one already named changes its reason in place
    expect(skipped.untracked).toBe(2);
  });
});
