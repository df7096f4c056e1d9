import { DEFAULT_MAX_READ_BYTES } from '../../shared/limits.js';
import { reportUncaught } from '../core/base/processErrors.js';
import { defaultSettingsDir } from '../core/settings/settingsStore.js';
import { isLoopbackAddress, parseHostPort } from '../core/transport/requestGuards.js';
import { defaultSocketPath } from '../core/transport/socketPath.js';
import { SocketInUseError } from '../core/transport/socketServer.js';
import { VERSION } from '../core/version.js';
import { fail, parse } from './cliArgs.js';
import { CLI_PATH, type HeadlessOptions, type HeadlessShelf, startHeadless, UsageError } from './headless.js';
import { openBrowser } from './openBrowser.js';

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
  --client-memory MIB    memory kept for clients at once, in MiB: their replies
                         being built, output they have not taken, input
                         waiting (default: 256; past it, reads are refused
                         with error 1007, "busy", until memory frees)
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
  --allow-changes        let a model propose changes to these folders' files
                         (write_resource, edit_resource): each is written only
                         once you approve it in the window (needs --ui and an
                         open tab; without one they are refused)
  --show-hidden          publish dotfiles (secrets such as .env, keys and .git
                         stay hidden)
  --config-dir DIR       settings folder (default: ${defaultSettingsDir()})
  -h, --help             show this help
`;

const SERVE_OPTIONS = {
  socket: { type: 'string' },
  'max-read-bytes': { type: 'string' },
  'client-memory': { type: 'string' },
  'no-gitignore': { type: 'boolean' },
  'show-hidden': { type: 'boolean' },
  'ask-before-read': { type: 'boolean' },
  'allow-changes': { type: 'boolean' },
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
} as const;

const parseServe = (args: string[]) => parse(args, SERVE_OPTIONS, SERVE_USAGE);
type ServeValues = ReturnType<typeof parseServe>['values'];
type Log = (message: string) => void;

/** A flag's whole number within [min, max], or undefined when not given; anything else ends the command with the one error. */
function wholeNumber(values: ServeValues, flag: 'max-read-bytes' | 'ui-port' | 'client-memory', min: number, max: number): number | undefined {
  const raw = values[flag] as string | undefined;
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    fail(`--${flag} must be a whole number from ${min} to ${max}, not "${raw}"`, SERVE_USAGE);
  }
  return n;
}

/** --http and its companions, checked together (a remote bind must be asked for; no token only on loopback). */
function httpFlags(values: ServeValues): HeadlessOptions['http'] {
  if (values.http === undefined) {
    if (values['http-token'] !== undefined || values['http-no-auth'] || values['http-allow-remote']) {
      fail('--http-token, --http-no-auth and --http-allow-remote need --http', SERVE_USAGE);
    }
    return undefined;
  }
  const where = parseHostPort(values.http as string);
  if (!where) fail(`--http takes [HOST:]PORT, not "${values.http as string}"`, SERVE_USAGE);
  if (values['http-no-auth'] && values['http-token'] !== undefined) fail('--http-no-auth and --http-token cannot go together', SERVE_USAGE);
  if (values['http-no-auth'] && !isLoopbackAddress(where.host)) fail('--http-no-auth is only allowed on a loopback address', SERVE_USAGE);
  if (!isLoopbackAddress(where.host) && !values['http-allow-remote']) {
    fail(`--http ${where.host} is not a loopback address; add --http-allow-remote to expose MCP to other machines`, SERVE_USAGE);
  }
  const token = (values['http-token'] as string | undefined) ?? (values['http-no-auth'] ? undefined : process.env.MCP_SHELF_HTTP_TOKEN || undefined);
  if (token !== undefined && token.length < 16) fail('--http-token (or MCP_SHELF_HTTP_TOKEN) must be at least 16 characters', SERVE_USAGE);
  return { ...where, token, noAuth: Boolean(values['http-no-auth']), allowRemote: Boolean(values['http-allow-remote']) };
}

/** The command line as the headless shelf's options. */
function serveOptions(values: ServeValues, folders: string[], log: Log): HeadlessOptions {
  const maxReadBytes = wholeNumber(values, 'max-read-bytes', 1, Number.MAX_SAFE_INTEGER);
  const uiPort = wholeNumber(values, 'ui-port', 0, 65535);
  const clientMemory = wholeNumber(values, 'client-memory', 16, 64 * 1024);
  if (uiPort !== undefined && !values.ui) fail('--ui-port needs --ui', SERVE_USAGE);
  if (values['no-open'] && !values.ui) fail('--no-open needs --ui', SERVE_USAGE);
  const http = httpFlags(values);
  return {
    folders,
    socketPath: values.socket as string | undefined,
    maxReadBytes,
    ...(clientMemory !== undefined ? { clientMemoryBytes: clientMemory * 1024 * 1024 } : {}),
    rules: {
      gitignore: !values['no-gitignore'],
      showHidden: Boolean(values['show-hidden']),
      askBeforeRead: Boolean(values['ask-before-read']),
      ...(values['allow-changes'] ? { changes: 'ask' as const } : {}),
    },
    settingsDir: values['config-dir'] as string | undefined,
    uiPort: values.ui ? (uiPort ?? 'last') : undefined,
    http,
    tools: values['no-tools'] ? false : undefined,
    searchIndex: values['no-search-index'] ? false : undefined,
    log,
  };
}

/**
 * SIGINT and SIGTERM close the shelf and exit. Installed before anything
 * starts: one during indexing is held until the start-up message is out
 * (`announced`), then still shuts down cleanly; from `started` on, one acts at once.
 */
function shutdownOnSignals(log: Log): { started(shelf: HeadlessShelf): void; announced(): void } {
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
  return {
    started(s) {
      shelf = s;
    },
    announced() {
      if (pendingSignal) stop(pendingSignal);
    },
  };
}

/** Starts the shelf, or ends the command with why it could not. */
async function startOrExit(options: HeadlessOptions, log: Log): Promise<HeadlessShelf> {
  try {
    return await startHeadless(options);
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, SERVE_USAGE);
    log(err instanceof SocketInUseError ? `${err.message}; stop it or pick another --socket` : (err as Error).message);
    process.exit(1);
  }
}

const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

/** The start-up message: what is published, how clients connect, the window's address. "listening on" comes last. */
async function announce(shelf: HeadlessShelf, noOpen: boolean, log: Log): Promise<void> {
  const folders = await shelf.service.listFolders();
  if (folders.length === 0 && !shelf.web) {
    await shelf.close();
    fail('give at least one FOLDER to publish (no folders are saved in settings; add some with --ui)', SERVE_USAGE);
  }
  const files = folders.reduce((n, f) => n + f.fileCount, 0);
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
    const notTried = noOpen ? '--no-open' : openBrowser(shelf.web.url, (reason) => log(`could not open a browser (${reason}); open the address above`));
    log(notTried === null ? 'opening it in your browser' : `open the address above in your browser (not opened: ${notTried})`);
  }
  // Last, so whoever waits for this line finds everything above already printed.
  log(`listening on ${socketPath}`);
}

/** mcp-shelf serve: publish folders headless until a signal. */
export async function serveCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseServe(args);
  if (values.help) {
    process.stdout.write(SERVE_USAGE);
    return;
  }
  const log: Log = (message) => process.stderr.write(`mcp-shelf: ${message}\n`);
  reportUncaught(log);
  const options = serveOptions(values, positionals, log);
  const signals = shutdownOnSignals(log);
  const shelf = await startOrExit(options, log);
  signals.started(shelf);
  await announce(shelf, Boolean(values['no-open']), log);
  signals.announced();
}
