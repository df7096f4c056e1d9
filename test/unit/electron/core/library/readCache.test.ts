import type { Stats } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ReadCache } from '../../../../../electron/core/library/readCache.js';

describe('ReadCache', () => {
  const outcome = (text: string) => ({ contents: { uri: 'file:///x', mimeType: 'text/plain', text }, size: text.length, kind: 'text' as const });
  const old = Date.now() - 60_000;
  const stat = (over: Partial<Stats> = {}) => ({ dev: 1, ino: 2, size: 9, mtimeMs: old, ctimeMs: old, ...over }) as Stats;

  it('answers only for the same inode, size and times', () => {
    const cache = new ReadCache();
    expect(cache.put('file:///x', stat(), outcome('version A'))).toBe(JSON.stringify(outcome('version A').contents));
    expect(cache.get('file:///x', stat())?.outcome.contents).toEqual(outcome('version A').contents);
    for (const changed of [{ ino: 3 }, { dev: 9 }, { size: 10 }, { mtimeMs: old + 1 }, { ctimeMs: old + 0.001 }]) {
      cache.put('file:///x', stat(), outcome('version A'));
      expect(cache.get('file:///x', stat(changed)), JSON.stringify(changed)).toBeUndefined();
    }
  });

  it('keeps nothing changed in the last 2 seconds, nothing over 64 KiB, and forgets on request', () => {
    const cache = new ReadCache();
    expect(cache.put('file:///x', stat({ ctimeMs: Date.now() - 500 }), outcome('a'))).toBeNull();
    expect(cache.put('file:///x', stat({ size: 65 * 1024 }), outcome('a'))).toBeNull();
    cache.put('file:///x', stat(), outcome('a'));
    cache.forget(['file:///x']);
    expect(cache.get('file:///x', stat())).toBeUndefined();
  });

  it('stays within its byte bound, dropping the least recently used', () => {
    const cache = new ReadCache();
    const big = 'z'.repeat(60 * 1024);
    for (let i = 0; i < 400; i++) cache.put(`file:///f${i}`, stat({ ino: i, size: big.length }), outcome(big));
    expect(cache.get('file:///f0', stat({ ino: 0, size: big.length }))).toBeUndefined();
    expect(cache.get('file:///f399', stat({ ino: 399, size: big.length }))).toBeDefined();
  });
});
