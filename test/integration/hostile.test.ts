import { rm } from 'node:fs/promises';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const SEED = 20261130;
const METHODS = [
  'initialize',
  'ping',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'notifications/initialized',
  'nope/nope',
];

/** One line a hostile client might send (without the newline). */
function hostileLine(root: string): fc.Arbitrary<string> {
  const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
  const weirdUri = fc.oneof(
    fc.tuple(fc.string(), surrogate, fc.string()).map(([a, s, b]) => `${uriOf(root, 'a')}${a}${s}${b}`),
    fc.webUrl(),
    fc.string({ maxLength: 50 }).map((s) => `file:///${s}`),
    fc.constantFrom(`${uriOf(root, '')}/../../etc/passwd`, 'file:///etc/shadow', `${uriOf(root, 'a.txt')}%00`, ''),
  );
  const anyId = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 10 }),
    fc.constant(null),
    fc.constant(1e308),
    fc.constant(Number.MAX_SAFE_INTEGER + 2),
    fc.object({ maxDepth: 1 }),
    fc.constant(true),
  );
  const rpcish = fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.anything({ maxDepth: 1 })),
      id: anyId,
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 20 }), fc.anything({ maxDepth: 1 })),
      params: fc.oneof(fc.record({ uri: weirdUri }), fc.record({ cursor: fc.string() }), fc.anything({ maxDepth: 3 }), fc.constant(undefined)),
      result: fc.anything({ maxDepth: 2 }),
      error: fc.anything({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 5, arbitrary: rpcish.map((m) => JSON.stringify(m)) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 2, arbitrary: fc.string({ maxLength: 80 }).filter((s) => !s.includes('\n')) },
    { weight: 1, arbitrary: fc.array(rpcish, { maxLength: 4 }).map((a) => JSON.stringify(a)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '['.repeat(100_000) + ']'.repeat(100_000),
        `{"jsonrpc":"2.0","id":1,"method":"ping","params":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
      ),
    },
  );
}

function isSpecShaped(m: Record<string, unknown>): boolean {
  if (m.jsonrpc !== '2.0') return false;
  if ('method' in m) return typeof m.method === 'string' && !('id' in m && 'result' in m); // a notification from us
  if ('error' in m) {
    const e = m.error as { code?: unknown; message?: unknown };
    return Number.isInteger(e?.code) && typeof e?.message === 'string' && 'id' in m;
  }
  return 'result' in m && 'id' in m;
}

describe('hostile input on a raw socket (fast-check, seeded)', () => {
  let root: string;
  let shelf: ShelfProcess;
  let good: Client;

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha', 'b/c.md': '# c' });
    shelf = await startShelf([root]);
    good = await connectSdkClient(shelf.socketPath, 'well-behaved');
  });
  afterAll(async () => {
    await good?.close();
    expect(await shelf.stop()).toBe(0); // still alive to be stopped cleanly
    await rm(root, { recursive: true, force: true });
  });

  it('answers thousands of generated messages with spec-shaped errors or nothing, while a good client sees no error', async () => {
    let goodErrors = 0;
    let goodReads = 0;
    let running = true;
    const goodLoop = (async () => {
      while (running) {
        try {
          const r = await good.readResource({ uri: uriOf(root, 'a.txt') });
          if ((r.contents[0] as { text?: string }).text !== 'alpha') goodErrors++;
          goodReads++;
        } catch {
          goodErrors++;
        }
      }
    })();

    const lines = fc.sample(hostileLine(root), { seed: SEED, numRuns: 3000 });
    // Some connections start with initialize, some never do; one sends a second initialize.
    const received: Array<Record<string, unknown>> = [];
    for (let batch = 0; batch < 10; batch++) {
      const c = batch % 2 === 0 ? await RawClient.initialized(shelf.socketPath) : await RawClient.connect(shelf.socketPath);
      if (batch === 4)
        c.send({
          jsonrpc: '2.0',
          id: 'again',
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        });
      for (const line of lines.slice(batch * 300, batch * 300 + 300)) c.send(`${line}\n`);
      c.send({ jsonrpc: '2.0', id: 'last', method: 'ping' });
      const last = await c.waitFor((m) => m.id === 'last', 20_000);
      expect(last.result ?? last.error).toBeDefined();
      received.push(...c.messages);
      c.close();
    }
    running = false;
    await goodLoop;

    const bad = received.filter((m) => !isSpecShaped(m));
    expect(bad.slice(0, 3)).toEqual([]);
    expect(received.filter((m) => (m.error as { code?: number } | undefined)?.code === -32700).length).toBeGreaterThan(50);
    expect(received.filter((m) => (m.error as { code?: number } | undefined)?.code === -32600).length).toBeGreaterThan(50);
    expect(goodReads).toBeGreaterThan(20);
    expect(goodErrors).toBe(0);
  }, 120_000);
});
