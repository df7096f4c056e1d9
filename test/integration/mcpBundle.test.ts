import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { startShelf } from '../support/shelfProcess.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MCPB = path.join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

/** `npm run mcpb`'s bundle, validated by the official tool, unpacked, and run as Claude Desktop would run it. */
describe('the MCP Bundle (npm run mcpb)', () => {
  it('validates, and its command reaches a running shelf', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'mcpb-test-'));
    const root = await makeTree({ 'hello.md': '# Hello\n' });
    // Changes on: every tool a model can be given is listed (write and edit only where a folder takes changes).
    const shelf = await startShelf([root], ['--allow-changes']);
    try {
      const bundle = path.join(work, 'mcp-shelf.mcpb');
      const made = await run(process.execPath, [path.join(ROOT, 'scripts', 'make-mcpb.mjs'), bundle]);
      expect(made.stdout).toMatch(/Manifest schema validation passes/);
      const unpacked = path.join(work, 'unpacked');
      await run(process.execPath, [MCPB, 'unpack', bundle, unpacked]);
      const manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8')) as {
        server: { mcp_config: { command: string; args: string[] } };
        tools: Array<{ name: string; description: string }>;
      };
      expect(manifest.server.mcp_config.command).toBe('node');
      // mcpb recommends a 512² icon; Claude Desktop is reported to reject bundles holding a file over ~108 KB.
      const icon = await readFile(path.join(unpacked, 'icon.png'));
      expect([icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([512, 512]);
      for (const entry of await readdir(unpacked, { withFileTypes: true, recursive: true })) {
        if (entry.isFile()) expect((await stat(path.join(entry.parentPath, entry.name))).size, entry.name).toBeLessThanOrEqual(100 * 1024);
      }
      // What the client runs: the manifest's args with ${__dirname} filled in, plus our socket (the default in real use).
      const args = manifest.server.mcp_config.args.map((a) => a.replace('${__dirname}', unpacked));
      // As Claude Desktop, the bundle's host, introduces itself (it shows MCP Apps).
      const client = new Client(
        { name: 'claude-ai', version: '1' },
        { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
      );
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [...args, '--socket', shelf.socketPath], stderr: 'pipe' }));
      try {
        expect((await client.readResource({ uri: uriOf(root, 'hello.md') })).contents[0]).toMatchObject({ text: '# Hello\n' });
        // The manifest's tools are the ones the shelf gives a model (not the app's own), each described.
        const listed = (await client.listTools()).tools.filter((t) => !JSON.stringify(t._meta ?? {}).includes('"visibility":["app"]'));
        expect(manifest.tools.map((t) => t.name).sort()).toEqual(listed.map((t) => t.name).sort());
        for (const t of manifest.tools) expect(t.description.length, t.name).toBeGreaterThan(10);
      } finally {
        await client.close();
      }
    } finally {
      await shelf.stop();
      await rm(work, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
