import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AccessEntry } from '../../shared/shelfApi.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';
import { connectWebApi } from '../support/webApi.js';

/**
 * The access history against the real CLI: reads by official clients of
 * both revisions over the bridge and over HTTP are recorded with who, how
 * and what; the history survives a restart and a SIGKILL in the middle of
 * heavy reads (losing at most the last second, opening clean); its byte
 * bound holds under a flood.
 */

type Reader = {
  name: string;
  revision: string;
  transport: 'socket' | 'http';
  read(uri: string): Promise<unknown>;
  tool(uri: string): Promise<unknown>;
  close(): Promise<void>;
};

async function readers(shelf: ShelfProcess): Promise<Reader[]> {
  const headers = { Authorization: `Bearer ${shelf.http?.token}` };
  const bridge = { command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' as const };
  const url = new URL(shelf.http?.url as string);
  const out: Reader[] = [];
  for (const via of ['bridge', 'http'] as const) {
    const v1 = new V1Client({ name: `v1-${via}`, version: '1.0.0' });
    await v1.connect(via === 'bridge' ? new V1Stdio(bridge) : new V1Http(url, { requestInit: { headers } }));
    out.push({
      name: `v1-${via}`,
      revision: '2025-11-25',
      transport: via === 'bridge' ? 'socket' : 'http',
      read: (uri) => v1.readResource({ uri }),
      tool: (uri) => v1.callTool({ name: 'read_resource', arguments: { uri } }),
      close: () => v1.close(),
    });
    const v2 = new V2Client({ name: `v2-${via}`, version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await v2.connect(via === 'bridge' ? new V2Stdio(bridge) : new V2Http(url, { requestInit: { headers } }));
    out.push({
      name: `v2-${via}`,
      revision: '2026-07-28',
      transport: via === 'bridge' ? 'socket' : 'http',
      read: (uri) => v2.readResource({ uri }),
      tool: (uri) => v2.callTool({ name: 'read_resource', arguments: { uri } }),
      close: () => v2.close(),
    });
  }
  return out;
}

describe('access history', () => {
  let root: string;
  let configDir: string;
  const sock = () => path.join(configDir, 's.sock');

  beforeAll(async () => {
    root = await makeTree({ 'hello.md': '# Hello\n', 'data.bin': Buffer.from([0, 1, 2, 255]) });
    configDir = await mkdtemp(path.join(os.tmpdir(), 'shh-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(configDir, { recursive: true, force: true });
  });

  it('records every read of every client, both revisions, bridge and HTTP, and keeps it across a restart', async () => {
    let shelf = await startShelf([root], ['--http', '0', '--ui', '--ui-port', '0'], { socketPath: sock() });
    const clients = await readers(shelf);
    try {
      for (const c of clients) {
        await c.read(uriOf(root, 'hello.md'));
        await c.tool(uriOf(root, 'data.bin'));
      }
      await expect(clients[0]?.read(uriOf(root, 'missing.txt'))).rejects.toThrow();
    } finally {
      for (const c of clients) await c.close();
    }
    const api = await connectWebApi(shelf);
    const page = await eventually(async () => {
      const p = await api.call('queryHistory', { limit: 100 });
      return p.entries.length >= 9 ? p : null;
    });
    for (const c of clients) {
      const mine = page.entries.filter((e) => e.client === c.name && e.outcome === 'ok');
      expect(mine.map((e) => [e.via, e.uri, e.outcome, e.size]).sort()).toEqual(
        [
          ['resource', uriOf(root, 'hello.md'), 'ok', 8],
          ['tool', uriOf(root, 'data.bin'), 'ok', 4],
        ].sort(),
      );
      for (const e of mine)
        expect(e).toMatchObject({
          protocolVersion: c.revision,
          transport: c.transport,
          folder: root,
          clientVersion: c.name.startsWith('v1') ? '1.0.0' : '2.0.0',
        });
    }
    expect(page.entries.find((e) => e.uri.endsWith('missing.txt'))).toMatchObject({ client: 'v1-bridge', outcome: 'error', errorCode: -32602, folder: null });
    const counts = await api.call('fileAccess');
    expect(counts.find((f) => f.uri === uriOf(root, 'hello.md'))).toMatchObject({ reads: 4 });
    // The window hears reads as they happen.
    expect(api.events('access').flat().length).toBe(0);
    const live = await RawClient.initialized(shelf.socketPath);
    await live.request('resources/read', { uri: uriOf(root, 'hello.md') });
    await eventually(
      () =>
        api
          .events('access')
          .flat()
          .some((e) => e.client === 'raw'),
      5000,
      'the access event',
    );
    live.socket.destroy();
    await api.close();
    expect(await shelf.stop()).toBe(0);

    shelf = await startShelf([root], ['--ui', '--ui-port', '0'], { socketPath: sock() });
    const again = await connectWebApi(shelf);
    const kept = await again.call('queryHistory', { limit: 100 });
    expect(kept.entries.map((e) => e.seq)).toEqual(page.entries.length > 0 ? [page.entries[0]!.seq + 1, ...page.entries.map((e) => e.seq)] : []);
    expect((await again.call('queryHistory', { client: 'v2-http' })).entries).toHaveLength(2);
    const csv = await again.call('exportHistory', { folder: root }, 'csv');
    expect(csv.count).toBe(9);
    expect(csv.text.split('\n')[0]).toMatch(/^time,client,/);
    await again.close();
    await shelf.stop();
  }, 60_000);

  it('a SIGKILL during heavy reads loses at most the last second, and the history opens clean', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shk-'));
    try {
      let shelf = await startShelf([root], [], { socketPath: path.join(dir, 's.sock') });
      const c = await RawClient.initialized(shelf.socketPath);
      const done: number[] = [];
      let stop = false;
      const loops = Array.from({ length: 8 }, async () => {
        while (!stop) {
          const r = await c.request('resources/read', { uri: uriOf(root, 'hello.md') }).catch(() => null);
          if (!r || r.error) return;
          done.push(Date.now());
        }
      });
      await eventually(() => done.length > 3000, 30_000, 'reads');
      const killedAt = Date.now();
      shelf.proc.kill('SIGKILL');
      stop = true;
      await Promise.all(loops);
      await shelf.stop().catch(() => undefined);

      const answeredBefore = done.filter((t) => t < killedAt - 1000).length;
      shelf = await startShelf([root], ['--ui', '--ui-port', '0'], { socketPath: path.join(dir, 's.sock') });
      const api = await connectWebApi(shelf);
      const kept = await api.call('queryHistory', { client: 'raw', limit: 100_000 });
      expect(kept.entries.length).toBeGreaterThanOrEqual(answeredBefore);
      expect(kept.entries.every((e: AccessEntry) => e.outcome === 'ok' && e.uri === uriOf(root, 'hello.md'))).toBe(true);
      await api.close();
      await shelf.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  /** A raw client that calls itself `name`. */
  async function named(socketPath: string, name: string): Promise<RawClient> {
    const c = await RawClient.connect(socketPath);
    await c.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } });
    c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return c;
  }

  it('holds its byte bound under a flood of reads by a client with a long name', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shb-'));
    try {
      const shelf = await startShelf([root], ['--ui', '--ui-port', '0'], { socketPath: path.join(dir, 's.sock') });
      const api = await connectWebApi(shelf);
      await api.call('updateSettings', { history: { maxBytes: 1024 * 1024 } });
      const c = await named(shelf.socketPath, 'n'.repeat(5000));
      for (let batch = 0; batch < 40; batch++) {
        await Promise.all(Array.from({ length: 100 }, () => c.request('resources/read', { uri: uriOf(root, 'hello.md') })));
      }
      await new Promise((r) => setTimeout(r, 600));
      const files = await readdir(path.join(dir, 'history'));
      const bytes = (await Promise.all(files.map((f) => stat(path.join(dir, 'history', f))))).reduce((n, s) => n + s.size, 0);
      // The budget, plus at most the segment being written (an eighth of it, at least 256 KiB).
      expect(bytes).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024 + 8192);
      expect((await api.call('queryHistory', { limit: 1 })).entries[0]?.seq).toBe(4000);
      // A stored string a client chose is cut to 2,048 characters.
      await c.request('resources/read', { uri: uriOf(root, `${'x'.repeat(4000)}.txt`) });
      const page = await eventually(async () =>
        (await api.call('queryHistory', { limit: 1 })).entries[0]?.seq === 4001 ? api.call('queryHistory', { limit: 1 }) : null,
      );
      expect(page.entries[0]?.uri.length).toBe(2048);
      await api.close();
      await shelf.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a flood of not-found reads cannot erase a client’s real read or the file’s count: a run is kept as its first few and one entry for the rest', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shn-'));
    try {
      const shelf = await startShelf([root], ['--ui', '--ui-port', '0'], { socketPath: path.join(dir, 's.sock') });
      const api = await connectWebApi(shelf);
      await api.call('updateSettings', { history: { maxBytes: 1024 * 1024 } });
      const c = await named(shelf.socketPath, 'eraser');
      expect((await c.request('resources/read', { uri: uriOf(root, 'hello.md') })).error).toBeUndefined();
      // 8,000 junk reads of ~350 bytes each would be 2.8 MB of history: nearly three times the budget.
      const junk = (i: number) => uriOf(root, `missing/${String(i).padStart(6, '0')}-${'j'.repeat(100)}.txt`);
      for (let batch = 0; batch < 80; batch++) {
        const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => c.request('resources/read', { uri: junk(batch * 100 + i) })));
        expect(replies.every((r) => r.error?.code === -32602)).toBe(true);
      }
      c.close();
      const mine = await eventually(
        async () => {
          const p = await api.call('queryHistory', { client: 'eraser' });
          return p.entries.some((e) => e.repeated) ? p.entries : null;
        },
        10_000,
        'the folded entry',
      );
      expect(mine.map((e) => [e.outcome, e.repeated ?? 1])).toEqual([
        ['error', 7_997],
        ['error', 1],
        ['error', 1],
        ['error', 1],
        ['ok', 1],
      ]);
      expect(mine[0]).toMatchObject({ uri: junk(7_999), errorCode: -32602 });
      expect((await api.call('fileAccess')).find((f) => f.uri === uriOf(root, 'hello.md'))).toMatchObject({ reads: 1, lastClient: 'eraser' });
      await api.close();
      await shelf.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('reads of an ask-before-read folder refused at once (no window open) are folded the same way', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shw-'));
    try {
      // --ui, but no tab open yet: nobody can be asked.
      const shelf = await startShelf([root], ['--ui', '--ui-port', '0', '--ask-before-read'], { socketPath: path.join(dir, 's.sock') });
      const c = await named(shelf.socketPath, 'knocker');
      for (let batch = 0; batch < 10; batch++) {
        const replies = await Promise.all(Array.from({ length: 100 }, () => c.request('resources/read', { uri: uriOf(root, 'hello.md') })));
        expect(replies.every((r) => (r.error?.data as { reason?: string } | undefined)?.reason === 'no-window')).toBe(true);
      }
      c.close();
      const api = await connectWebApi(shelf);
      const mine = await eventually(
        async () => {
          const p = await api.call('queryHistory', { client: 'knocker' });
          return p.entries.some((e) => e.repeated) ? p.entries : null;
        },
        10_000,
        'the folded entry',
      );
      expect(mine.map((e) => [e.outcome, e.errorReason, e.repeated ?? 1])).toEqual([
        ['denied', 'no-window', 997],
        ['denied', 'no-window', 1],
        ['denied', 'no-window', 1],
        ['denied', 'no-window', 1],
      ]);
      await api.close();
      await shelf.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
