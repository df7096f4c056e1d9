import { spawn } from 'node:child_process';

import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

import { CHANGE_TOOLS } from '../../electron/core/mcp/changeTools.js';
import { BROWSE_SHELF_TOOL } from '../../electron/core/mcp/shelfApp.js';
import { SHELF_TOOLS } from '../../electron/core/mcp/shelfTools.js';
import { CLI } from '../support/shelfProcess.js';

const NOWHERE = '/tmp/no-shelf-here/shelf.sock';
const bridge = { command: process.execPath, args: [CLI, 'connect', '--socket', NOWHERE], stderr: 'pipe' as const };

/**
 * A client that launches the bridge while no shelf runs still connects, and
 * everything it asks says why there is nothing: a message a model can relay.
 */
describe('the bridge when no shelf is running', () => {
  it('tells a 2025 client, in the instructions, the list’s one entry and every tool call', async () => {
    const client = new V1Client({ name: 'early', version: '1' });
    await client.connect(new V1Stdio(bridge));
    try {
      expect(client.getInstructions()).toMatch(/MCP Shelf is not running/);
      const { resources } = await client.listResources();
      expect(resources).toHaveLength(1);
      expect(resources[0]?.description).toMatch(/MCP Shelf is not running/);
      const entry = await client.readResource({ uri: resources[0]?.uri as string });
      expect(entry.contents[0]).toMatchObject({
        mimeType: 'text/plain',
        text: expect.stringMatching(/MCP Shelf is not running.*Start the MCP Shelf app/) as unknown,
      });
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
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.name)).toEqual(['MCP Shelf is not running']);
      const call = await client.callTool({ name: 'read_resource', arguments: { uri: 'file:///x' } });
      expect(call.isError).toBe(true);
      expect(JSON.stringify(call.content)).toMatch(/MCP Shelf is not running/);
    } finally {
      await client.close();
    }
  });

  it.each(['2025-11-25', '2026-07-28'])('answers every method a %s client may send with the instruction', async (revision) => {
    const proc = spawn(process.execPath, [CLI, 'connect', '--socket', NOWHERE], { stdio: ['pipe', 'pipe', 'ignore'] });
    const replies = new Map<unknown, Record<string, unknown>>();
    let buffer = '';
    const arrived = new Promise<void>((resolve) => {
      proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const message = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
          buffer = buffer.slice(nl + 1);
          replies.set(message.id, message);
        }
        if (METHODS.every((_m, i) => replies.has(i))) resolve();
      });
    });
    const meta =
      revision === '2026-07-28' ? { _meta: { 'io.modelcontextprotocol/protocolVersion': revision, 'io.modelcontextprotocol/clientCapabilities': {} } } : {};
    const METHODS: Array<[string, Record<string, unknown>]> = [
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['tools/list', {}],
      ['tools/call', { name: 'grep_resources', arguments: {} }],
      ['resources/read', { uri: 'file:///home/someone/notes.md' }],
      ['completion/complete', { ref: { type: 'ref/resource', uri: 'file:///x/{+path}' }, argument: { name: 'path', value: 'a' } }],
      ['resources/subscribe', { uri: 'file:///x' }],
      ['subscriptions/listen', { notifications: { resourcesListChanged: true } }],
      ['prompts/list', {}],
      ['some/future-method', {}],
    ];
    if (revision === '2025-11-25') {
      proc.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
      );
    }
    METHODS.forEach(([method, params], i) => proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: i, method, params: { ...params, ...meta } })}\n`));
    try {
      const late = new Promise<never>((_, reject) =>
        setTimeout(
          () =>
            reject(
              new Error(
                `no answer to ${METHODS.filter((_m, i) => !replies.has(i))
                  .map(([m]) => m)
                  .join(', ')}`,
              ),
            ),
          20_000,
        ).unref(),
      );
      await Promise.race([arrived, late]);
      for (const [i, [method]] of METHODS.entries()) {
        // The instruction is in the answer, whatever its shape (a list entry, an error, an error result).
        expect(JSON.stringify(replies.get(i)), method).toMatch(/MCP Shelf is not running/);
      }
      // The stand-in lists the tools the shelf gives a model (not the app's own), so a model that calls one learns why.
      const standIn = (replies.get(2) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
      expect(standIn.sort()).toEqual([...SHELF_TOOLS, ...CHANGE_TOOLS, BROWSE_SHELF_TOOL].map((t) => t.name).sort());
    } finally {
      proc.kill();
    }
  });
});
