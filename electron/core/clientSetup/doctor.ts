import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { parse, type ParseError, printParseErrorCode } from 'jsonc-parser';

import type { DoctorReport, DoctorStep, SetupClient } from '../../../shared/shelfApi.js';
import { readRegularText } from '../base/regularFile.js';
import { defaultSocketPath } from '../transport/socketPath.js';
import { ENTRY } from './clientConfigFile.js';
import { CLIENT_TARGETS, clientPresent, type ClientTarget, type Place, resolveConfigFile } from './clientTargets.js';
import { StdioPeer } from './stdioPeer.js';

export interface DoctorOptions extends Place {
  /** Where this shelf listens, when the Doctor runs inside one (the window); an entry naming another socket is then wrong. */
  shelfSocket?: string | null;
  /** Speak this revision in every round trip instead of each client's own. */
  revision?: '2025-11-25' | '2026-07-28';
  /** Each step's deadline (default 10 s): a step that hangs fails, the rest go on. */
  stepTimeoutMs?: number;
  /**
   * This install's bridge commands. A project's config may come from anyone
   * (a cloned repository), so its entry is run only when it launches one of
   * these; a user's own configs are run as they are.
   */
  knownBridges?: Array<{ command: string; args: string[] }>;
}

/**
 * Whether an entry launches exactly this bridge: its command, then its
 * arguments with any socket path (or none) and nothing else. The command and
 * the CLI alone are not enough: `cli.js serve --http …` or `cli.js config …`
 * in a cloned repository's file would run our own CLI to publish or write.
 */
function launchesBridge(bridge: { command: string; args: string[] }, command: string, argv: readonly string[]): boolean {
  if (command !== bridge.command) return false;
  const socketAt = bridge.args.indexOf('--socket');
  const fixed = socketAt < 0 ? bridge.args : bridge.args.slice(0, socketAt);
  if (argv.length < fixed.length || fixed.some((a, i) => argv[i] !== a)) return false;
  const rest = argv.slice(fixed.length);
  return rest.length === 0 || (socketAt >= 0 && rest.length === 2 && rest[0] === '--socket' && !rest[1]?.startsWith('-'));
}

const DEFAULT_STEP_MS = 10_000;
/** A config file is small; anything bigger is not one. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
const NOT_RUNNING_URI = 'mcp-shelf://not-running';
/** The files the round trip reads are picked at most this big. */
const SMALL_FILE_BYTES = 1024 * 1024;

type Entry = { command?: unknown; args?: unknown; env?: unknown; type?: unknown; disabled?: unknown };

const rewrite = (text: string): DoctorStep['fix'] => ({ text, action: 'rewrite-entry' });

/** The socket a bridge command names (`--socket PATH`), or null when it relies on the default. */
function socketOf(args: string[]): string | null {
  const i = args.indexOf('--socket');
  return i >= 0 && i + 1 < args.length ? (args[i + 1] as string) : null;
}

/** Finds a bare command on PATH as a client's spawn would (PATHEXT on Windows). */
async function onPath(command: string, env: NodeJS.ProcessEnv, platform: string): Promise<string | null> {
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const candidate = path.join(dir, command + ext);
      if (
        (await stat(candidate).catch(() => null))?.isFile() &&
        (await access(candidate, constants.X_OK).then(
          () => true,
          () => false,
        ))
      )
        return candidate;
    }
  }
  return null;
}

/** Whether something accepts connections at a socket, within a deadline. */
function socketAnswers(socketPath: string, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (problem: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => done('no answer'), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code === 'ENOENT' ? 'no such socket' : err.code === 'ECONNREFUSED' ? 'nothing listens there' : err.message),
    );
  });
}

function envelope(revision: string): Record<string, unknown> {
  return revision === '2026-07-28'
    ? {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': revision,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'mcp-shelf-doctor', version: '1' },
        },
      }
    : {};
}

interface Found {
  text: string | null;
  image: string | null;
  document: string | null;
}

/** A text file to read, an image and a document for the tools, from the first page of the list. */
function pick(resources: Array<{ uri?: unknown; mimeType?: unknown; size?: unknown }>): Found {
  const found: Found = { text: null, image: null, document: null };
  for (const r of resources) {
    // A small file proves the read as well as a big one, and its reply is parsed at once.
    if (typeof r.uri !== 'string' || (typeof r.size === 'number' && r.size > SMALL_FILE_BYTES)) continue;
    const mime = typeof r.mimeType === 'string' ? r.mimeType : '';
    if (r.uri.endsWith('?as=text')) found.document ??= r.uri.slice(0, -'?as=text'.length);
    else if (mime.startsWith('image/') && mime !== 'image/svg+xml') found.image ??= r.uri;
    else if (mime.startsWith('text/')) found.text ??= r.uri;
  }
  return found;
}

/**
 * The live round trip: the entry's own command, run as the client runs it,
 * spoken to in the client's revision: the handshake (or discovery), a list,
 * a read, and an image and a document through the read tool.
 */
async function roundTrip(
  entry: { command: string; args: string[]; env: Record<string, string> },
  revision: string,
  options: DoctorOptions,
  cwd: string,
): Promise<DoctorStep[]> {
  const steps: DoctorStep[] = [];
  const ms = options.stepTimeoutMs ?? DEFAULT_STEP_MS;
  const peer = new StdioPeer(entry.command, entry.args, { env: { ...(options.env ?? process.env), ...entry.env }, cwd });
  const meta = envelope(revision);
  try {
    const hello =
      revision === '2026-07-28'
        ? await peer.request('server/discover', meta, ms)
        : await peer.request('initialize', { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'mcp-shelf-doctor', version: '1' } }, ms);
    if (hello.error) throw new Error(`${hello.error.code}: ${hello.error.message}`);
    const info = (
      revision === '2026-07-28'
        ? (hello.result?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/serverInfo']
        : hello.result?.serverInfo
    ) as { name?: string; title?: string; version?: string } | undefined;
    if (revision !== '2026-07-28') peer.notify('notifications/initialized');
    // The bridge's stand-in answers when no shelf listens at its socket: it connects, to nothing.
    if (info?.title?.includes('not running')) throw new Error('the bridge started, but MCP Shelf is not running at the socket it names');
    steps.push({
      id: 'connect',
      label: `Connects (${revision === '2026-07-28' ? 'server/discover' : 'initialize'}, ${revision})`,
      status: 'pass',
      detail: `${info?.title ?? info?.name ?? 'a server'} ${info?.version ?? ''}`.trim(),
    });
  } catch (err) {
    const notRunning = (err as Error).message.includes('not running');
    steps.push({
      id: 'connect',
      label: `Connects (${revision})`,
      status: 'fail',
      detail: `${(err as Error).message}${peer.stderr ? ` — ${peer.stderr.split('\n').pop()}` : ''}`,
      fix: notRunning ? { text: 'Start MCP Shelf (the app, or mcp-shelf serve FOLDER…)' } : rewrite('Rewrite the entry with this machine’s bridge command'),
    });
    await peer.close();
    return steps;
  }
  const call = async (id: string, label: string, method: string, params: Record<string, unknown>, judge: (result: Record<string, unknown>) => DoctorStep) => {
    try {
      const reply = await peer.request(method, { ...params, ...meta }, ms);
      steps.push(reply.error ? { id, label, status: 'fail', detail: `${reply.error.code}: ${reply.error.message}` } : judge(reply.result ?? {}));
    } catch (err) {
      steps.push({ id, label, status: 'fail', detail: (err as Error).message });
    }
  };
  let found: Found = { text: null, image: null, document: null };
  await call('list', 'Lists the published files', 'resources/list', {}, (result) => {
    const resources = (Array.isArray(result.resources) ? result.resources : []) as Array<{ uri?: unknown; mimeType?: unknown }>;
    if (resources.some((r) => r.uri === NOT_RUNNING_URI)) {
      return {
        id: 'list',
        label: 'Lists the published files',
        status: 'fail',
        detail: 'The bridge runs, but MCP Shelf is not running at the socket it names',
        fix: { text: 'Start MCP Shelf (the app, or mcp-shelf serve FOLDER…)' },
      };
    }
    found = pick(resources);
    if (resources.length === 0)
      return {
        id: 'list',
        label: 'Lists the published files',
        status: 'fail',
        detail: 'The shelf answers, but publishes no files',
        fix: { text: 'Add a folder in MCP Shelf' },
      };
    return {
      id: 'list',
      label: 'Lists the published files',
      status: 'pass',
      detail: `${resources.length}${result.nextCursor ? '+' : ''} resources on the first page`,
    };
  });
  const listed = steps.at(-1)?.status === 'pass';
  const target = found.text ?? found.document ?? found.image;
  if (!listed || target === null) {
    steps.push({ id: 'read', label: 'Reads a file', status: 'skip', detail: listed ? 'No file to read on the first page' : 'Nothing listed' });
  } else {
    await call('read', 'Reads a file', 'resources/read', { uri: target }, (result) => {
      const c = (Array.isArray(result.contents) ? result.contents[0] : null) as { text?: string; blob?: string } | null;
      const size = c?.text !== undefined ? `${c.text.length} characters` : c?.blob !== undefined ? `${Math.floor((c.blob.length * 3) / 4)} bytes` : null;
      return size
        ? { id: 'read', label: 'Reads a file', status: 'pass', detail: `${decodeURIComponent(target.split('/').pop() ?? target)}: ${size}` }
        : { id: 'read', label: 'Reads a file', status: 'fail', detail: 'The reply holds no contents' };
    });
  }
  const toolRead = async (id: 'image' | 'document', label: string, uri: string | null, wanted: 'image' | 'text') => {
    if (!listed || uri === null)
      return void steps.push({ id, label, status: 'skip', detail: listed ? `No ${id} on the first page of the list` : 'Nothing listed' });
    await call(id, label, 'tools/call', { name: 'read_resource', arguments: { uri } }, (result) => {
      const content = (Array.isArray(result.content) ? result.content : []) as Array<{ type?: string; text?: string }>;
      const part = content.find((c) => c.type === wanted && (wanted === 'image' || (c.text ?? '').length > 0));
      if (result.isError === true || !part)
        return { id, label, status: 'fail', detail: content.find((c) => c.type === 'text')?.text?.slice(0, 300) ?? `No ${wanted} in the tool’s answer` };
      return {
        id,
        label,
        status: 'pass',
        detail: `${decodeURIComponent(uri.split('/').pop() ?? uri)}: ${wanted === 'image' ? 'an image the model sees' : `${part.text?.length ?? 0} characters of text`}`,
      };
    });
  };
  await toolRead('image', 'An image through read_resource', found.image, 'image');
  await toolRead('document', 'A document through read_resource', found.document, 'text');
  await peer.close();
  return steps;
}

/** Reads one config and checks its mcp-shelf entry; then runs it. */
async function examine(
  target: ClientTarget,
  file: string,
  options: DoctorOptions,
  lookup: (parsed: Record<string, unknown>) => Entry | undefined,
): Promise<DoctorReport> {
  const steps: DoctorStep[] = [];
  const revision = options.revision ?? target.revision;
  const report = (): DoctorReport => ({ target: target.id, client: target.client, file, revision, ok: !steps.some((s) => s.status === 'fail'), steps });
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  let text: string;
  try {
    text = await readRegularText(file, { maxBytes: MAX_CONFIG_BYTES });
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    steps.push({
      id: 'config',
      label: 'Config file',
      status: 'fail',
      detail: missing ? `${file} does not exist` : `Cannot read ${file}: ${(err as Error).message}`,
      fix: rewrite(`Create it with the mcp-shelf entry`),
    });
    return report();
  }
  const errors: ParseError[] = [];
  const parsed = parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0 || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const where = errors[0] ? `${printParseErrorCode(errors[0].error)} at line ${text.slice(0, errors[0].offset).split('\n').length}` : 'not a JSON object';
    steps.push({
      id: 'config',
      label: 'Config file',
      status: 'fail',
      detail: `${file} is not valid JSON (${where}); the client cannot read it either`,
      fix: { text: 'Correct the file by hand (MCP Shelf never rewrites a file it cannot parse)' },
    });
    return report();
  }
  steps.push({ id: 'config', label: 'Config file', status: 'pass', detail: file });
  const entry = lookup(parsed as Record<string, unknown>);
  if (!entry || typeof entry !== 'object') {
    steps.push({
      id: 'entry',
      label: `The "${ENTRY}" entry`,
      status: 'fail',
      detail: `No "${ENTRY}" entry under "${target.key}"`,
      fix: rewrite('Add the entry'),
    });
    return report();
  }
  const args = Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string') ? (entry.args as string[]) : null;
  // A project's file may come from anyone: its env is never used (NODE_OPTIONS=--require… would run its code inside our own bridge).
  const entryEnv = !target.project && entry.env && typeof entry.env === 'object' && !Array.isArray(entry.env) ? (entry.env as Record<string, string>) : {};
  const problem =
    typeof entry.command !== 'string' || entry.command === ''
      ? 'has no command'
      : entry.args !== undefined && args === null
        ? 'has args that are not a list of strings'
        : target.typed && entry.type !== undefined && entry.type !== 'stdio'
          ? `is of type "${String(entry.type)}", not stdio`
          : entry.disabled === true
            ? 'is disabled'
            : null;
  if (problem) {
    steps.push({ id: 'entry', label: `The "${ENTRY}" entry`, status: 'fail', detail: `The entry ${problem}`, fix: rewrite('Rewrite the entry') });
    return report();
  }
  const command = entry.command as string;
  const argv = args ?? [];
  steps.push({ id: 'entry', label: `The "${ENTRY}" entry`, status: 'pass', detail: [command, ...argv].join(' ') });
  // The command: an absolute path must be an executable file; a bare name must be on PATH; a script argument must exist.
  const resolved = path.isAbsolute(command)
    ? await access(command, constants.X_OK).then(
        () => command,
        () => null,
      )
    : await onPath(command, { ...env, ...entryEnv }, platform);
  const script = argv.find((a) => /\.(c|m)?js$/.test(a) && path.isAbsolute(a));
  const scriptMissing = script !== undefined && !(await stat(script).catch(() => null))?.isFile();
  if (resolved === null || scriptMissing) {
    steps.push({
      id: 'command',
      label: 'The command runs',
      status: 'fail',
      detail:
        resolved === null
          ? `${command} ${path.isAbsolute(command) ? 'is not an executable file' : 'is not on PATH'}`
          : `${script} does not exist (moved or not built?)`,
      fix: rewrite('Rewrite the entry with this machine’s bridge command'),
    });
    return report();
  }
  const known = (options.knownBridges ?? []).some((b) => launchesBridge(b, command, argv));
  if (target.project && !known) {
    steps.push({
      id: 'command',
      label: 'The command runs',
      status: 'fail',
      detail: `${[command, ...argv.slice(0, 1)].join(' ')} is not this MCP Shelf's bridge; a project's file may come from anyone, so it was not run`,
      fix: rewrite('Rewrite the entry with this machine’s bridge command'),
    });
    return report();
  }
  steps.push({ id: 'command', label: 'The command runs', status: 'pass', detail: resolved });
  // The socket: named, or the default of the environment the client starts it in.
  const named = socketOf(argv);
  const socket = named ?? defaultSocketPath();
  const unanswered = await socketAnswers(socket, Math.min(options.stepTimeoutMs ?? DEFAULT_STEP_MS, 3000));
  const elsewhere = options.shelfSocket && options.shelfSocket !== socket ? options.shelfSocket : null;
  const reliesOnDefault = named === null ? ' (no --socket: the default, which depends on the client’s XDG_RUNTIME_DIR)' : '';
  if (unanswered) {
    steps.push({
      id: 'socket',
      label: 'The socket it names',
      status: 'fail',
      detail: `${socket}${reliesOnDefault}: ${unanswered}`,
      fix: elsewhere ? rewrite(`Point the entry at ${elsewhere}, where this shelf listens`) : { text: 'Start MCP Shelf (the app, or mcp-shelf serve FOLDER…)' },
    });
  } else {
    steps.push({
      id: 'socket',
      label: 'The socket it names',
      status: 'pass',
      detail: `${socket}${reliesOnDefault}: a shelf listens${elsewhere ? ` (another one than this window’s, at ${elsewhere})` : ''}`,
    });
  }
  const cwd = options.project ?? path.dirname(file);
  steps.push(...(await roundTrip({ command, args: argv, env: entryEnv }, revision, options, cwd)));
  steps.push({ id: 'shows', label: 'What it shows', status: 'info', detail: target.shows });
  return report();
}

const serversOf = (target: ClientTarget) => (parsed: Record<string, unknown>) => {
  const servers = parsed[target.key];
  return servers && typeof servers === 'object' ? ((servers as Record<string, unknown>)[ENTRY] as Entry | undefined) : undefined;
};

/**
 * The Compatibility Doctor: for each client found on this machine (its
 * config folder exists; project configs when a project is given), its live
 * config checked and its entry run as the client would. It only reads
 * configs; the fixes it names are applied by `installClientConfig`, on the
 * person's click.
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport[]> {
  const reports: DoctorReport[] = [];
  for (const target of CLIENT_TARGETS) {
    if (target.project && !options.project) continue;
    const file = await resolveConfigFile(target.id, options);
    if (!(await clientPresent(target.id, file))) continue;
    reports.push(await examine(target, file, options, serversOf(target)));
  }
  // Claude Code's own file, written by `claude mcp add` (user scope at the top, local scope per project): read, never written.
  const home = (options.platform ?? process.platform) === 'win32' ? options.env?.USERPROFILE : options.env?.HOME;
  const claudeJson = path.join(home || os.homedir(), '.claude.json');
  if (await stat(claudeJson).catch(() => null)) {
    const target: ClientTarget = { ...(CLIENT_TARGETS.find((t) => t.id === 'claude-code') as ClientTarget), client: 'Claude Code (claude mcp add)' };
    const report = await examine(target, claudeJson, options, (parsed) => {
      const top = serversOf(target)(parsed);
      const projects = parsed.projects as Record<string, { mcpServers?: Record<string, unknown> }> | undefined;
      return top ?? (projects?.[options.project ?? process.cwd()]?.mcpServers?.[ENTRY] as Entry | undefined);
    });
    // Claude Code writes this file itself: the fix is its own command, never our edit.
    for (const step of report.steps)
      if (step.fix?.action) step.fix = { text: 'Run: claude mcp add mcp-shelf -- <the bridge command shown in Connect a client>' };
    reports.push(report);
  }
  return reports;
}

export type { SetupClient };
