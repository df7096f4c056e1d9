import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, socketDir, startShelf } from '../support/shelfProcess.js';

/**
 * The image and document workers serve clients in turn (background/fairQueue.ts),
 * against the real `mcp-shelf serve`: one client that queues slow images
 * cannot hold another's small one behind all of them, and an image that
 * cannot be converted is answered from memory for its file version.
 */

type Reply = Awaited<ReturnType<RawClient['request']>>;
const textOf = (r: Reply) =>
  ((r.result as { content?: Array<{ type: string; text?: string }> } | undefined)?.content ?? []).map((c) => c.text ?? '').join('\n');

describe('fair lanes', () => {
  let root: string;
  let shelf: ShelfProcess;
  beforeAll(async () => {
    // Large to decode (49 megapixels each, made smaller for a model), small on disk.
    const big = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#88aacc' } })
      .png()
      .toBuffer();
    const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    root = await makeTree(
      {
        'big1.png': big,
        'big2.png': big,
        'big3.png': big,
        'big4.png': big,
        'dot.png': tiny,
        // An SVG named as a PNG: not an image the converter can read.
        'logo.png': '<svg xmlns="http://www.w3.org/2000/svg"><use href="#a"/></svg>',
      },
      'fair-',
    );
    // OCR off: a reply would otherwise also wait for the image's text (the OCR lane, fair the same way), and
    // the order of replies would not be the image lane's alone.
    const dir = await socketDir();
    await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ ocr: { enabled: false } }));
    shelf = await startShelf([root], ['--no-search-index'], { socketPath: path.join(dir, 's.sock') });
  }, 60_000);
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("a client's small image is converted before another client's queue of large ones is done", async () => {
    const flood = await RawClient.initialized(shelf.socketPath, 'flood');
    // Another client: parties are told apart by the name they give on their transport.
    const bystander = await RawClient.initialized(shelf.socketPath, 'bystander');
    try {
      const order: string[] = [];
      // A large image on a busy machine takes its time: the deadline is for a failure only.
      const read = (c: RawClient, name: string) =>
        c.request('tools/call', { name: 'read_resource', arguments: { uri: uriOf(root, name) } }, 180_000).then((r) => {
          order.push(name);
          return r;
        });
      // The flood asks for four, the bystander for one right after. However their requests reach the image
      // worker, the bystander's comes no later than second: the worker takes the flood's first as it arrives,
      // and after that the party served longest ago (never, for the bystander) goes next.
      const floods = ['big1.png', 'big2.png', 'big3.png', 'big4.png'].map((n) => read(flood, n));
      const dot = await read(bystander, 'dot.png');
      await Promise.all(floods);
      expect((dot.result as { content: Array<{ type: string }> }).content.some((c) => c.type === 'image')).toBe(true);
      // First come, first served put it last.
      expect(order.indexOf('dot.png')).toBeLessThan(order.indexOf('big4.png'));
      expect(order.indexOf('dot.png')).toBeLessThan(order.indexOf('big3.png'));
    } finally {
      flood.socket.destroy();
      bystander.socket.destroy();
    }
  }, 600_000);

  it('an image that cannot be converted is not converted again for the same file version', async () => {
    const c = await RawClient.initialized(shelf.socketPath);
    try {
      const ask = () => c.request('tools/call', { name: 'read_resource', arguments: { uri: uriOf(root, 'logo.png') } });
      const first = textOf(await ask());
      expect(first).toMatch(/cannot be shown/);
      expect(first).not.toMatch(/not tried again/);
      const second = textOf(await ask());
      expect(second).toMatch(/cannot be shown/);
      expect(second).toMatch(/not tried again for 10 minutes unless the file changes/);
    } finally {
      c.socket.destroy();
    }
  }, 60_000);
});
