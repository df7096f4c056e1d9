import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { CLI } from './cliPath.js';

export { CLI };

// Tests run what users run: the built CLI.
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does)`);

export interface ShelfProcess {
  socketPath: string;
  /** The Streamable HTTP endpoint and token serve printed, when started with --http. */
  http: { url: string; token: string | null } | null;
  proc: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A short temp folder for sockets (Unix socket paths are length-limited). */
export async function socketDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'shs-'));
}

export function runCli(args: string[], input?: string, env?: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
    proc.stdin.end(input ?? '');
  });
}

/**
 * Root reads everything, so permission tests run the server as `nobody`
 * when the suite runs as root (as CI does); otherwise as the current user.
 */
export const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;

export interface StartOptions {
  socketPath?: string;
  /** Run as an unprivileged user (see UNPRIVILEGED); folders must be world-readable. */
  unprivileged?: boolean;
  /** Added to the environment serve runs with. */
  env?: NodeJS.ProcessEnv;
}

/** Starts `mcp-shelf serve` and resolves once it says it is listening. */
export async function startShelf(folders: string[], extraArgs: string[] = [], opts: StartOptions = {}): Promise<ShelfProcess> {
  const socketPath = opts.socketPath;
  const sock = socketPath ?? path.join(await socketDir(), 's.sock');
  const user = opts.unprivileged ? UNPRIVILEGED : null;
  if (user) await chown(path.dirname(sock), user.uid, user.gid);
  const configDir = path.dirname(sock); // isolated settings: never the developer's own
  const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', configDir, ...extraArgs, ...folders], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
    ...(user ?? {}),
  });
  let err = '';
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${err}`)), 60_000); // a deadline for failure only
    proc.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${err}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const httpUrl = /MCP over HTTP: (\S+)/.exec(err)?.[1];
  const httpToken = /HTTP bearer token: (\S+)/.exec(err)?.[1] ?? null;
  return {
    socketPath: sock,
    http: httpUrl ? { url: httpUrl, token: httpToken } : null,
    proc,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      const code = await exited;
      if (out !== '') throw new Error(`serve wrote to stdout (reserved for MCP): ${out}`);
      if (!socketPath) await rm(path.dirname(sock), { recursive: true, force: true });
      return code;
    },
  };
}

/** A real SDK client, launched the way stdio clients launch us: through `mcp-shelf connect`. */
export async function connectSdkClient(socketPath: string, name = 'test-client'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'connect', '--socket', socketPath],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** A process's resident memory now, from /proc (Linux). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** A process's peak resident memory so far (the kernel's high-water mark, VmHWM), from /proc (Linux). */
export async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
