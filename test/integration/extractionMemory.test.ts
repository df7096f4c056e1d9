import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { flateBombPdf, lyingDocx, lyingZip, plainDocx } from '../../bench/hostileDocuments.mjs';
import { ErrorCodes } from '../../shared/errorCodes.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { connectSdkClient, peakRssMiB, type ShelfProcess, socketDir, startShelf } from '../support/shelfProcess.js';

/**
 * Hostile documents against the real `mcp-shelf serve`: Office files whose
 * zips lie about their sizes (3 GiB inflated from 3 MB) and a PDF with one
 * Flate bomb stream (2 GiB from 2 MB). Before the bounds, one lying .docx
 * took the server to 3.2 GB and the PDF to 4.3 GB (BENCHMARKS.md,
 * "Memory"); now each is refused as too-large and the server's peak RSS —
 * the kernel's high-water mark, start-up included — stays far below (the
 * bound asserted is generous: ~1,150 MiB is what a run measures, the 1 GiB
 * an extraction may add and the server itself).
 */

const PEAK_BOUND_MIB = 1536;
/** A Flate bomb is stopped within seconds; a busy machine gets much longer. */
const BOMB_WAIT_MS = 120_000;

const files = () => ({
  'lying.docx': lyingDocx(),
  'lying.xlsx': lyingZip('xl/worksheets/sheet1.xml'),
  'lying.pptx': lyingZip('ppt/slides/slide1.xml'),
  'bomb.pdf': flateBombPdf(),
  'honest.docx': plainDocx('an honest document about otters'),
  'notes.txt': 'a small file\n',
});

async function readText(client: RawClient, uri: string) {
  const from = client.messages.length;
  const id = `read-${Math.random()}`;
  client.send({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });
  return client.waitFor((m) => m.id === id, BOMB_WAIT_MS, from);
}

describe('extraction memory is bounded: lying zips and a Flate bomb, through the real CLI', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTree(files(), 'bombs-');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it(
    'a client reading their text gets too-large for each, the server stays bounded, and others are answered',
    async () => {
      const shelf = await startShelf([root], ['--no-search-index']);
      const client = await RawClient.initialized(shelf.socketPath);
      const bystander = await RawClient.initialized(shelf.socketPath);
      try {
        for (const name of ['lying.docx', 'lying.xlsx', 'lying.pptx', 'bomb.pdf']) {
          const reply = readText(client, `${uriOf(root, name)}?as=text`);
          // Extraction is off the main thread: a read of another file is answered meanwhile.
          expect((await bystander.request('resources/read', { uri: uriOf(root, 'notes.txt') })).result).toBeDefined();
          expect((await reply).error, name).toMatchObject({ code: ErrorCodes.documentTextUnavailable, data: { reason: 'too-large' } });
        }
        expect((await readText(client, `${uriOf(root, 'lying.docx')}?as=text`)).error?.message).toMatch(/inflates to more than the 4096 bytes it declares/);
        expect((await readText(client, `${uriOf(root, 'bomb.pdf')}?as=text`)).error?.message).toMatch(/more than the \d+ MiB of memory allowed/);
        expect(await peakRssMiB(shelf.proc.pid as number)).toBeLessThan(PEAK_BOUND_MIB);
        // The worker stopped for the bomb is replaced: the next document is read.
        expect((await readText(client, `${uriOf(root, 'honest.docx')}?as=text`)).result).toMatchObject({
          contents: [{ text: expect.stringContaining('otters') }],
        });
      } finally {
        client.close();
        bystander.close();
        await shelf.stop();
      }
    },
    4 * BOMB_WAIT_MS,
  );

  it(
    'the start-up index meets them with no client: bounded the same way, and remembered, so the next start does not extract them again',
    async () => {
      const dir = await socketDir();
      const socketPath = path.join(dir, 's.sock'); // its folder holds settings and the text cache, kept between the two runs
      const kept = async () => {
        const top = path.join(dir, 'text-cache');
        const found: Array<{ key: string; reason?: string }> = [];
        for (const sub of await readdir(top).catch(() => [])) {
          for (const name of await readdir(path.join(top, sub)).catch(() => [])) {
            const text = await readFile(path.join(top, sub, name), 'utf8');
            found.push(JSON.parse(text.slice(0, text.indexOf('\n'))) as { key: string; reason?: string });
          }
        }
        return found;
      };
      try {
        const first = await startShelf([root], [], { socketPath });
        try {
          const outcomes = await eventually(async () => ((await kept()).length === 5 ? kept() : null), 4 * BOMB_WAIT_MS, 'every document’s outcome on disk');
          for (const name of ['lying.docx', 'lying.xlsx', 'lying.pptx', 'bomb.pdf']) {
            expect(outcomes.find((o) => o.key.includes(`\u0000${name}\u0000`))?.reason, name).toBe('too-large');
          }
          expect(await peakRssMiB(first.proc.pid as number)).toBeLessThan(PEAK_BOUND_MIB);
        } finally {
          await first.stop();
        }
        const second: ShelfProcess = await startShelf([root], [], { socketPath });
        const client = await connectSdkClient(second.socketPath);
        try {
          // The index is complete when the honest document's text is found; the bombs were not extracted again.
          await eventually(
            async () => {
              const r = await client.callTool({ name: 'search_resources', arguments: { query: 'otters' } });
              const found = r.structuredContent as { results: Array<{ path: string }>; indexing: boolean };
              return !found.indexing && found.results.some((h) => h.path === 'honest.docx');
            },
            BOMB_WAIT_MS,
            'the second start’s index',
          );
          expect(await peakRssMiB(second.proc.pid as number)).toBeLessThan(400);
        } finally {
          await client.close();
          await second.stop();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    6 * BOMB_WAIT_MS,
  );
});
