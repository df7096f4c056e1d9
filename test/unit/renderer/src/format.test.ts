import { describe, expect, it } from 'vitest';

import { formatBytes } from '../../../../renderer/src/format.js';

describe('formatBytes (the window’s sizes)', () => {
  it('uses binary units named as such, one decimal under ten', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KiB');
    expect(formatBytes(9000)).toBe('8.8 KiB');
    expect(formatBytes(1_536_000)).toBe('1.5 MiB');
    expect(formatBytes(7 * 2 ** 20)).toBe('7.0 MiB');
    expect(formatBytes(3 * 2 ** 30)).toBe('3.0 GiB');
  });

  it('never shows a number its next unit would show better', () => {
    expect(formatBytes(10_209)).toBe('10 KiB'); // 9.97 KiB: not "10.0"
    expect(formatBytes(1_048_000)).toBe('1023 KiB'); // 1,023.4 KiB
    expect(formatBytes(1_048_100)).toBe('1.0 MiB'); // 1,023.5 KiB would read "1024 KiB"
    expect(formatBytes(2 ** 50)).toBe('1024 TiB');
  });
});
