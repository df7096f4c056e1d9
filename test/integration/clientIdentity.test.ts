import { rm } from 'node:fs/promises';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { startService, type TestService } from '../support/service.js';
import { CLI, connectSdkClient } from '../support/shelfProcess.js';

/**
 * The Clients panel and the traffic log name every client and show the
 * revision it speaks: a 2026-07-28 client names itself in each request's
 * `_meta`, a 2025 client in its handshake.
 */
describe('client identity in both revisions', () => {
  let root: string;
  let svc: TestService;

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'a' });
    svc = await startService({ sessionFolders: [root], http: { host: '127.0.0.1', port: 0, noAuth: true } });
  });
  afterAll(async () => {
    await svc?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('names modern clients on the socket and over HTTP, and 2025 clients, with their revision', async () => {
    const socketPath = (await svc.service.getStatus()).socketPath;
    const modern = new V2Client({ name: 'modern-socket', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new V2Stdio({ command: process.execPath, args: [CLI, 'connect', '--socket', socketPath], stderr: 'pipe' }));
    const overHttp = new V2Client({ name: 'modern-http', version: '3.1.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await overHttp.connect(new V2Http(new URL((await svc.service.getStatus()).httpUrl as string)));
    const legacy = await connectSdkClient(socketPath, 'legacy-socket');
    try {
      await modern.readResource({ uri: uriOf(root, 'a.txt') });
      await overHttp.readResource({ uri: uriOf(root, 'a.txt') });
      await legacy.readResource({ uri: uriOf(root, 'a.txt') });
      await eventually(async () => (await svc.service.listClients()).filter((c) => c.name !== null).length === 3, 5000, 'three named clients');
      const clients = await svc.service.listClients();
      const by = (name: string) => clients.find((c) => c.name === name);
      expect(by('modern-socket')).toMatchObject({ version: '2.0.0', protocolVersion: '2026-07-28', transport: 'socket' });
      expect(by('modern-http')).toMatchObject({ version: '3.1.0', protocolVersion: '2026-07-28', transport: 'http' });
      expect(by('legacy-socket')).toMatchObject({ version: '1.0.0', protocolVersion: '2025-11-25', transport: 'socket' });
      const reads = (await svc.service.queryTraffic({ method: 'resources/read', limit: 100 })).filter((e) => e.direction === 'in');
      expect(new Set(reads.map((e) => e.client))).toEqual(new Set(['modern-socket 2.0.0', 'modern-http 3.1.0', 'legacy-socket 1.0.0']));
    } finally {
      await modern.close();
      await overHttp.close();
      await legacy.close();
    }
    await eventually(async () => (await svc.service.listClients()).every((c) => c.transport === 'http'), 5000, 'socket clients gone');
  });
});
