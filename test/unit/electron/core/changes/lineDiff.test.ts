import { describe, expect, it } from 'vitest';

import { lineDiff, unifiedText } from '../../../../../electron/core/changes/lineDiff.js';

describe('lineDiff', () => {
  it('a new file: every line added, numbered in the new text', () => {
    const d = lineDiff('', '# T\n\nbody\n');
    expect(d).toMatchObject({ added: 3, removed: 0 });
    expect(d.hunks[0]?.lines).toEqual([
      { op: '+', text: '# T', new: 1 },
      { op: '+', text: '', new: 2 },
      { op: '+', text: 'body', new: 3 },
    ]);
  });

  it('one changed line in a long file: one hunk with three lines of context, numbered as the file', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    const changed = [...lines];
    changed[49] = 'LINE 50';
    const d = lineDiff(`${lines.join('\n')}\n`, `${changed.join('\n')}\n`);
    expect(d).toMatchObject({ added: 1, removed: 1 });
    expect(d.hunks).toHaveLength(1);
    expect(d.hunks[0]).toMatchObject({ oldStart: 47, newStart: 47 });
    expect(d.hunks[0]?.lines.map((l) => `${l.op}${l.text}`)).toEqual([
      ' line 47',
      ' line 48',
      ' line 49',
      '-line 50',
      '+LINE 50',
      ' line 51',
      ' line 52',
      ' line 53',
    ]);
    expect(unifiedText('a.txt', false, d.hunks, 10_000)).toBe(
      ['--- a/a.txt', '+++ b/a.txt', '@@ -47,7 +47,7 @@', ' line 47', ' line 48', ' line 49', '-line 50', '+LINE 50', ' line 51', ' line 52', ' line 53'].join(
        '\n',
      ),
    );
  });

  it('two texts with nothing in common beyond what Myers can do in time still give an exact diff', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${(i * 7919) % 20_000}`).join('\n');
    const b = Array.from({ length: 20_000 }, (_, i) => `b${(i * 104729) % 20_000}`).join('\n');
    const d = lineDiff(a, b);
    expect(d.added).toBe(20_000);
    expect(d.removed).toBe(20_000);
  });
});
