#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { installClientConfig } from '../core/clientSetup/clientConfigFile.js';
import { nodeBridgeCommand } from '../core/clientSetup/clientConfigs.js';
import { defaultSocketPath } from '../core/transport/socketPath.js';
import { VERSION } from '../core/version.js';
import { fail, parse } from './cliArgs.js';
import { connectCommand } from './connectCommand.js';
import { doctorCommand } from './doctorCommand.js';
import { CLI_PATH } from './headless.js';
import { serveCommand } from './serveCommand.js';

/**
 * mcp-shelf: serve folders headless, or bridge a stdio MCP client to a
 * running shelf. Only stderr is used for messages: stdout belongs to MCP.
 */

const USAGE = `mcp-shelf ${VERSION} — publish folders as MCP resources

Usage:
  mcp-shelf serve [options] FOLDER…   serve the folders on a local socket
  mcp-shelf connect [--socket PATH]   stdio ↔ socket bridge for MCP clients
  mcp-shelf config CLIENT [--print]   add MCP Shelf to a client's config
  mcp-shelf doctor [--json]           check every client found, end to end
  mcp-shelf --version

Run "mcp-shelf COMMAND --help" for a command's options.
`;

const SETUP_CLIENTS = ['claude-desktop', 'claude-code', 'vscode', 'vscode-workspace', 'cursor', 'cursor-project', 'windsurf', 'gemini-cli'] as const;

const CONFIG_USAGE = `Usage: mcp-shelf config CLIENT [--print] [--socket PATH] [--project DIR]

CLIENT is one of: ${SETUP_CLIENTS.join(', ')}.
claude-code, vscode-workspace and cursor-project edit a project's file
(.mcp.json, .vscode/mcp.json, .cursor/mcp.json) in --project DIR (default: the
current folder); Claude Desktop's is the Microsoft Store build's when that is
installed.

Adds (or updates) the "mcp-shelf" entry in the client's own MCP config file,
launching the bridge with this Node and this CLI. Every other key is kept, a
timestamped backup of the old file is written first, and a file that is not
valid JSON is never changed (you get the error and the snippet instead).

Options:
  --print         show the file as it would be written, change nothing
  --socket PATH   the socket the bridge connects to (default: ${defaultSocketPath()})
  --project DIR   the project folder for project configs
  -h, --help      show this help
`;

async function config(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { print: { type: 'boolean' }, socket: { type: 'string' }, project: { type: 'string' } }, CONFIG_USAGE);
  if (values.help) {
    process.stdout.write(CONFIG_USAGE);
    return;
  }
  const client = SETUP_CLIENTS.find((c) => c === positionals[0]);
  if (positionals.length !== 1 || client === undefined) {
    fail(positionals.length === 0 ? `name a client: ${SETUP_CLIENTS.join(', ')}` : `unknown client "${positionals.join(' ')}"`, CONFIG_USAGE);
  }
  const socketPath = (values.socket as string | undefined) ?? defaultSocketPath();
  const project = path.resolve((values.project as string | undefined) ?? process.cwd());
  const result = await installClientConfig(client, nodeBridgeCommand(process.execPath, CLI_PATH, socketPath), { dryRun: Boolean(values.print), project });
  if (!result.ok) {
    process.stderr.write(`mcp-shelf: ${result.error}
Add this to it by hand:
${result.snippet}
`);
    process.exit(1);
  }
  if (values.print) {
    process.stdout.write(result.content);
    process.stderr
      .write(`mcp-shelf: ${result.file} would be ${result.action === 'unchanged' ? 'left unchanged' : result.action === 'added' ? 'given the mcp-shelf entry' : 'updated'} (nothing written)
`);
    return;
  }
  const what = result.action === 'unchanged' ? 'already up to date' : result.action === 'added' ? 'added the mcp-shelf entry' : 'updated the mcp-shelf entry';
  process.stderr.write(`mcp-shelf: ${result.file}: ${what}${result.backup ? ` (backup: ${result.backup})` : ''}. Restart the client to use it.
`);
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serveCommand(rest);
    case 'connect':
      return connectCommand(rest);
    case 'config':
      return config(rest);
    case 'doctor':
      return doctorCommand(rest);
    case '--version':
    case '-v':
      process.stdout.write(`${VERSION}\n`);
      return;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE);
      return;
    default:
      fail(`unknown command "${command}"`, USAGE);
  }
}

// Run when executed directly (bin, node dist/electron/cli.js), not when imported.
function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).catch((err: Error) => {
    process.stderr.write(`mcp-shelf: ${err.message}\n`);
    process.exit(1);
  });
}
