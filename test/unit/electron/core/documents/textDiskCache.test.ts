import { execFileSync } from 'node:child_process';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { TextDiskCache } from '../../../../../electron/core/documents/textDiskCache.js';
import { tempDirs } from '../../../../support/tempDirs.js';

const key = (folder: string, rel: string, size = 10) => `${folder}\u0000${rel}\u0000${size}\u00001700000000000`;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const sub of await readdir(dir).catch(() => [])) for (const f of await readdir(path.join(dir, sub)).catch(() => [])) out.push(path.join(dir, sub, f));
  return out;
}

describe('TextDiskCache', () => {
  const tempDir = tempDirs('text-cache-');

  it('keeps text and lasting reasons across instances, by exact key', async () => {
    const dir = await tempDir();
    const a = new TextDiskCache(dir, 1024 * 1024);
    await a.put(key('/docs', 'a.pdf'), { text: '--- Page 1 ---\nhello\n', parts: 1 });
    await a.put(key('/docs', 'scan.pdf'), { reason: 'no-text', message: 'no text layer' });
    const b = new TextDiskCache(dir, 1024 * 1024);
    expect(await b.get(key('/docs', 'a.pdf'))).toEqual({ text: '--- Page 1 ---\nhello\n', parts: 1 });
    expect(await b.get(key('/docs', 'scan.pdf'))).toEqual({ reason: 'no-text', message: 'no text layer' });
    // Another version of the file (size or time changed) is another key.
    expect(await b.get(key('/docs', 'a.pdf', 11))).toBeNull();
    // Files are private to the user.
    for (const f of await filesUnder(dir)) expect((await stat(f)).mode & 0o077).toBe(0);
  });

  it('drops the least recently used past its budget', async () => {
    const dir = await tempDir();
    const cache = new TextDiskCache(dir, 10_000);
    for (let i = 0; i < 4; i++) {
      await cache.put(key('/docs', `${i}.pdf`), { text: String(i).repeat(2000), parts: 1 });
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await cache.get(key('/docs', '0.pdf'))).not.toBeNull(); // used again: now the most recent
    await new Promise((r) => setTimeout(r, 5));
    await cache.put(key('/docs', '4.pdf'), { text: '4'.repeat(2000), parts: 1 });
    await cache.put(key('/docs', '5.pdf'), { text: '5'.repeat(2000), parts: 1 });
    expect(await cache.size()).toBeLessThanOrEqual(10_000);
    expect(await cache.get(key('/docs', '1.pdf'))).toBeNull();
    expect(await cache.get(key('/docs', '0.pdf'))).not.toBeNull();
    expect(await cache.get(key('/docs', '5.pdf'))).not.toBeNull();
    // One document over a quarter of the budget is not kept at all.
    await cache.put(key('/docs', 'huge.pdf'), { text: 'x'.repeat(3000), parts: 1 });
    expect(await cache.get(key('/docs', 'huge.pdf'))).toBeNull();
  });

  it('forgets a folder: its entries go, and a write still under way for it is not made; a read brings it back', async () => {
    const dir = await tempDir();
    const cache = new TextDiskCache(dir, 1024 * 1024);
    await cache.put(key('/private', 'a.pdf'), { text: 'secret', parts: 1 });
    await cache.put(key('/docs', 'b.pdf'), { text: 'shared', parts: 1 });
    await cache.forgetFolder('/private');
    await cache.put(key('/private', 'late.pdf'), { text: 'late secret', parts: 1 });
    const left = await filesUnder(dir);
    expect(left).toHaveLength(1);
    expect(await cache.get(key('/docs', 'b.pdf'))).toEqual({ text: 'shared', parts: 1 });
    // Published again: read first, then kept.
    expect(await cache.get(key('/private', 'a.pdf'))).toBeNull();
    await cache.put(key('/private', 'a.pdf'), { text: 'secret', parts: 1 });
    expect(await cache.get(key('/private', 'a.pdf'))).toEqual({ text: 'secret', parts: 1 });
  });

  it('a FIFO in its place is a miss, never a hang', async () => {
    const dir = await tempDir();
    const cache = new TextDiskCache(dir, 1024 * 1024);
    await cache.put(key('/docs', 'a.pdf'), { text: 'ok', parts: 1 });
    const [file] = await filesUnder(dir);
    await rm(file as string);
    execFileSync('mkfifo', [file as string]);
    expect(await cache.get(key('/docs', 'a.pdf'))).toBeNull();
  });
});
