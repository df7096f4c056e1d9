import { rm } from 'node:fs/promises';

import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MemoryBudget } from '../../../../../electron/core/clientMemory/memoryBudget.js';
import { Library } from '../../../../../electron/core/library/library.js';
import { createShelfServer } from '../../../../../electron/core/mcp/shelfServer.js';
import { plainReads } from '../../../../support/clientReads.js';
import { makeTree, uriOf } from '../../../../support/fixtures.js';

/** One server over the library, and the official v2 client on an in-memory pair (the transports are tested elsewhere). */
describe('createShelfServer', () => {
  let root: string;
  let library: Library;

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha', 'b.bin': Buffer.from([0, 1, 2]).toString('latin1') });
    library = new Library({ maxReadBytes: 1024 });
    await library.add(root, { showHidden: false, gitignore: true, extraIgnore: [] });
  });
  afterAll(async () => {
    await library.close();
    await rm(root, { recursive: true, force: true });
  });

  const connect = async (tools: boolean) => {
    const shelf = createShelfServer(library, {
      era: 'legacy',
      notifications: 'connection',
      tools,
      reads: plainReads(library),
      requester: () => ({
        connectionId: 1,
        memory: new MemoryBudget().account(),
        name: 'unit',
        version: '1',
        protocolVersion: null,
        transport: 'socket',
        connectedAt: 0,
        grantable: true,
      }),
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await shelf.server.connect(a);
    const client = new Client({ name: 'unit', version: '1' });
    await client.connect(b);
    return { shelf, client };
  };

  it('declares resources with subscribe and listChanged, completions, logging, and tools when asked', async () => {
    const { client } = await connect(true);
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, completions: {}, logging: {}, tools: {} });
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp-shelf', title: 'MCP Shelf' });
    const { client: noTools } = await connect(false);
    expect(noTools.getServerCapabilities()?.tools).toBeUndefined();
    await client.close();
    await noTools.close();
  });

  it('lists, reads, templates and completes from the library; subscribing any URI is accepted', async () => {
    const { client } = await connect(true);
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(['a.txt', 'b.bin']);
    expect((await client.readResource({ uri: uriOf(root, 'a.txt') })).contents).toEqual([{ uri: uriOf(root, 'a.txt'), mimeType: 'text/plain', text: 'alpha' }]);
    await expect(client.readResource({ uri: uriOf(root, 'zzz') })).rejects.toMatchObject({ code: -32602, data: { uri: uriOf(root, 'zzz') } });
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(1);
    const done = await client.complete({ ref: { type: 'ref/resource', uri: `${uriOf(root, '')}/{+path}` }, argument: { name: 'path', value: 'a' } });
    expect(done.completion.values).toEqual(['a.txt']);
    await expect(client.subscribeResource({ uri: 'file:///anything/at/all' })).resolves.toBeDefined();
    const listed = await client.callTool({ name: 'list_resources', arguments: {} });
    expect(listed.isError).toBeFalsy();
    await client.close();
  });
});
