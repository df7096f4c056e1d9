import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach } from 'vitest';

/** Empty temp folders for one test file, each deleted after the test that made it (call in a describe block). */
export function tempDirs(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const d of made.splice(0)) await rm(d, { recursive: true, force: true });
  });
  return async () => {
    const d = await mkdtemp(path.join(os.tmpdir(), prefix));
    made.push(d);
    return d;
  };
}
