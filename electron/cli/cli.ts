#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { DEFAULT_MAX_READ_BYTES } from '../../shared/errorCodes.js';
import { installClientConfig } from '../core/clientSetup/clientConfigFile.js';
import { nodeBridgeCommand } from '../core/service/clientConfigs.js';
import { defaultSettingsDir } from '../core/settings/settingsStore.js';
import { isLoopbackAddress, parseHostPort } from '../core/transport/requestGuards.js';
import { defaultSocketPath } from '../core/transport/socketPath.js';
import { SocketInUseError } from '../core/transport/socketServer.js';
import { VERSION } from '../core/version.js';
import { connectCommand } from './connectCommand.js';
import { doctorCommand } from './doctorCommand.js';
import { CLI_PATH, type HeadlessOptions, type HeadlessShelf, startHeadless, UsageError } from './headless.js';
import { openBrowser } from './openBrowser.js';

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

const SERVE_USAGE = `Usage: mcp-shelf serve [options] [FOLDER…]

Publishes each FOLDER as MCP resources and serves MCP on a local socket until
interrupted (Ctrl+C / SIGTERM). Without FOLDERs, serves the folders saved in
settings (the ones added in the window).

Options:
  --ui                   also serve the window to a browser on 127.0.0.1 and
                         open it (prints the address, with its access token;
                         the same address every run with this settings folder)
  --no-open              with --ui: print the address, do not open a browser
                         (also BROWSER=none; BROWSER=PROGRAM picks the browser)
  --ui-port N            port for --ui (0: any free port; default: the one
                         used last time, else any free port)
  --socket PATH          socket path (default: ${defaultSocketPath()})
  --max-read-bytes N     largest file a client may read, in bytes
                         (default: ${DEFAULT_MAX_READ_BYTES}, which keeps base64 replies under
                         the 10 MiB message limit of the official SDK clients)
  --http [HOST:]PORT     also serve MCP Streamable HTTP at http://HOST:PORT/mcp
                         (HOST defaults to 127.0.0.1; PORT 0 picks a free one)
  --http-token TOKEN     bearer token HTTP clients must send, for this run only
                         (other users can see it in ps: prefer the environment
                         variable MCP_SHELF_HTTP_TOKEN; default: one is
                         generated once and saved in settings)
  --http-no-auth         no token (loopback only; Host/Origin checks stay on)
  --http-allow-remote    allow --http on a non-loopback address
  --no-tools             do not offer the read-only tools that mirror the
                         resources (for clients that only use tools)
  --no-search-index      keep no full-text index (search_resources is then off)
  --no-gitignore         publish files that .gitignore files exclude
  --ask-before-read      each client read waits until you allow it in the
                         window (needs --ui and an open tab; without one such
                         reads are refused, with an error that says why)
  --show-hidden          publish dotfiles (secrets such as .env, keys and .git
                         stay hidden)
  --config-dir DIR       settings folder (default: ${defaultSettingsDir()})
  -h, --help             show this help
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

/** The one error, and where the options are: the whole usage pushed the error off the screen. */
function fail(message: string, usage: string): never {
  const command = /^Usage: (mcp-shelf \w+)/.exec(usage)?.[1] ?? 'mcp-shelf';
  process.stderr.write(`mcp-shelf: ${message}\n(${command} --help shows the options)\n`);
  process.exit(2);
}

function parse<T extends ParseArgsConfig['options']>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    fail((err as Error).message, usage);
  }
}

async function serve(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    args,
    {
      socket: { type: 'string' },
      'max-read-bytes': { type: 'string' },
      'no-gitignore': { type: 'boolean' },
      'show-hidden': { type: 'boolean' },
      'ask-before-read': { type: 'boolean' },
      'no-search-index': { type: 'boolean' },
      ui: { type: 'boolean' },
      'no-open': { type: 'boolean' },
      'ui-port': { type: 'string' },
      http: { type: 'string' },
      'http-token': { type: 'string' },
      'http-no-auth': { type: 'boolean' },
      'http-allow-remote': { type: 'boolean' },
      'no-tools': { type: 'boolean' },
      'config-dir': { type: 'string' },
    },
    SERVE_USAGE,
  );
  if (values.help) {
    process.stdout.write(SERVE_USAGE);
    return;
  }
  const wholeNumber = (flag: 'max-read-bytes' | 'ui-port', min: number, max: number): number | undefined => {
    const raw = values[flag] as string | undefined;
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
      fail(`--${flag} must be a whole number from ${min} to ${max}, not "${raw}"`, SERVE_USAGE);
    }
    return n;
  };
  const maxReadBytes = wholeNumber('max-read-bytes', 1, Number.MAX_SAFE_INTEGER);
  const uiPort = wholeNumber('ui-port', 0, 65535);
  if (uiPort !== undefined && !values.ui) fail('--ui-port needs --ui', SERVE_USAGE);
  if (values['no-open'] && !values.ui) fail('--no-open needs --ui', SERVE_USAGE);
  let http: HeadlessOptions['http'];
  if (values.http !== undefined) {
    const where = parseHostPort(values.http as string);
    if (!where) fail(`--http takes [HOST:]PORT, not "${values.http as string}"`, SERVE_USAGE);
    if (values['http-no-auth'] && values['http-token'] !== undefined) fail('--http-no-auth and --http-token cannot go together', SERVE_USAGE);
    if (values['http-no-auth'] && !isLoopbackAddress(where.host)) fail('--http-no-auth is only allowed on a loopback address', SERVE_USAGE);
    if (!isLoopbackAddress(where.host) && !values['http-allow-remote']) {
      fail(`--http ${where.host} is not a loopback address; add --http-allow-remote to expose MCP to other machines`, SERVE_USAGE);
    }
    const token = (values['http-token'] as string | undefined) ?? (values['http-no-auth'] ? undefined : process.env.MCP_SHELF_HTTP_TOKEN || undefined);
    if (token !== undefined && token.length < 16) fail('--http-token (or MCP_SHELF_HTTP_TOKEN) must be at least 16 characters', SERVE_USAGE);
    http = { ...where, token, noAuth: Boolean(values['http-no-auth']), allowRemote: Boolean(values['http-allow-remote']) };
  } else if (values['http-token'] !== undefined || values['http-no-auth'] || values['http-allow-remote']) {
    fail('--http-token, --http-no-auth and --http-allow-remote need --http', SERVE_USAGE);
  }
  const log = (message: string) => process.stderr.write(`mcp-shelf: ${message}\n`);
  // Signal handlers go in before anything starts: a Ctrl+C during indexing,
  // or one racing the start-up message, still shuts down cleanly.
  let shelf: HeadlessShelf | undefined;
  let stopping = false;
  let pendingSignal: string | null = null;
  const stop = (signal: string) => {
    if (!shelf) {
      pendingSignal = signal;
      return;
    }
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    shelf
      .close()
      .then(() => process.exit(0))
      .catch((err: Error) => {
        log(`shutdown failed: ${err.message}`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  try {
    shelf = await startHeadless({
      folders: positionals,
      socketPath: values.socket as string | undefined,
      maxReadBytes,
      rules: { gitignore: !values['no-gitignore'], showHidden: Boolean(values['show-hidden']), askBeforeRead: Boolean(values['ask-before-read']) },
      settingsDir: values['config-dir'] as string | undefined,
      uiPort: values.ui ? (uiPort ?? 'last') : undefined,
      http,
      tools: values['no-tools'] ? false : undefined,
      searchIndex: values['no-search-index'] ? false : undefined,
      log,
    });
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, SERVE_USAGE);
    log(err instanceof SocketInUseError ? `${err.message}; stop it or pick another --socket` : (err as Error).message);
    process.exit(1);
  }
  const folders = await shelf.service.listFolders();
  if (folders.length === 0 && !shelf.web) {
    await shelf.close();
    fail('give at least one FOLDER to publish (no folders are saved in settings; add some with --ui)', SERVE_USAGE);
  }
  const files = folders.reduce((n, f) => n + f.fileCount, 0);
  const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
  log(
    `MCP Shelf ${VERSION}: ${count(folders.length, 'folder')}, ${count(files, 'file')} published${folders.length === 0 ? ' (add folders in the window)' : ''}`,
  );
  for (const f of folders) log(`  ${f.path} (${f.error ?? `${count(f.fileCount, 'file')}, indexed in ${f.indexMs ?? '?'} ms`})`);
  const socketPath = shelf.service.socketPath;
  log(`connect a stdio client with: ${process.execPath} ${CLI_PATH} connect --socket ${socketPath}`);
  const httpEndpoint = shelf.service.httpEndpoint;
  if (httpEndpoint) {
    log(`MCP over HTTP: ${httpEndpoint.url}`);
    log(httpEndpoint.token ? `HTTP bearer token: ${httpEndpoint.token}` : 'HTTP without a token (--http-no-auth): loopback only');
  }
  if (shelf.web) {
    log(`window: ${shelf.web.url}`);
    const notTried = values['no-open']
      ? '--no-open'
      : openBrowser(shelf.web.url, (reason) => log(`could not open a browser (${reason}); open the address above`));
    log(notTried === null ? 'opening it in your browser' : `open the address above in your browser (not opened: ${notTried})`);
  }
  // Last, so whoever waits for this line finds everything above already printed.
  log(`listening on ${socketPath}`);
  if (pendingSignal) stop(pendingSignal);
}

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
      return serve(rest);
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
