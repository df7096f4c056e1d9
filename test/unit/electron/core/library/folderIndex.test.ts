import { describe, expect, it } from 'vitest';

import { FolderIndex, noChange } from '../../../../../electron/core/library/folderIndex.js';
import type { FileEntry } from '../../../../../electron/core/library/folderScan.js';

const entry = (rel: string): FileEntry => ({ rel, size: 1, mtimeMs: 1, mimeType: 'text/plain' });
const sorted = (paths: readonly string[]) => [...paths].sort();

describe('FolderIndex.withName', () => {
  it('finds the paths of a name, kept in step as files come and go and when the index is replaced', () => {
    const index = new FolderIndex();
    const change = noChange();
    for (const rel of ['a.md', 'notes/a.md', 'notes/b.md', 'deep/er/a.md', 'a.md.bak']) index.upsert(entry(rel), change);
    expect(sorted(index.withName('a.md'))).toEqual(['a.md', 'deep/er/a.md', 'notes/a.md']);
    expect(index.withName('b.md')).toEqual(['notes/b.md']);
    expect(index.withName('md')).toEqual([]);
    // Built now: later changes are kept in it.
    index.upsert(entry('new/a.md'), change);
    index.remove('notes/a.md', change);
    index.remove('notes/b.md', change);
    index.remove('not/there.md', change);
    expect(sorted(index.withName('a.md'))).toEqual(['a.md', 'deep/er/a.md', 'new/a.md']);
    expect(index.withName('b.md')).toEqual([]);
    index.remove('a.md', change);
    index.remove('deep/er/a.md', change);
    expect(index.withName('a.md')).toEqual(['new/a.md']);
    // A full scan's entries replace everything, names included.
    index.replace(new Map([['other/a.md', entry('other/a.md')]]), () => undefined);
    expect(index.withName('a.md')).toEqual(['other/a.md']);
  });
});
