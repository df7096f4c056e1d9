import { rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

describe('newline-delimited JSON-RPC on the socket', () => {
  let root: string;
  let shelf: ShelfProcess;

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha', 'b.txt': 'beta' });
    shelf = await startShelf([root]);
  });

  afterAll(async () => {
    expect(await shelf.stop()).toBe(0);
    await rm(root, { recursive: true, force: true });
  });

  it('answers invalid JSON with -32700 and id null, then keeps working', async () => {
    const c = await RawClient.initialized(shelf.socketPath);
    const from = c.messages.length;
    c.send('{"jsonrpc": "2.0", "id": 1, "method": \n');
    const err = await c.waitFor((m) => m.id === null, 5000, from);
    expect(err.error).toEqual({ code: -32700, message: 'Parse error' });
    const ok = await c.request('resources/read', { uri: uriOf(root, 'a.txt') });
    expect(ok.result).toBeDefined();
    c.close();
  });

  it('answers a message that is not JSON-RPC with -32600, keeping its id when it has one', async () => {
    const c = await RawClient.initialized(shelf.socketPath);
    c.send({ hello: 'world' });
    const noId = await c.waitFor((m) => m.id === null && m.error?.code === -32600);
    expect(noId.error?.message).toMatch(/Invalid Request/);
    c.send({ jsonrpc: '1.0', id: 77, method: 'ping' });
    const withId = await c.waitFor((m) => m.id === 77);
    expect(withId.error?.code).toBe(-32600);
    c.send([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
    const batch = await c.waitFor((m) => m.id === null && /batch/.test(m.error?.message ?? ''));
    expect(batch.error?.code).toBe(-32600);
    expect((await c.request('ping')).result).toEqual({});
    c.close();
  });

  it('closes a connection whose line passes 4 MiB, and serves everyone else', async () => {
    const bystander = await RawClient.initialized(shelf.socketPath);
    const c = await RawClient.initialized(shelf.socketPath);
    const chunk = 'x'.repeat(1024 * 1024);
    c.send(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"`);
    for (let i = 0; i < 5; i++) c.send(chunk);
    await c.waitClosed(10000);
    expect(c.closed).toBe(true);
    const tooLarge = c.messages.find((m) => m.error?.code === -32600);
    expect(tooLarge?.error?.message).toMatch(/too large/i);
    expect((await bystander.request('resources/read', { uri: uriOf(root, 'b.txt') })).result).toEqual({
      contents: [{ uri: uriOf(root, 'b.txt'), mimeType: 'text/plain', text: 'beta' }],
    });
    bystander.close();
  });

  it('accepts a message just under 4 MiB', async () => {
    const c = await RawClient.initialized(shelf.socketPath);
    const pad = 'y'.repeat(4 * 1024 * 1024 - 200);
    c.send({ jsonrpc: '2.0', id: 'big', method: 'ping', params: { _meta: { pad } } });
    const res = await c.waitFor((m) => m.id === 'big', 10000);
    expect(res.result).toEqual({});
    c.close();
  });

  it('serves 20 concurrent SDK connections through the bridge', async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => connectSdkClient(shelf.socketPath, `client-${i}`)));
    const results = await Promise.all(
      clients.map(async (client, i) => {
        const list = await client.listResources();
        const read = await client.readResource({ uri: uriOf(root, i % 2 ? 'a.txt' : 'b.txt') });
        return { n: list.resources.length, text: (read.contents[0] as { text: string }).text, i };
      }),
    );
    for (const r of results) {
      expect(r.n).toBe(2);
      expect(r.text).toBe(r.i % 2 ? 'alpha' : 'beta');
    }
    await Promise.all(clients.map((c) => c.close()));
  });
});
