import { describe, expect, it } from 'vitest';

import { SortedPaths } from '../../../../../electron/core/library/sortedPaths.js';

describe('SortedPaths', () => {
  it('keeps paths in code-unit order through adds and removes, and walks ranges', () => {
    const paths = SortedPaths.of(['b/2.txt', 'a.md', 'B.md', 'b/1.txt', 'é.txt', 'b0.txt']);
    expect([...paths]).toEqual(['B.md', 'a.md', 'b/1.txt', 'b/2.txt', 'b0.txt', 'é.txt']);
    paths.add('b/15.txt');
    paths.delete('a.md');
    paths.delete('not-there');
    expect(paths.size).toBe(6);
    expect([...paths.startingWith('b/')]).toEqual(['b/1.txt', 'b/15.txt', 'b/2.txt']);
    expect([...paths.after('b/15.txt')]).toEqual(['b/2.txt', 'b0.txt', 'é.txt']);
    expect([...paths.after('b/10.txt')]).toEqual(['b/15.txt', 'b/2.txt', 'b0.txt', 'é.txt']); // a page's last path may be gone since
  });

  it('holds 100,000 paths with a thousand changes in step with a sorted copy', () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `d${i % 97}/f${i}.txt`);
    const paths = SortedPaths.of(names);
    const model = new Set(names);
    for (let i = 0; i < 1000; i++) {
      const add = `d${i % 13}/new-${i}.txt`;
      paths.add(add);
      model.add(add);
      const gone = names[i * 7] as string;
      paths.delete(gone);
      model.delete(gone);
    }
    expect([...paths]).toEqual([...model].sort());
  });
});
