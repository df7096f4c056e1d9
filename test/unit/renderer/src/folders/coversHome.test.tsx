// A .tsx test: type-checked with the renderer's settings (its imports have no .js), not the root's.
import { describe, expect, it } from 'vitest';

import { coversHome } from '../../../../../renderer/src/folders/coversHome';

describe('a typed path that covers the whole home folder', () => {
  it('is home, or above it; a folder inside home is neither', () => {
    for (const typed of ['~', '~/', '/home/ann', '/home/ann/', '/home/ann/./']) expect(coversHome(typed, '/home/ann')).toBe('home');
    for (const typed of ['/', '/home', '/home/']) expect(coversHome(typed, '/home/ann')).toBe('above');
    for (const typed of ['~/Documents', '/home/anna', '/home/ann/x', '/tmp']) expect(coversHome(typed, '/home/ann')).toBeNull();
  });
  it('compares Windows paths without case', () => {
    expect(coversHome('c:\\users\\ann', 'C:\\Users\\Ann')).toBe('home');
    expect(coversHome('C:\\', 'C:\\Users\\Ann')).toBe('above');
  });
});
