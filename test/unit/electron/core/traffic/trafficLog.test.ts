import { rm, utimes } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { TrafficLog } from '../../../../../electron/core/traffic/trafficLog.js';
import type { TrafficEntry } from '../../../../../shared/shelfApi.js';
import { makeTree, uriOf } from '../../../../support/fixtures.js';
import { RawClient } from '../../../../support/rawClient.js';
import { startService } from '../../../../support/service.js';

describe('TrafficLog ring', () => {
  const msg = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'ping' });

  it('is bounded by count', () => {
    const log = new TrafficLog({ maxEntries: 100, maxBytes: 1e9 });
    for (let i = 0; i < 5000; i++) log.record(1, 'in', msg(i), 40);
    expect(log.size).toBe(100);
    expect(log.query({ limit: 1000 }).map((e) => e.id)).toEqual(Array.from({ length: 100 }, (_, i) => 4900 + i));
  });

  it('is bounded by bytes', () => {
    const log = new TrafficLog({ maxEntries: 1e6, maxBytes: 200_000 });
    for (let i = 0; i < 2000; i++) log.record(1, 'in', { jsonrpc: '2.0', id: i, method: 'x', params: { s: 'y'.repeat(900) } }, 1000);
    expect(log.byteSize).toBeLessThanOrEqual(200_000);
    expect(log.size).toBeGreaterThan(50);
    expect(log.query({ limit: 1 })[0]?.id).toBe(1999);
  });

  it('survives hostile shapes: deep nesting and huge arrays are summarised', () => {
    const log = new TrafficLog({ maxEntries: 10, maxBytes: 1e7 });
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const e = log.record(1, 'in', { jsonrpc: '2.0', id: 1, method: 'x', params: { deep, wide: Array.from({ length: 10_000 }, (_, i) => i) } }, 1);
    expect(e.truncated).toBe(true);
    expect(e.payload.length).toBeLessThan(10_000);
  });

  it('clears', () => {
    const log = new TrafficLog({ maxEntries: 10, maxBytes: 1e7 });
    log.record(1, 'in', msg(1), 1);
    log.clear();
    expect(log.query()).toEqual([]);
    expect(log.exportJsonLines()).toBe('');
  });
});

describe('pairing replies with requests', () => {
  it('keeps the ids 1 and "1" apart: each reply has its own request\'s method, target and duration', async () => {
    const root = await makeTree({ 'one.txt': 'number', 'two.txt': 'string' });
    const svc = await startService();
    try {
      await svc.service.addFolders([root]);
      const raw = await RawClient.initialized(svc.service.socketPath);
      // One chunk: both are open at once.
      raw.send(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: uriOf(root, 'one.txt') } })}\n${JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'resources/read', params: { uri: uriOf(root, 'two.txt') } })}\n`,
      );
      await raw.waitFor((m) => m.id === 1);
      await raw.waitFor((m) => m.id === '1');
      const replies = svc.service.traffic
        .query({ connectionId: svc.service.traffic.query({ method: 'initialize' }).at(-1)?.connectionId })
        .filter((e) => e.kind === 'response' && e.id !== null && e.method !== 'initialize');
      expect(replies.map((e) => [e.id, e.method, e.target?.slice(-7)])).toEqual(
        expect.arrayContaining([
          [1, 'resources/read', 'one.txt'],
          ['1', 'resources/read', 'two.txt'],
        ]),
      );
      expect(replies.every((e) => e.durationMs !== null)).toBe(true);
      raw.close();
    } finally {
      await svc.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('what the traffic log keeps of a small read', () => {
  it('cuts the text past 1,024 characters, with its true length, whether the reply came from the cache or from the disk', async () => {
    const text = 'é'.repeat(100) + 'x'.repeat(3000);
    const root = await makeTree({ 'settled.txt': text, 'fresh.txt': text, 'short.txt': 'short' });
    const anHourAgo = new Date(Date.now() - 3600_000);
    await utimes(path.join(root, 'settled.txt'), anHourAgo, anHourAgo);
    const svc = await startService();
    try {
      await svc.service.addFolders([root]);
      await new Promise((r) => setTimeout(r, 2100)); // settled.txt's change time is past the reply cache's 2 s
      const raw = await RawClient.initialized(svc.service.socketPath);
      const kept = async (name: string) => {
        const reply = await raw.request('resources/read', { uri: uriOf(root, name) });
        expect((reply.result as { contents: Array<{ text: string }> }).contents[0]?.text).toBe(name === 'short.txt' ? 'short' : text);
        return svc.service.traffic
          .query({ method: 'resources/read' })
          .filter((e) => e.kind === 'response')
          .at(-1) as TrafficEntry;
      };
      // Read twice: the second comes from the reply cache (its cut form made once).
      for (const entry of [await kept('settled.txt'), await kept('settled.txt'), await kept('fresh.txt')]) {
        expect(entry.truncated).toBe(true);
        const contents = JSON.parse(entry.payload).result.contents[0];
        expect(contents.text).toBe(`${text.slice(0, 1024)}… [${text.length} chars]`);
        expect(contents.uri).toMatch(/\.txt$/);
        expect(entry.bytes).toBeGreaterThan(3100);
      }
      const short = await kept('short.txt');
      expect(short.truncated).toBe(false);
      expect(JSON.parse(short.payload).result.contents[0].text).toBe('short');
      raw.close();
    } finally {
      await svc.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});
