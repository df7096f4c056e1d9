import { rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { ConnectionHub } from '../../../../../electron/core/mcp/connectionHub.js';
import { TrafficLog } from '../../../../../electron/core/traffic/trafficLog.js';
import { plainReads } from '../../../../support/clientReads.js';
import { eventually, makeTree, uriOf } from '../../../../support/fixtures.js';
import { RawClient } from '../../../../support/rawClient.js';

/** The hub on a real socket server in this process: connections, identities, traffic. */
describe('ConnectionHub', () => {
  let root: string;
  let library: Library;
  let traffic: TrafficLog;
  let hub: ConnectionHub;
  let server: net.Server;
  const sock = path.join(os.tmpdir(), `hub-${process.pid}.sock`);

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha' });
    library = new Library({ maxReadBytes: 1024 * 1024 });
    await library.add(root, { showHidden: false, gitignore: true, extraIgnore: [] });
    traffic = new TrafficLog({ maxEntries: 1000, maxBytes: 1024 * 1024 });
    hub = new ConnectionHub(library, { traffic, reads: plainReads(library) });
    await rm(sock, { force: true });
    server = net.createServer((s) => hub.acceptSocket(s));
    await new Promise<void>((r) => server.listen(sock, r));
  });
  afterAll(async () => {
    await hub.closeAll();
    await new Promise((r) => server.close(r));
    await library.close();
    traffic.close();
    await rm(root, { recursive: true, force: true });
  });

  it('counts connections, names each client and its revision, and forgets it on close', async () => {
    const changes: number[] = [];
    const off = hub.onChange(() => changes.push(hub.size));
    const legacy = await RawClient.initialized(sock);
    const modern = await RawClient.connect(sock);
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '9' },
    };
    expect((await modern.request('resources/read', { uri: uriOf(root, 'a.txt'), _meta: envelope })).result).toMatchObject({ resultType: 'complete', ttlMs: 0 });
    await eventually(() => hub.clients().filter((c) => c.name !== null).length === 2, 3000, 'two named clients');
    expect(
      hub
        .clients()
        .map((c) => [c.name, c.protocolVersion, c.transport])
        .sort(),
    ).toEqual([
      ['modern', '2026-07-28', 'socket'],
      ['raw', '2025-11-25', 'socket'],
    ]);
    expect(traffic.query({ method: 'resources/read' }).map((e) => e.client)).toContain('modern 9');
    legacy.close();
    modern.close();
    await eventually(() => hub.size === 0, 3000, 'both gone');
    expect(changes.length).toBeGreaterThanOrEqual(4);
    off();
  });

  it('refuses malformed params before the SDK, with one sentence', async () => {
    const c = await RawClient.initialized(sock);
    expect((await c.request('resources/read', {})).error).toEqual({ code: -32602, message: 'Invalid params for resources/read: uri: required' });
    c.close();
  });
});
