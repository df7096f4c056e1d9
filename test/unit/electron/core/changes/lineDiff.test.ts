import { structuredPatch } from 'diff';
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

  it('hunks rebuild the new text from the old and are as small as jsdiff finds, on generated edits', () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const apply = (old: string[], hunks: ReturnType<typeof lineDiff>['hunks']) => {
      const out: string[] = [];
      let at = 0;
      for (const h of hunks) {
        const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
        out.push(...old.slice(at, start));
        at = start;
        for (const l of h.lines) {
          if (l.op === ' ') expect(old[at++]).toBe(l.text);
          else if (l.op === '-') expect(old[at++]).toBe(l.text);
          else out.push(l.text);
          if (l.op === ' ') out.push(l.text);
        }
      }
      return [...out, ...old.slice(at)];
    };
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: rand(60) }, () => `l${rand(12)}`);
      const b = [...a];
      for (let e = rand(8); e > 0; e--) {
        const at = rand(b.length + 1);
        if (rand(2) === 0) b.splice(at, 1);
        else b.splice(at, 0, `n${rand(12)}`);
      }
      const text = (lines: string[]) => (lines.length ? `${lines.join('\n')}\n` : '');
      const d = lineDiff(text(a), text(b));
      expect(apply(a, d.hunks)).toEqual(b);
      const ref = structuredPatch('a', 'b', text(a), text(b), undefined, undefined, { context: 3 });
      const count = (op: string) => ref.hunks.flatMap((h) => h.lines).filter((l) => l[0] === op).length;
      expect([d.added, d.removed]).toEqual([count('+'), count('-')]);
      expect(d.hunks.length).toBe(ref.hunks.length);
    }
  });

  it('scattered edits in large files are shown line by line, whatever the machine is doing (the bound is work, not time)', () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `line ${i}`);
    const some = lines.map((l, i) => (i % 40 === 0 ? `${l} changed` : l));
    const d = lineDiff(lines.join('\n'), some.join('\n'));
    expect(d).toMatchObject({ added: 50, removed: 50 });
    expect(d.hunks).toHaveLength(50);
    const big = Array.from({ length: 200_000 }, (_, i) => `row ${i}`);
    const few = big.map((l, i) => (i % 5_000 === 0 ? `${l}!` : l));
    const e = lineDiff(big.join('\n'), few.join('\n'));
    expect(e).toMatchObject({ added: 40, removed: 40 });
    expect(e.hunks).toHaveLength(40);
    expect(e.hunks.flatMap((h) => h.lines).length).toBe(40 * 8 - 3); // the first change is line 1: no context above it
  });
});
