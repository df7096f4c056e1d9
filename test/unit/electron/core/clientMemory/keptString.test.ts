import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { describe, expect, it } from 'vitest';

import { keptString } from '../../../../../electron/core/clientMemory/keptString.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap kept by what `cut` returns for 20 strings of 1 MiB, each parsed from JSON as a client's would be. */
function heapKept(cut: (s: string) => string): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = Array.from({ length: 20 }, (_, i) => cut(JSON.parse(JSON.stringify(`${i}-${'x'.repeat(1024 * 1024)}`)) as string));
  gc();
  const after = process.memoryUsage().heapUsed;
  expect(kept).toHaveLength(20);
  return after - before;
}

describe('keptString', () => {
  it('keeps the cut, not the string it was cut from (a plain slice keeps all 20 MiB)', () => {
    expect(heapKept((s) => s.slice(0, 200))).toBeGreaterThan(16 * 1024 * 1024);
    expect(heapKept((s) => keptString(s, 200, '…'))).toBeLessThan(1024 * 1024);
  });

  it('cuts only what is too long, marks the cut, and keeps every code unit', () => {
    const short = 'a name';
    expect(keptString(short, 200)).toBe(short);
    expect(keptString('abcdef', 3, '…')).toBe('abc…');
    expect(keptString('\ud800x\udfffyz', 4)).toBe('\ud800x\udfffy');
  });
});
