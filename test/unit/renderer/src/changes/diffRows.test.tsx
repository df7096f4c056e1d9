// A .tsx beside the component tests: it is type-checked with the renderer's settings (its module imports carry no extensions).
import { describe, expect, it } from 'vitest';

import { lineDiff } from '../../../../../electron/core/changes/lineDiff.js';
import { foldedBefore, splitRows } from '../../../../../renderer/src/changes/diffRows.js';

/** Hunks as the core makes them (its own diff), so the window's reading of them is tested against the real thing. */
const hunksOf = (before: string, after: string) => lineDiff(before, after).hunks;

describe('the change prompt’s diff rows', () => {
  it('side by side: a removed run faces the added run after it, the longer run’s rest facing blanks; kept lines on both sides', () => {
    const [hunk] = hunksOf('a\nb\nc\nd\n', 'a\nB1\nB2\nB3\nd\n');
    const rows = splitRows(hunk!);
    expect(rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['a', 'a'],
      ['b', 'B1'],
      ['c', 'B2'],
      [null, 'B3'],
      ['d', 'd'],
    ]);
    expect(rows[1]).toMatchObject({ left: { op: '-', old: 2 }, right: { op: '+', new: 2 } });
  });

  it('counts the unchanged lines folded before each hunk, and none before a new file’s', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
    const changed = lines.map((l, i) => (i === 19 || i === 49 ? `${l}!` : l));
    const hunks = hunksOf(`${lines.join('\n')}\n`, `${changed.join('\n')}\n`);
    expect(hunks).toHaveLength(2);
    // Line 20 changed: its hunk starts at 17 (three lines of context), 16 folded; line 50's starts at 47, after 23 ends the first.
    expect(foldedBefore(hunks[0]!, undefined)).toBe(16);
    expect(foldedBefore(hunks[1]!, hunks[0])).toBe(23);
    const [created] = hunksOf('', 'new\nfile\n');
    expect(foldedBefore(created!, undefined)).toBe(0);
  });
});
