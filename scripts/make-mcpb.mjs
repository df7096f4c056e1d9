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
import { fileURLToPath, pathToFileURL } from 'node:url';

import { bundleSizeProblems } from './bundle-sizes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BRIDGE = path.join(ROOT, 'out', 'bridge', 'mcp-shelf-bridge.cjs');
const MCPB = path.join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'release', 'mcp-shelf.mcpb'));

/**
 * The tools a model is given, from the server's own definitions (the build's
 * modules), each with the first sentence of its description: the manifest
 * cannot drift from what the shelf lists (test/integration/mcpBundle.test.ts
 * compares them). App-only tools are the view's, not the model's.
 */
async function modelTools() {
  const dist = (rel) => import(pathToFileURL(path.join(ROOT, 'dist', 'electron', 'core', 'mcp', rel)).href);
  const [{ SHELF_TOOLS }, { CHANGE_TOOLS }, { BROWSE_SHELF_TOOL }] = await Promise.all([dist('shelfTools.js'), dist('changeTools.js'), dist('shelfApp.js')]);
  const firstSentence = (text) => /^[^]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  return [...SHELF_TOOLS, ...CHANGE_TOOLS, BROWSE_SHELF_TOOL].map((t) => ({ name: t.name, description: firstSentence(t.description) }));
}

const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
const manifest = {
  manifest_version: '0.3',
  name: 'mcp-shelf',
  display_name: 'MCP Shelf',
  version: pkg.version,
  description: 'The folders you publish in MCP Shelf: read by the AI, changed only with your approval.',
  long_description:
    'Connects to MCP Shelf running on this computer (the desktop app, or `mcp-shelf serve FOLDER…`) and gives the client the files of the folders you published there as MCP resources and tools to list, read, search and grep them (and, in folders where you turn it on, to propose changes that you approve one by one in the MCP Shelf window), and shows the shelf inside the chat (browse_shelf, an MCP App) to browse, search, preview and add files to the conversation. The bundle only bridges to the shelf: start MCP Shelf first.',
  author: { name: 'MCP Shelf' },
  license: pkg.license,
  keywords: ['files', 'folders', 'resources', 'search'],
  icon: 'icon.png',
  server: {
    type: 'node',
    entry_point: 'server/mcp-shelf-bridge.cjs',
    mcp_config: { command: 'node', args: ['${__dirname}/server/mcp-shelf-bridge.cjs', 'connect'] },
  },
  tools: await modelTools(),
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
