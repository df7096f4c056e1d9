import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = path.join(ROOT, '.venv-py', 'bin', 'python');
const SCRIPT = path.join(ROOT, 'test', 'integration', 'interop', 'python_client.py');

if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run "npm run setup:python" (npm test does)`);

/**
 * The official Python SDK v2 client over Streamable HTTP with the bearer
 * token, in its three modes. That client caps one SSE event at 1 MiB, so
 * a 5 MiB text and an 800 KiB binary (over 1 MiB as base64) only arrive
 * whole if replies travel as plain JSON.
 */
describe('the official Python MCP SDK (v2) over Streamable HTTP', () => {
  let root: string;
  let shelf: ShelfProcess;
  const big = 'y'.repeat(5 * 1024 * 1024);
  const bigBinary = Buffer.alloc(800 * 1024, 0xfe);

  beforeAll(async () => {
    const files: Record<string, string | Buffer> = { 'hello.md': '# Hello\n', 'data.bin': Buffer.from([0x89, 0, 0xff]), 'big.txt': big, 'big.bin': bigBinary };
    for (let i = 0; i < 1200; i++) files[`many/${String(i).padStart(4, '0')}.txt`] = String(i);
    root = await makeTree(files);
    shelf = await startShelf([root], ['--http', '0']);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it.each([
    ['legacy', '2025-11-25'],
    ['auto', '2026-07-28'],
    ['2026-07-28', '2026-07-28'],
  ])(
    'mode %s speaks %s: pages, text, blob, 5 MiB and 800 KiB reads, not found',
    async (mode, revision) => {
      const { stdout } = await run(PYTHON, [SCRIPT, shelf.http?.url as string, shelf.http?.token as string, mode, uriOf(root, '')], {
        timeout: 60_000,
        maxBuffer: 1024 * 1024,
      });
      const seen = JSON.parse(stdout) as Record<string, unknown>;
      expect(seen).toEqual({
        protocolVersion: revision,
        pages: 2,
        names: 1204,
        unique: 1204,
        text: '# Hello\n',
        blob: Buffer.from([0x89, 0, 0xff]).toString('base64'),
        bigLength: big.length,
        bigBinaryLength: bigBinary.length,
        notFound: { code: -32602, data: { uri: uriOf(root, 'no-such-file.txt') } },
      });
    },
    90_000,
  );
});
