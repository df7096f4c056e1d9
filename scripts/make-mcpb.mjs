#!/usr/bin/env node
// npm run mcpb: builds release/mcp-shelf.mcpb, an MCP Bundle (the format
// Claude Desktop installs in one click): a manifest and the stdio bridge,
// which connects to the running MCP Shelf's socket. The bundle holds no
// server of its own: the app (or `mcp-shelf serve`) must be running, and
// the bridge says so to the client when it is not. It runs on the Node the
// client brings (server.type "node"), never the app's executable in Node
// mode (that fuse is off), and it checks the socket before it speaks, as
// `mcp-shelf connect` does.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { bundleSizeProblems } from './bundle-sizes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BRIDGE = path.join(ROOT, 'out', 'bridge', 'mcp-shelf-bridge.cjs');
const MCPB = path.join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'release', 'mcp-shelf.mcpb'));

const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
const manifest = {
  manifest_version: '0.3',
  name: 'mcp-shelf',
  display_name: 'MCP Shelf',
  version: pkg.version,
  description: 'Read-only access to the folders you publish in MCP Shelf.',
  long_description:
    'Connects to MCP Shelf running on this computer (the desktop app, or `mcp-shelf serve FOLDER…`) and gives the client the files of the folders you published there, read-only, as MCP resources and three tools (list, read, search), and shows the shelf inside the chat (browse_shelf, an MCP App) to browse, search, preview and add files to the conversation. The bundle only bridges to the shelf: start MCP Shelf first.',
  author: { name: 'MCP Shelf' },
  license: pkg.license,
  keywords: ['files', 'folders', 'resources', 'read-only'],
  icon: 'icon.png',
  server: {
    type: 'node',
    entry_point: 'server/mcp-shelf-bridge.cjs',
    mcp_config: { command: 'node', args: ['${__dirname}/server/mcp-shelf-bridge.cjs', 'connect'] },
  },
  tools: [
    { name: 'list_resources', description: 'Lists the published files (a folder and a glob narrow it), a page at a time.' },
    { name: 'read_resource', description: 'Reads one published file by URI.' },
    { name: 'search_resources', description: 'Finds a text in the published text files.' },
    { name: 'browse_shelf', description: 'Shows the shelf in the chat: browse, search, preview and add files to the conversation.' },
  ],
  compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=20.19.0' } },
};

const run = (args) => execFileSync(process.execPath, [MCPB, ...args], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
const work = await mkdtemp(path.join(os.tmpdir(), 'mcpb-'));
try {
  await mkdir(path.join(work, 'server'));
  await copyFile(BRIDGE, path.join(work, 'server', 'mcp-shelf-bridge.cjs'));
  // mcpb recommends a 512×512 icon (build/icon.png is the installers' 1024 master).
  await copyFile(path.join(ROOT, 'build', 'icons', '512x512.png'), path.join(work, 'icon.png'));
  await writeFile(path.join(work, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // The official tool validates the manifest and packs the folder.
  process.stdout.write(run(['validate', path.join(work, 'manifest.json')]));
  await mkdir(path.dirname(OUT), { recursive: true });
  await rm(OUT, { force: true });
  run(['pack', work, OUT]);
  const problems = await bundleSizeProblems(work, OUT);
  if (problems.length > 0) {
    await rm(OUT, { force: true });
    throw new Error(`mcp-shelf.mcpb is too large:\n  ${problems.join('\n  ')}`);
  }
  process.stdout.write(`mcp-shelf.mcpb: ${OUT}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
