import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { expandHome } from '../../../../../electron/core/service/folderRegistry.js';

describe('expandHome', () => {
  it('reads ~ as the home folder, as a shell does, and leaves other paths alone', () => {
    expect(expandHome('~')).toBe(os.homedir());
    expect(expandHome('~/notes')).toBe(path.join(os.homedir(), 'notes'));
    expect(expandHome('~someone/notes')).toBe('~someone/notes');
    expect(expandHome('/tmp/~')).toBe('/tmp/~');
  });
});
