// The servers a benchmark compares, each started fresh and driven the same
// way: one newline-JSON connection (a Unix socket or a child's stdio) with id
// matching. Replies over 1 MiB are not parsed (the client would measure its
// own JSON.parse): their id is read from the line's ends.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ROOT } from './fixtures.mjs';

// BENCH_CLI runs another build (the bench's A/B against a parent commit's dist).
export const CLI = process.env.BENCH_CLI ?? path.join(ROOT, 'dist/electron/cli.js');
const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const BIG_LINE = 1024 * 1024;
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };

/** Peak (VmHWM) or current (VmRSS) resident memory of a process, in MiB. */
export async function memoryMiB(pid, field = 'VmHWM') {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** A newline-JSON connection: `call` resolves with the reply ({ big: bytes } for a large one). */
export function lineConnection(readable, writable, onNotification = () => undefined) {
  const pending = new Map();
  let parts = [];
  let partBytes = 0;
  const deliver = (line) => {
    if (line.length > BIG_LINE) {
      const ends = `${line.subarray(0, 200).toString('latin1')}${line.subarray(line.length - 200).toString('latin1')}`;
      const id = Number(/"id":(\d+)/.exec(ends)?.[1]);
      const error = /^\{[^{]*"error":/.test(ends);
      pending.get(id)?.(error ? { error: { message: 'large error reply' } } : { big: line.length });
      pending.delete(id);
      return;
    }
    const m = JSON.parse(line.toString('utf8'));
    if (m.id === undefined) return onNotification(m);
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  };
  readable.on('data', (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      deliver(parts.length === 0 ? piece : Buffer.concat([...parts, piece], partBytes + piece.length));
      parts = [];
      partBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      partBytes += chunk.length - start;
    }
  });
  let id = 0;
  return {
    call: (method, params) =>
      new Promise((resolve) => {
        const key = ++id;
        pending.set(key, resolve);
        writable.write(`${JSON.stringify({ jsonrpc: '2.0', id: key, method, params })}\n`);
      }),
    notify: (method, params) => writable.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`),
  };
}

/** The per-request envelope of protocol revision 2026-07-28. */
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

async function connectSocket(socketPath, onNotification, modern) {
  const s = net.connect(socketPath);
  await new Promise((resolve, reject) => (s.once('connect', resolve), s.once('error', reject)));
  const conn = lineConnection(s, s, onNotification);
  if (modern) {
    await conn.call('server/discover', { _meta: ENVELOPE });
    const call = conn.call;
    return { ...conn, call: (method, params) => call(method, { ...params, _meta: ENVELOPE }), socket: s };
  }
  await conn.call('initialize', INIT);
  conn.notify('notifications/initialized');
  return { ...conn, socket: s };
}

/** `mcp-shelf serve` on `folder`; `connections` raw socket clients (2025-11-25, or 2026-07-28 with `modern`). */
export async function startShelf(folder, { args = [], node = [], connections = 1, onNotification, env, modern = false, cli = CLI } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-'));
  const socketPath = path.join(dir, 's.sock');
  const proc = spawn(process.execPath, [...node, cli, 'serve', '--socket', socketPath, '--config-dir', dir, ...args, folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  await new Promise((resolve, reject) => {
    proc.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.includes('listening on')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`mcp-shelf serve exited (${code}): ${stderr}`)));
  });
  const conns = [];
  for (let i = 0; i < connections; i++) conns.push(await connectSocket(socketPath, onNotification, modern));
  const [first] = conns;
  return {
    pid: proc.pid,
    socketPath,
    stderr: () => stderr,
    conns,
    call: first.call,
    read: (file) => first.call('resources/read', { uri: pathToFileURL(file).href }),
    stop: async () => {
      for (const c of conns) c.socket.destroy();
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `mcp-shelf serve --ui` with its window open: a separate process (as a
 * browser tab is) on the web host's WebSocket with the printed token, taking
 * every event frame and parsing it as the window does (the Traffic tab's
 * live batches included). `frames()` says how many it got.
 */
export async function startShelfWithWindow(folder, options = {}) {
  const shelf = await startShelf(folder, { ...options, args: [...(options.args ?? []), '--ui'] });
  const url = new URL(/window: (\S+)/.exec(shelf.stderr())[1]);
  const token = /token=([A-Za-z0-9_-]+)/.exec(url.hash)[1];
  const code = `
    const WebSocket = require(${JSON.stringify(path.join(ROOT, 'node_modules/ws'))});
    const ws = new WebSocket(${JSON.stringify(`ws://${url.host}/api`)}, ['mcp-shelf.v1', 'token.${token}']);
    let frames = 0, entries = 0, bytes = 0;
    ws.on('open', () => console.log('open'));
    ws.on('message', (d) => { bytes += d.length; const f = JSON.parse(d.toString()); frames++; if (f.event === 'traffic') entries += f.payload.length; });
    process.stdin.on('data', () => console.log(JSON.stringify({ frames, entries, bytes })));`;
  const window = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise((resolve) => window.stdout.once('data', resolve));
  return {
    ...shelf,
    seen: async () => {
      window.stdin.write('\n');
      return JSON.parse(String(await new Promise((resolve) => window.stdout.once('data', resolve))));
    },
    stop: async () => (window.kill(), await shelf.stop()),
  };
}

/** The way stdio clients use us: an SDK Client launching `mcp-shelf connect` (v1: 2025-11-25; v2: pinned to 2026-07-28). */
export async function startShelfViaBridge(folder, { v2 = false } = {}) {
  const shelf = await startShelf(folder);
  const { Client } = await import(v2 ? '@modelcontextprotocol/client' : '@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import(v2 ? '@modelcontextprotocol/client/stdio' : '@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'bench', version: '1' }, v2 ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath] }));
  return {
    pid: shelf.pid,
    read: (file) => client.readResource({ uri: pathToFileURL(file).href }),
    stop: async () => (await client.close(), await shelf.stop()),
  };
}

async function startStdioServer(args) {
  const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const conn = lineConnection(proc.stdout, proc.stdin);
  await conn.call('initialize', INIT);
  conn.notify('notifications/initialized');
  return { proc, conn, stop: async () => (proc.kill('SIGTERM'), await new Promise((r) => proc.once('exit', r))) };
}

/** @modelcontextprotocol/server-filesystem: read_text_file, or read_media_file for binary. */
export async function startFsServer(folder) {
  const s = await startStdioServer([FS_SERVER, folder]);
  return {
    pid: s.proc.pid,
    read: (file, binary = false) => s.conn.call('tools/call', { name: binary ? 'read_media_file' : 'read_text_file', arguments: { path: file } }),
    search: (folder, pattern) => s.conn.call('tools/call', { name: 'search_files', arguments: { path: folder, pattern } }),
    stop: s.stop,
  };
}

/** @modelcontextprotocol/server-everything: resources/read of its own static documents, in turn. */
export async function startEverything() {
  const s = await startStdioServer([EVERYTHING, 'stdio']);
  const { result } = await s.conn.call('resources/list', {});
  const uris = result.resources.map((r) => r.uri);
  let i = 0;
  return { pid: s.proc.pid, read: () => s.conn.call('resources/read', { uri: uris[i++ % uris.length] }), stop: s.stop };
}

/**
 * Limit: a bare newline-JSON echo server on a Unix socket, answering every
 * request with an empty result — or, with `payload`, with a read-shaped
 * result carrying 2,560 characters of text (the small files' mean size), so
 * the cost of moving and parsing a reply of that size shows on its own; with
 * `safeOpen` too, it also opens each file named, asks where the descriptor
 * is (readlink) and fstat's it, as a safe read does: what no caching can take
 * off a read that must see the file as it is now.
 */
export async function startEcho({ payload = false, safeOpen = false } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'echo-'));
  const sock = path.join(dir, 'e.sock');
  const result = payload ? `{contents:[{uri:'file:///bench/echo.txt',mimeType:'text/plain',text:'x'.repeat(2560)}]}` : '{}';
  // With `safeOpen`, each request also opens the file it names and makes the calls a safe read makes (mcp-shelf's floor).
  const open = safeOpen
    ? `const fd=fs.openSync(url.fileURLToPath(m.params.uri),fs.constants.O_RDONLY|fs.constants.O_NONBLOCK);fs.readlinkSync('/proc/self/fd/'+fd);fs.fstatSync(fd);fs.closeSync(fd);`
    : '';
  const code = `const net=require('net');const fs=require('fs');const url=require('url');const r=${result};net.createServer(s=>{let b='';s.on('data',d=>{b+=d;let n;while((n=b.indexOf('\\n'))>=0){const m=JSON.parse(b.slice(0,n));b=b.slice(n+1);${open}s.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result:r})+'\\n')}})}).listen(${JSON.stringify(sock)},()=>console.log('up'))`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((r) => proc.stdout.once('data', r));
  const s = net.connect(sock);
  await new Promise((r) => s.once('connect', r));
  const conn = lineConnection(s, s);
  return {
    pid: proc.pid,
    read: (file) => conn.call('resources/read', { uri: pathToFileURL(file).href }),
    stop: async () => (s.destroy(), proc.kill(), await rm(dir, { recursive: true, force: true })),
  };
}

/** Limit: in-process readFile + JSON.stringify of the same reply. */
export function inProcess() {
  return {
    read: async (file) => {
      const text = await readFile(file, 'utf8');
      return JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: pathToFileURL(file).href, mimeType: 'text/plain', text }] } });
    },
    stop: async () => undefined,
  };
}

/**
 * Limit for large files: a fresh Node process that reads the file whole and
 * stringifies the reply (base64 for binary), reporting time and peak memory.
 */
export async function inProcessLarge(file, binary) {
  const code = `
    const { readFile } = require('node:fs/promises');
    const t = performance.now();
    readFile(${JSON.stringify(file)}).then((bytes) => {
      const content = ${binary} ? { blob: bytes.toString('base64') } : { text: bytes.toString('utf8') };
      const line = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'file:///x', mimeType: 'x', ...content }] } });
      const ms = performance.now() - t;
      const hwm = /VmHWM:\\s+(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1] / 1024;
      console.log(JSON.stringify({ ms, bytes: Buffer.byteLength(line), hwm }));
    });`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  await new Promise((r) => proc.once('exit', r));
  return JSON.parse(out);
}

/** One tool call on a started shelf: its time, result, and the characters it gave (text and structure); a failure throws. */
export async function timedTool(shelf, name, args) {
  const t = performance.now();
  const res = await shelf.call('tools/call', { name, arguments: args });
  if (res.error || res.result?.isError) throw new Error(`${name} failed: ${JSON.stringify(res.error ?? res.result).slice(0, 300)}`);
  const r = res.result;
  const chars = r.content.filter((c) => c.type === 'text').reduce((n, c) => n + c.text.length, 0) + JSON.stringify(r.structuredContent ?? {}).length;
  return { ms: performance.now() - t, result: r, chars };
}
