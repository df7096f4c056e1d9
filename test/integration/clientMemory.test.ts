import { rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { heapSnapshots } from '../support/heapSnapshot.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * What clients make the server keep, through the real `mcp-shelf serve`:
 * strings of clients that have gone are not kept (150 clients each sending
 * one 3 MiB string took the server from 77 to ~584 MiB, still ~530 MiB 30 s
 * later: cut copies that kept their originals), and subscribed and listened
 * URIs are bounded per connection (4 MiB) and in total (64 MiB), with a
 * clear error past either and everything given back when a client goes.
 */

const MiB = 1024 * 1024;
const big = (what: string, i: number) => `HELD-${what}-${i}-${'x'.repeat(1.5 * MiB)}`;
/** A URI of ~8 KB (the longest a client may send is 8,192 characters); it costs ~16 KB of the budget. */
const longUri = (who: string, i: number) => `file:///${who}/${i}/${'u'.repeat(8000)}`;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'held-test', version: '1' },
};

/** Subscribes `count` long URIs, 32 at a time; resolves with how many were accepted and the first refusal. */
async function subscribeMany(c: RawClient, who: string, count: number): Promise<{ accepted: number; refusal: { code: number; message: string } | null }> {
  let accepted = 0;
  let refusal: { code: number; message: string } | null = null;
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count && !refusal) {
        const r = await c.request('resources/subscribe', { uri: longUri(who, next++) });
        if (r.error) refusal ??= r.error;
        else accepted++;
      }
    }),
  );
  return { accepted, refusal };
}

describe('what clients make the server keep', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha\n' }, 'held-');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('keeps nothing of a closed client’s 1.5 MiB name, URI, request id, method, error message or junk line', async () => {
    const heap = await heapSnapshots();
    const shelf = await startShelf([root], ['--no-search-index'], { env: heap.env });
    try {
      for (let i = 0; i < 2; i++) {
        const named = await RawClient.connect(shelf.socketPath);
        await named.request('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: big('name', i), version: big('version', i) },
        });
        named.close();
        const modern = await RawClient.connect(shelf.socketPath);
        await modern.request('resources/list', { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: big('modern', i), version: '1' } } });
        modern.close();
        const c = await RawClient.initialized(shelf.socketPath);
        await c.request('resources/subscribe', { uri: `file:///${big('uri', i)}` });
        c.send({ jsonrpc: '2.0', id: big('id', i), method: 'resources/list', params: {} });
        await c.request(big('method', i), {});
        c.send({ jsonrpc: '2.0', id: 77, error: { code: -32000, message: big('error', i) } });
        c.send(`${big('junk', i)}\n`);
        await c.request('resources/read', { uri: uriOf(root, 'a.txt') }); // all of the above was handled
        c.close();
      }
      // Closed connections are let go when the server has seen them close: a condition, not a 500 ms sleep.
      let kept: unknown[] = [];
      await eventually(
        async () => {
          kept = (await heap.largeStrings(shelf.proc.pid as number, MiB)).filter((s) => s.start.includes('HELD-'));
          return kept.length === 0;
        },
        5000,
        'closed clients’ strings to be let go',
      ).catch(() => undefined);
      expect(kept).toEqual([]);
    } finally {
      await shelf.stop();
      await heap.dispose();
    }
  }, 120_000);

  describe('the budget for subscribed and listened URIs', () => {
    let shelf: ShelfProcess;
    beforeAll(async () => {
      shelf = await startShelf([root], ['--no-search-index', '--http', '0', '--http-no-auth']);
    });
    afterAll(() => shelf?.stop());

    it('refuses a connection past 4 MiB and all of them past 64 MiB, clearly; a closed connection’s share comes back', async () => {
      const clients: RawClient[] = [];
      try {
        const first = await RawClient.initialized(shelf.socketPath);
        clients.push(first);
        const one = await subscribeMany(first, 'first', 400);
        expect(one.refusal).toMatchObject({
          code: -32602,
          message: expect.stringMatching(/^Subscription refused: one connection's subscriptions and listens may keep at most 4 MiB of URIs; this one keeps/),
        });
        expect(one.accepted).toBeGreaterThan(200); // ~260 URIs of 8 KB
        expect(one.accepted).toBeLessThan(300);
        // Others fill the total: the refusal then says so.
        let total: { code: number; message: string } | null = null;
        for (let n = 0; n < 20 && !total; n++) {
          const c = await RawClient.initialized(shelf.socketPath);
          clients.push(c);
          const r = await subscribeMany(c, `other-${n}`, 400);
          if (r.refusal?.message.includes('together')) total = r.refusal;
        }
        expect(total).toMatchObject({
          code: -32602,
          message: expect.stringMatching(/all clients' subscriptions and listens together may keep at most 64 MiB of URIs, and they do/),
        });
        // A newcomer still has its own first 32 KiB: two long URIs (and many short ones).
        const newcomer = await RawClient.initialized(shelf.socketPath);
        clients.push(newcomer);
        expect((await subscribeMany(newcomer, 'newcomer', 2)).accepted).toBe(2);
        expect((await subscribeMany(newcomer, 'newcomer-more', 1)).refusal?.message).toMatch(/together/);
        // The first connection goes: its 4 MiB are given back.
        first.close();
        clients.shift();
        const after = await RawClient.initialized(shelf.socketPath);
        clients.push(after);
        expect((await subscribeMany(after, 'after', 200)).accepted).toBe(200);
        // Unsubscribing gives back too.
        for (let i = 0; i < 200; i++) await after.request('resources/unsubscribe', { uri: longUri('after', i) });
        expect((await subscribeMany(after, 'again', 200)).accepted).toBe(200);
      } finally {
        for (const c of clients) c.close();
      }
    }, 120_000);

    it('counts a socket listen’s URIs: one too many is refused, and a cancelled listen gives its share back', async () => {
      const c = await RawClient.connect(shelf.socketPath);
      const listen = (id: string, n: number) => {
        const from = c.messages.length;
        c.send({
          jsonrpc: '2.0',
          id,
          method: 'subscriptions/listen',
          params: { notifications: { resourceSubscriptions: Array.from({ length: n }, (_, i) => longUri(id, i)) }, _meta: ENVELOPE },
        });
        return c.waitFor(
          (m) =>
            m.id === id ||
            (m.method === 'notifications/subscriptions/acknowledged' &&
              (m.params as { _meta?: Record<string, unknown> })?._meta?.['io.modelcontextprotocol/subscriptionId'] === id),
          10_000,
          from,
        );
      };
      try {
        expect((await listen('too-big', 400)).error).toMatchObject({
          code: -32602,
          message: expect.stringMatching(
            /^Listen refused: one connection's subscriptions and listens may keep at most 4 MiB of URIs; this one keeps 0 KiB and this would add 6\.\d MiB/,
          ),
        });
        expect((await listen('first', 200)).method).toBe('notifications/subscriptions/acknowledged');
        expect((await listen('second', 100)).error?.message).toMatch(/^Listen refused: .* this one keeps 3\.\d MiB/);
        // A "cancel" sent as a request (it has an id) is answered as an unknown method and the listen stays
        // open: its share stays counted (it was given back, so 8 such listens kept 8 times the bound).
        c.send({ jsonrpc: '2.0', id: 'not-a-cancel', method: 'notifications/cancelled', params: { requestId: 'first' } });
        expect((await c.waitFor((m) => m.id === 'not-a-cancel', 10_000)).error?.code).toBe(-32601);
        expect((await listen('second-again', 100)).error?.message).toMatch(/^Listen refused: .* this one keeps 3\.\d MiB/);
        c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'first' } });
        expect((await listen('third', 100)).method).toBe('notifications/subscriptions/acknowledged');
      } finally {
        c.close();
      }
    }, 60_000);

    it('counts HTTP listens while their responses are open, and a 2025 HTTP session’s subscriptions, with the same errors', async () => {
      const url = shelf.http?.url as string;
      const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
        fetch(url, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
      const listen = async (n: number, signal?: AbortSignal) => {
        const r = await post(
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'subscriptions/listen',
            params: { notifications: { resourceSubscriptions: Array.from({ length: n }, (_, i) => longUri(`http-${Math.random()}`, i)) }, _meta: ENVELOPE },
          },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
          signal,
        );
        // An open listen's stream is read, as a client does (one left unread is cut off after a while).
        if (r.headers.get('content-type') === 'text/event-stream') void r.body?.pipeTo(new WritableStream()).catch(() => undefined);
        return r;
      };
      const refusal = async (r: Response) =>
        r.headers.get('content-type')?.startsWith('application/json') ? ((await r.json()) as { error?: { code: number; message: string } }).error : undefined;
      expect(await refusal(await listen(400))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Listen refused: one connection's .* at most 4 MiB/),
      });
      // Sixteen listens just under 4 MiB each fill the total; the next is refused until one ends.
      const open = Array.from({ length: 16 }, () => new AbortController());
      try {
        for (const ac of open) {
          const r = await listen(250, ac.signal);
          expect(r.headers.get('content-type')).toBe('text/event-stream');
        }
        expect((await refusal(await listen(250)))?.message).toMatch(/together may keep at most 64 MiB/);
        open.shift()?.abort();
        let accepted: Response | null = null;
        const again = new AbortController();
        open.push(again);
        for (let tries = 0; tries < 50 && !accepted; tries++) {
          const r = await listen(250, again.signal);
          if (r.headers.get('content-type') === 'text/event-stream') accepted = r;
          else await new Promise((res) => setTimeout(res, 100)); // the server sees the abort a moment later
        }
        expect(accepted).not.toBeNull();
      } finally {
        for (const ac of open) ac.abort();
      }
      // A 2025 session's subscriptions count in its own share.
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'session', version: '1' } },
      });
      const session = { 'mcp-session-id': init.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25' };
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
      let refused: { code: number; message: string } | undefined;
      for (let i = 0; i < 400 && !refused; i++) {
        refused = (
          (await (await post({ jsonrpc: '2.0', id: i + 2, method: 'resources/subscribe', params: { uri: longUri('session', i) } }, session)).json()) as {
            error?: { code: number; message: string };
          }
        ).error;
      }
      expect(refused).toMatchObject({ code: -32602, message: expect.stringMatching(/^Subscription refused: one connection's/) });
      await fetch(url, { method: 'DELETE', headers: session });
    }, 120_000);

    it('refuses an initialize whose capabilities and clientInfo, kept for the whole connection, are over 64 KiB of JSON', async () => {
      const c = await RawClient.connect(shelf.socketPath);
      try {
        const r = await c.request('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: { experimental: { x: { y: 'c'.repeat(70_000) } } },
          clientInfo: { name: 'big', version: '1' },
        });
        expect(r.error).toEqual({
          code: -32602,
          message: 'Invalid params for initialize: capabilities and clientInfo together at most 65536 characters of JSON',
        });
        const fine = await c.request('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: { experimental: { x: { y: 'c'.repeat(1000) } } },
          clientInfo: { name: 'fine', version: '1', title: 'A fine client' },
        });
        expect(fine.result).toBeDefined();
      } finally {
        c.close();
      }
    });

    it('refuses a request id over 1,024 characters, on the socket and over HTTP', async () => {
      const c = await RawClient.initialized(shelf.socketPath);
      try {
        const id = 'i'.repeat(1025);
        c.send({ jsonrpc: '2.0', id, method: 'resources/list', params: {} });
        expect((await c.waitFor((m) => m.id === id)).error).toEqual({ code: -32600, message: 'Invalid Request: the id is longer than 1024 characters' });
        expect((await c.request('resources/list', {})).result).toBeDefined();
        const r = await fetch(shelf.http?.url as string, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'resources/list',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/list', params: { _meta: ENVELOPE } }),
        });
        expect(((await r.json()) as { error?: unknown }).error).toEqual({ code: -32600, message: 'Invalid Request: the id is longer than 1024 characters' });
      } finally {
        c.close();
      }
    });
  });
});
