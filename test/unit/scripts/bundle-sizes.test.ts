import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { bundleSizeProblems, MAX_FILE_BYTES } from '../../../scripts/bundle-sizes.mjs';

describe('the MCP Bundle’s size bounds (checked by npm run mcpb)', () => {
  it('is refused by its build when a file or the whole grows past its bound', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'mcpb-sizes-'));
    try {
      await writeFile(path.join(work, 'small.js'), 'x');
      expect(await bundleSizeProblems(work)).toEqual([]);
      await writeFile(path.join(work, 'big.js'), Buffer.alloc(MAX_FILE_BYTES + 1));
      expect(await bundleSizeProblems(work)).toEqual([expect.stringMatching(/^big\.js is 102401 bytes/)]);
      const packed = path.join(work, 'packed.mcpb');
      await writeFile(packed, Buffer.alloc(300 * 1024));
      expect(await bundleSizeProblems(work, packed)).toHaveLength(3); // big.js, packed.mcpb as a file of the folder, and as the bundle
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
