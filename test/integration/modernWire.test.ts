import { rename, rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/** The per-request envelope of protocol revision 2026-07-28. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1' },
};
const modern = (params: Record<string, unknown> = {}) => ({ ...params, _meta: ENVELOPE });

const THREE_MIB = 3 * 1024 * 1024;

describe('2026-07-28 on the raw socket, and bad params in both revisions', () => {
  let root: string;
  let shelf: ShelfProcess;

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha', 'large.txt': 'z'.repeat(THREE_MIB) });
    shelf = await startShelf([root]);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('discovers, reads small and streamed files with the result fields of the revision, and keeps every file uncached', async () => {
    const c = await RawClient.connect(shelf.socketPath);
    try {
      const discover = await c.request('server/discover', modern());
      expect(discover.result).toMatchObject({
        supportedVersions: ['2026-07-28'],
        capabilities: { resources: { subscribe: true, listChanged: true } },
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-shelf' } },
      });
      const fields = {
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-shelf', title: 'MCP Shelf' } },
      };
      const small = await c.request('resources/read', modern({ uri: uriOf(root, 'a.txt') }));
      expect(small.result).toMatchObject({ contents: [{ uri: uriOf(root, 'a.txt'), mimeType: 'text/plain', text: 'alpha' }], ...fields });
      // Over 1 MiB: written in pieces by the fast path, with the same fields after the contents.
      const large = await c.request('resources/read', modern({ uri: uriOf(root, 'large.txt') }));
      expect(large.result).toMatchObject(fields);
      expect((large.result as { contents: Array<{ text: string }> }).contents[0]?.text.length).toBe(THREE_MIB);
      // The SDK's own results carry the same fields (one shape whoever answers).
      const list = await c.request('resources/list', modern());
      expect(list.result).toMatchObject(fields);
    } finally {
      c.close();
    }
  });

  it('answers what 2026-07-28 removed with -32601, an unknown revision with -32022, a bad envelope with -32602, and goes on', async () => {
    const c = await RawClient.connect(shelf.socketPath);
    try {
      await c.request('server/discover', modern());
      for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']) {
        expect((await c.request(method, modern({ uri: uriOf(root, 'a.txt'), level: 'info' }))).error?.code, method).toBe(-32601);
      }
      expect((await c.request('resources/list', modern())).result).toBeDefined(); // the connection is pinned now
      const unknown = await c.request('resources/list', { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } });
      expect(unknown.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } });
      const noCaps = await c.request('resources/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } });
      expect(noCaps.error?.code).toBe(-32602);
      const tooMany = await c.request(
        'subscriptions/listen',
        modern({ notifications: { resourceSubscriptions: Array.from({ length: 1001 }, (_, i) => `file:///x/${i}`) } }),
      );
      expect(tooMany.error).toEqual({
        code: -32602,
        message: 'Invalid params for subscriptions/listen: notifications.resourceSubscriptions: at most 1000 URIs',
      });
      const badUri = await c.request('resources/read', modern({ uri: 5 }));
      expect(badUri.error).toEqual({ code: -32602, message: 'Invalid params for resources/read: uri: Invalid input: expected string, received number' });
      expect((await c.request('resources/read', modern({ uri: uriOf(root, 'a.txt') }))).result).toBeDefined();
    } finally {
      c.close();
    }
  });

  it('answers bad params of every kind with -32602 and one short sentence, in 2025 as in 2026', async () => {
    const c = await RawClient.connect(shelf.socketPath);
    try {
      const init = await c.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      expect(init.error).toEqual({ code: -32602, message: 'Invalid params for initialize: clientInfo: required' });
      const ok = await c.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
      expect(ok.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'mcp-shelf' } });
      c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const level = await c.request('logging/setLevel', { level: 'loud' });
      expect(level.error?.code).toBe(-32602);
      expect(level.error?.message).toMatch(/^Invalid params for logging\/setLevel: level: /);
      const call = await c.request('tools/call', {});
      expect(call.error).toEqual({ code: -32602, message: 'Invalid params for tools/call: name: required' });
      const complete = await c.request('completion/complete', { ref: { type: 'ref/resource' }, argument: { name: 'path', value: '' } });
      expect(complete.error).toEqual({ code: -32602, message: 'Invalid params for completion/complete: ref.uri: required' });
      for (const m of [init, level, call, complete]) expect(m.error?.message).not.toMatch(/\[|MCP error/);
      expect((await c.request('ping')).result).toEqual({});
    } finally {
      c.close();
    }
  });
});

describe('nothing unsolicited reaches a 2026-07-28 client', () => {
  it('a vanished folder is logged to a 2025 client and never to a modern one', async () => {
    const root = await makeTree({ 'a.txt': 'a' });
    const shelf = await startShelf([root]);
    const legacy = await RawClient.initialized(shelf.socketPath);
    const current = await RawClient.connect(shelf.socketPath);
    const quiet = await RawClient.connect(shelf.socketPath); // modern, and never listens
    try {
      await quiet.request('server/discover', modern());
      await current.request('server/discover', modern());
      // A listen has no reply until it ends: wait for its acknowledgement instead.
      current.send({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: modern({ notifications: { resourcesListChanged: true } }) });
      await current.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      await rename(root, `${root}-gone`);
      await legacy.waitFor((m) => m.method === 'notifications/message', 5000);
      // The modern client may hear list_changed on its listen, but never a log message.
      await current.waitFor((m) => m.method === 'notifications/resources/list_changed', 5000);
      expect(current.messages.filter((m) => m.method === 'notifications/message')).toEqual([]);
      expect(quiet.messages.filter((m) => m.method !== undefined)).toEqual([]); // not even list_changed
    } finally {
      quiet.close();
      legacy.close();
      current.close();
      await rename(`${root}-gone`, root).catch(() => undefined);
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});
