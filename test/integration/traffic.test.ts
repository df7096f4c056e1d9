import { rm, utimes } from 'node:fs/promises';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TrafficLog } from '../../electron/core/traffic/trafficLog.js';
import type { TrafficEntry, TrafficRow } from '../../shared/shelfApi.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { startService, type TestService } from '../support/service.js';
import { connectSdkClient } from '../support/shelfProcess.js';

describe('traffic log with a real SDK client on the socket', () => {
  let root: string;
  let svc: TestService;
  let client: Client;
  const batches: TrafficRow[][] = [];

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha', 'big.bin': Buffer.alloc(10 * 1024 * 1024, 0xab) });
    svc = await startService({ maxReadBytes: 20 * 1024 * 1024 });
    await svc.service.addFolders([root]);
    svc.service.on('traffic', (batch) => batches.push(batch));
    client = await connectSdkClient(svc.service.socketPath, 'traffic-test');
  });

  afterAll(async () => {
    await client?.close();
    await svc?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('records both directions with kind, method, id, client, size, and pairs responses with durations', async () => {
    await client.readResource({ uri: uriOf(root, 'a.txt') });
    const entries = svc.service.traffic.query({ method: 'resources/read' });
    const req = entries.find((e) => e.kind === 'request');
    const res = entries.find((e) => e.kind === 'response');
    expect(req).toMatchObject({ direction: 'in', method: 'resources/read', client: 'traffic-test 1.0.0' });
    expect(res).toMatchObject({ direction: 'out', method: 'resources/read', id: req?.id, client: 'traffic-test 1.0.0' });
    expect(res?.durationMs).toBeGreaterThanOrEqual(0);
    expect(res?.bytes).toBeGreaterThan(20);
    expect(JSON.parse(res?.payload ?? '{}').result.contents[0].text).toBe('alpha');
    const init = svc.service.traffic.query({ method: 'initialize' });
    expect(init.map((e) => e.kind)).toEqual(['request', 'response']);
    expect(svc.service.traffic.query({ method: 'notifications/initialized' })[0]?.kind).toBe('notification');
  });

  it('keeps a preview of a 10 MB blob, not the blob, and its true size', async () => {
    // A raw client: the SDK's stdio clients refuse messages over 10 MiB.
    const raw = await RawClient.initialized(svc.service.socketPath);
    const reply = await raw.request('resources/read', { uri: uriOf(root, 'big.bin') });
    expect((reply.result as { contents: Array<{ blob: string }> }).contents[0]?.blob.length).toBe(13981016);
    raw.close();
    const res = svc.service.traffic
      .query({ method: 'resources/read' })
      .filter((e) => e.kind === 'response')
      .at(-1);
    expect(res?.bytes).toBeGreaterThan(13 * 1024 * 1024); // base64 of 10 MiB on the wire
    expect(res?.truncated).toBe(true);
    expect(res?.payload.length).toBeLessThan(4096);
    expect(res?.payload).toMatch(/… \[13981016 chars\]/);
  });

  it('records errors with code and message, and filters by errors only, method, client and text', async () => {
    await client.readResource({ uri: uriOf(root, 'missing.txt') }).catch(() => undefined);
    const errors = svc.service.traffic.query({ errorsOnly: true });
    expect(errors.at(-1)).toMatchObject({ kind: 'error', errorCode: -32602, errorMessage: 'Resource not found', method: 'resources/read' });
    expect(svc.service.traffic.query({ text: 'missing.txt' }).length).toBe(2);
    const raw = await RawClient.initialized(svc.service.socketPath);
    raw.send('not json\n');
    await raw.waitFor((m) => m.error?.code === -32700);
    const mine = svc.service.traffic.query({ connectionId: svc.service.traffic.query({ text: 'not json' })[0]?.connectionId });
    expect(mine.every((e) => e.client === 'raw 1')).toBe(true);
    expect(mine.some((e) => e.kind === 'error' && e.errorCode === -32700)).toBe(true);
    raw.close();
  });

  it('delivers events in batches, not one call per message', async () => {
    batches.length = 0;
    const before = svc.service.traffic.query({ limit: 1 })[0]?.seq ?? 0;
    await Promise.all(Array.from({ length: 300 }, () => client.ping()));
    await eventually(() => batches.flat().filter((e) => e.seq > before).length >= 600, 5000, '600 entries');
    expect(batches.length).toBeLessThan(60);
  });

  it('exports JSON Lines', async () => {
    const connectionId = svc.service.traffic.query({ text: 'traffic-test' })[0]?.connectionId;
    const text = await svc.service.exportTraffic({ method: 'initialize', connectionId });
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TrafficEntry);
    expect(lines.map((l) => l.kind)).toEqual(['request', 'response']);
  });
});

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
