import { rm } from 'node:fs/promises';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
