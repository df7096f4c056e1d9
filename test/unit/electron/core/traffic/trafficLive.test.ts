import { rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dispatch } from '../../../../../electron/core/service/dispatch.js';
import { LIVE_BATCH_ROWS, MAX_PAYLOAD_CHARS, TrafficLog } from '../../../../../electron/core/traffic/trafficLog.js';
import type { TrafficRow } from '../../../../../shared/shelfApi.js';
import { eventually, makeTree, uriOf } from '../../../../support/fixtures.js';
import { RawClient } from '../../../../support/rawClient.js';
import { startService, type TestService } from '../../../../support/service.js';

/** Live Traffic: batches of rows without payloads, bounded; a payload fetched on demand (issue 30). */
describe('live traffic batches, with a real service and a raw client on its socket', () => {
  let root: string;
  let svc: TestService;
  const batches: TrafficRow[][] = [];

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha, the file the client reads' });
    svc = await startService();
    await svc.service.addFolders([root]);
    svc.service.on('traffic', (batch) => batches.push(batch));
  });
  afterAll(async () => {
    await svc?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('carry each message without its JSON; the JSON fetched on demand is the message', async () => {
    const raw = await RawClient.initialized(svc.service.socketPath);
    try {
      const reply = await raw.request('resources/read', { uri: uriOf(root, 'a.txt') });
      const rows = await eventually(
        () => {
          const seen = batches.flat().filter((e) => e.method === 'resources/read');
          return seen.length === 2 ? seen : null;
        },
        5000,
        'the read and its reply, live',
      );
      for (const row of rows) expect(row).not.toHaveProperty('payload');
      const answer = rows.find((e) => e.kind === 'response') as TrafficRow;
      expect(answer).toMatchObject({ direction: 'out', client: 'raw 1', target: uriOf(root, 'a.txt') });
      // Through the window's contract (dispatch checks the arguments), as both hosts call it.
      const payload = (await dispatch(svc.service, 'trafficPayload', [answer.seq])) as string;
      expect(JSON.parse(payload)).toEqual(reply);
      const asked = rows.find((e) => e.kind === 'request') as TrafficRow;
      expect(JSON.parse((await dispatch(svc.service, 'trafficPayload', [asked.seq])) as string)).toMatchObject({
        method: 'resources/read',
        params: { uri: uriOf(root, 'a.txt') },
      });
      // The rows a reload or a search gets are the live rows.
      const listed = (await dispatch(svc.service, 'trafficRows', [{ method: 'resources/read' }])) as TrafficRow[];
      expect(listed).toEqual(rows);
      expect(((await dispatch(svc.service, 'trafficRows', [{ text: 'THE FILE THE CLIENT' }])) as TrafficRow[]).map((e) => e.seq)).toEqual([answer.seq]);
    } finally {
      raw.close();
    }
  });

  it('refuses a seq that is not one, and answers null for one the log no longer holds', async () => {
    await expect(dispatch(svc.service, 'trafficPayload', ['1'])).rejects.toThrow(/Invalid traffic message/);
    await expect(dispatch(svc.service, 'trafficPayload', [-1])).rejects.toThrow(/Invalid traffic message/);
    await expect(dispatch(svc.service, 'trafficPayload', [1e9])).resolves.toBeNull();
  });

  it('stay bounded when a client floods, while the log keeps every message', async () => {
    batches.length = 0;
    const before = svc.service.traffic.query({ limit: 1 })[0]?.seq ?? 0;
    const raw = await RawClient.initialized(svc.service.socketPath);
    try {
      const n = 3000;
      raw.send(Array.from({ length: n }, (_, i) => `${JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' })}\n`).join(''));
      await raw.waitFor((m) => m.id === n - 1, 20_000);
      // Every message is in the log…
      await eventually(() => svc.service.traffic.query({ method: 'ping', afterSeq: before, limit: 1e6 }).length >= 2 * n, 5000, 'every ping logged');
      const last = svc.service.traffic.query({ limit: 1 })[0]?.seq as number;
      // …and reaches the window as bounded batches, in order, up to the newest.
      await eventually(() => batches.flat().some((e) => e.seq === last), 5000, 'the newest message live');
      for (const b of batches) {
        expect(b.length).toBeLessThanOrEqual(LIVE_BATCH_ROWS);
        expect(b.every((e, i) => i === 0 || e.seq > (b[i - 1] as TrafficRow).seq)).toBe(true);
      }
    } finally {
      raw.close();
    }
  });
});

describe('TrafficLog live batches', () => {
  const ping = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'ping' });

  it('send the newest LIVE_BATCH_ROWS of a burst, oldest first, and leave the rest to the log', async () => {
    const log = new TrafficLog({ maxEntries: 10_000, maxBytes: 1e8, batchMs: 10 });
    const got: TrafficRow[][] = [];
    log.subscribe((b) => got.push(b));
    const burst = 2 * LIVE_BATCH_ROWS + 500;
    for (let i = 0; i < burst; i++) log.record(1, 'in', ping(i), 40);
    await eventually(() => got.length > 0, 5000, 'a batch');
    expect(got).toHaveLength(1);
    expect(got[0]?.map((e) => e.id)).toEqual(Array.from({ length: LIVE_BATCH_ROWS }, (_, i) => burst - LIVE_BATCH_ROWS + i));
    expect(log.size).toBe(burst);
    log.close();
  });

  it('build no batch while no subscriber wants one', async () => {
    const log = new TrafficLog({ maxEntries: 100, maxBytes: 1e8, batchMs: 1 });
    let wanted = false;
    const got: TrafficRow[][] = [];
    log.subscribe(
      (b) => got.push(b),
      () => wanted,
    );
    log.record(1, 'in', ping(1), 40);
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual([]);
    wanted = true;
    log.record(1, 'in', ping(2), 40);
    await eventually(() => got.length > 0, 5000, 'a batch');
    expect(got.flat().map((e) => e.id)).toEqual([2]);
    log.close();
  });

  it('hand out a payload by seq, cut past its bound, null once dropped', () => {
    const log = new TrafficLog({ maxEntries: 3, maxBytes: 1e9 });
    const small = log.record(1, 'in', ping(1), 40);
    // Many short strings: each under the per-string cut, together past the bound of one answer.
    const wide = Array.from({ length: 200 }, () => Array.from({ length: 200 }, () => 'y'.repeat(40)));
    const big = log.record(1, 'in', { jsonrpc: '2.0', id: 2, method: 'x', params: { wide } }, 2e6);
    expect(log.payload(small.seq)).toBe(JSON.stringify(ping(1)));
    const cut = log.payload(big.seq) as string;
    expect(big.payload.length).toBeGreaterThan(MAX_PAYLOAD_CHARS);
    expect(cut.length).toBeLessThan(MAX_PAYLOAD_CHARS + 100);
    expect(cut).toMatch(new RegExp(`… \\[${big.payload.length} chars\\]$`));
    for (let i = 3; i < 7; i++) log.record(1, 'in', ping(i), 40);
    expect(log.payload(small.seq)).toBeNull();
  });
});

describe('TrafficLog byte bound', () => {
  it('accounts what it holds exactly through trimming and compaction, whatever the sizes', () => {
    const message = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'x', params: { s: 'y'.repeat((i * 37) % 900) } });
    const log = new TrafficLog({ maxEntries: 1e6, maxBytes: 300_000 });
    for (let i = 0; i < 5000; i++) log.record(1, 'in', message(i), 10);
    expect(log.byteSize).toBeLessThanOrEqual(300_000);
    // The same messages in a log that never trims: the same account.
    const kept = log.query({ limit: 1e6 });
    const fresh = new TrafficLog({ maxEntries: 1e6, maxBytes: 1e9 });
    for (const e of kept) fresh.record(1, 'in', JSON.parse(e.payload), 10);
    expect(log.byteSize).toBe(fresh.byteSize);
    expect(log.dropped).toBe(5000 - kept.length);
  });
});
