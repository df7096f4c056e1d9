import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

import { CLI } from '../support/shelfProcess.js';

const NOWHERE = '/tmp/no-shelf-here/shelf.sock';
const bridge = { command: process.execPath, args: [CLI, 'connect', '--socket', NOWHERE], stderr: 'pipe' as const };

/**
 * A client that launches the bridge while no shelf runs still connects, and
 * everything it asks says why there is nothing: a message a model can relay.
 */
describe('the bridge when no shelf is running', () => {
  it('tells a 2025 client, in the instructions, an empty list and every tool call', async () => {
    const client = new V1Client({ name: 'early', version: '1' });
    await client.connect(new V1Stdio(bridge));
    try {
      expect(client.getInstructions()).toMatch(/MCP Shelf is not running/);
      expect((await client.listResources()).resources).toEqual([]);
      const call = await client.callTool({ name: 'list_resources', arguments: {} });
      expect(call.isError).toBe(true);
      expect(JSON.stringify(call.content)).toMatch(/not running.*Start the MCP Shelf app/);
      await expect(client.readResource({ uri: 'file:///x' })).rejects.toThrow(/MCP Shelf is not running/);
    } finally {
      await client.close();
    }
  });

  it('tells a 2026-07-28 client the same', async () => {
    const client = new V2Client({ name: 'early', version: '2' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new V2Stdio(bridge));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const call = await client.callTool({ name: 'read_resource', arguments: { uri: 'file:///x' } });
      expect(call.isError).toBe(true);
      expect(JSON.stringify(call.content)).toMatch(/MCP Shelf is not running/);
    } finally {
      await client.close();
    }
  });
});
