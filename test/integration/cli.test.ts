import { spawn } from 'node:child_process';
import { lstat, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { CLI, runCli, socketDir, startShelf } from '../support/shelfProcess.js';

let root: string;
let tmp: string;

beforeAll(async () => {
  root = await makeTree({ 'a.txt': 'a' });
  tmp = await socketDir();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

describe('mcp-shelf usage', () => {
  it.each([[['--help']], [['serve', '--help']], [['connect', '--help']], [['serve', '-h']]])('%j prints help and exits 0', async (args) => {
    const { code, stdout } = await runCli(args);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Usage/);
  });

  it.each([
    ['an unknown flag', ['serve', '--bogus', '.'], /Unknown option '--bogus'/],
    ['no folder', ['serve'], /at least one FOLDER/],
    ['a missing folder', ['serve', '/definitely/not/here'], /Folder not found: \/definitely\/not\/here/],
    ['a file as a folder', ['serve', 'FILE'], /Not a folder/],
    ['a bad --max-read-bytes', ['serve', '--max-read-bytes', '12kb', '.'], /--max-read-bytes must be a whole number from 1/],
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['--ui-port without --ui', ['serve', '--ui-port', '8080', '.'], /--ui-port needs --ui/],
    ['a bad --http', ['serve', '--http', 'localhost', '.'], /--http takes \[HOST:\]PORT/],
    ['--http on a public address without the flag', ['serve', '--http', '0.0.0.0:0', '.'], /not a loopback address; add --http-allow-remote/],
    ['--http-no-auth on a public address', ['serve', '--http', '0.0.0.0:0', '--http-no-auth', '--http-allow-remote', '.'], /only allowed on a loopback/],
    ['--http-no-auth without --http', ['serve', '--http-no-auth', '.'], /need --http/],
    ['a short --http-token', ['serve', '--http', '0', '--http-token', 'abc', '.'], /at least 16 characters/],
    ['an unknown connect flag', ['connect', '--nope'], /Unknown option '--nope'/],
  ])('%s: clear message on stderr, exit code 2', async (_name, args, message) => {
    const real = args.map((a) => (a === 'FILE' ? path.join(root, 'a.txt') : a));
    const { code, stderr, stdout } = await runCli([
      ...real.slice(0, 1),
      ...(real[0] === 'serve' ? ['--socket', path.join(tmp, 'never.sock'), '--config-dir', tmp] : []),
      ...real.slice(1),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });
});

describe('mcp-shelf serve', () => {
  it('listens on an owner-only socket and removes it on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const sock = path.join(tmp, `${signal}.sock`);
      const shelf = await startShelf([root], [], { socketPath: sock });
      const st = await lstat(sock);
      expect(st.isSocket()).toBe(true);
      expect(st.mode & 0o777).toBe(0o600);
      expect(shelf.stderr()).toContain(`listening on ${sock}`);
      expect(await shelf.stop(signal)).toBe(0);
      await expect(lstat(sock)).rejects.toMatchObject({ code: 'ENOENT' });
    }
  });

  it('shuts down soon with a client that reads nothing behind a big reply (not after its 30 s stall)', async () => {
    const big = await makeTree({ 'big.txt': 'x'.repeat(4 * 1024 * 1024) });
    const sock = path.join(tmp, 'stuck.sock');
    const shelf = await startShelf([big], [], { socketPath: sock });
    const client = await eventually(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(sock, () => resolve(s));
          s.once('error', reject);
        }),
      10_000,
      'a connection',
    );
    client.on('error', () => undefined);
    client.pause(); // reads nothing
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'stuck', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    for (let id = 1; id <= 4; id++)
      client.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { _meta: meta, uri: uriOf(big, 'big.txt') } })}\n`);
    // The replies have begun: the server's output is stuck behind a client that takes none of it.
    await eventually(() => client.readableLength > 0, 20_000, 'the replies begun');
    const started = Date.now();
    expect(await shelf.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect(lstat(sock)).rejects.toMatchObject({ code: 'ENOENT' });
    client.destroy();
  });

  it('uses a per-user default under XDG_RUNTIME_DIR in a 0700 folder', async () => {
    const runtime = await mkdtemp(path.join(os.tmpdir(), 'xdg-'));
    const proc = spawn(process.execPath, [CLI, 'serve', root], { env: { ...process.env, XDG_RUNTIME_DIR: runtime }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const sock = path.join(runtime, 'mcp-shelf', 'shelf.sock');
    await eventually(() => err.includes('listening on'), 10000, 'listening');
    expect(err).toContain(sock);
    expect((await stat(path.dirname(sock))).mode & 0o777).toBe(0o700);
    expect((await lstat(sock)).mode & 0o777).toBe(0o600);
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    await rm(runtime, { recursive: true, force: true });
  });

  it('replaces a stale socket file left by a killed server', async () => {
    const sock = path.join(tmp, 'stale.sock');
    const first = await startShelf([root], [], { socketPath: sock });
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    expect((await lstat(sock)).isSocket()).toBe(true); // left behind
    const second = await startShelf([root], [], { socketPath: sock });
    const c = await RawClient.initialized(sock);
    expect((await c.request('resources/read', { uri: uriOf(root, 'a.txt') })).result).toBeDefined();
    c.close();
    expect(await second.stop()).toBe(0);
  });

  it('refuses to clobber a live socket: the second instance exits 1, the first keeps serving', async () => {
    const sock = path.join(tmp, 'live.sock');
    const first = await startShelf([root], [], { socketPath: sock });
    const { code, stderr } = await runCli(['serve', '--socket', sock, root]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/Another MCP Shelf is already serving on/);
    const c = await RawClient.initialized(sock);
    expect((await c.request('ping')).result).toEqual({});
    c.close();
    expect(await first.stop()).toBe(0);
  });

  it('never deletes a file that is not a socket', async () => {
    const notSock = path.join(tmp, 'precious.txt');
    await writeFile(notSock, 'keep me');
    const { code, stderr } = await runCli(['serve', '--socket', notSock, root]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/not a socket/);
    expect(await readFile(notSock, 'utf8')).toBe('keep me');
  });
});

describe('mcp-shelf serve --ui', () => {
  it('comes back at the same address; a saved port another program took gives way to a free one, which is kept', async () => {
    const dir = await socketDir();
    const sock = path.join(dir, 's.sock');
    const addressOf = (text: string) => new URL(/window: (\S+)/.exec(text)?.[1] ?? 'http://none');
    try {
      let shelf = await startShelf([root], ['--ui'], { socketPath: sock });
      const first = addressOf(shelf.stderr());
      expect(shelf.stderr()).toMatch(/not opened: BROWSER=none/); // the suite never opens a browser
      await shelf.stop();
      shelf = await startShelf([root], ['--ui'], { socketPath: sock });
      expect(addressOf(shelf.stderr()).href).toBe(first.href);
      await shelf.stop();

      const squatter = net.createServer();
      await new Promise<void>((r) => squatter.listen(Number(first.port), '127.0.0.1', r));
      try {
        shelf = await startShelf([root], ['--ui'], { socketPath: sock });
        const moved = addressOf(shelf.stderr());
        expect(moved.port).not.toBe(first.port);
        expect(moved.hash).toBe(first.hash); // the token is the same
        expect(shelf.stderr()).toContain(`the window's usual port ${first.port} is taken by another program`);
        await shelf.stop();
      } finally {
        squatter.close();
      }
      shelf = await startShelf([root], ['--ui'], { socketPath: sock });
      expect(addressOf(shelf.stderr()).port).not.toBe(first.port); // the new one is the usual one now
      await shelf.stop();
      expect((await stat(path.join(dir, 'web-window.json'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--ui-port N must be free: taken, serve says so and exits 1', async () => {
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
    try {
      const port = (squatter.address() as net.AddressInfo).port;
      const { code, stderr } = await runCli(['serve', '--ui', '--ui-port', String(port), '--socket', path.join(tmp, 'taken.sock'), '--config-dir', tmp, root]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/EADDRINUSE/);
    } finally {
      squatter.close();
    }
  });
});

describe('mcp-shelf connect', () => {
  it('says nothing is listening and exits non-zero', async () => {
    const { code, stderr, stdout } = await runCli(['connect', '--socket', path.join(tmp, 'nobody-home.sock')]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/nothing is listening/);
    expect(stdout).toBe('');
  });

  it('passes bytes as they come, both ways, without waiting for whole messages', async () => {
    const sock = path.join(tmp, 'echo.sock');
    const received: Buffer[] = [];
    let peer: net.Socket | null = null;
    const server = net.createServer((s) => {
      peer = s;
      s.on('data', (d: Buffer) => received.push(d));
    });
    await new Promise<void>((r) => server.listen(sock, r));
    const bridge = spawn(process.execPath, [CLI, 'connect', '--socket', sock], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    bridge.stdout.on('data', (d: Buffer) => (out += d.toString()));
    bridge.stdin.write('{"jsonrpc":"2.0","id":1,'); // half a message, no newline
    await eventually(() => Buffer.concat(received).toString() === '{"jsonrpc":"2.0","id":1,', 5000, 'half a message at the server');
    (peer as net.Socket | null)?.write('{"partial":');
    await eventually(() => out === '{"partial":', 5000, 'half a message at the client');
    const exited = new Promise<number | null>((r) => bridge.once('exit', r));
    (peer as net.Socket | null)?.end();
    expect(await exited).toBe(0); // the server closed: the bridge ends
    server.close();
  });

  it('ends when its client closes stdin', async () => {
    const sock = path.join(tmp, 'stdin.sock');
    const shelf = await startShelf([root], [], { socketPath: sock });
    const init =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n';
    const { code, stdout } = await runCli(['connect', '--socket', sock], init);
    expect(code).toBe(0);
    expect(JSON.parse(stdout.trim())).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    expect(await shelf.stop()).toBe(0);
  });

  it('answers every request piped to it before stdin ended (echo … | mcp-shelf connect), slow ones too', async () => {
    const sock = path.join(tmp, 'piped.sock');
    const shelf = await startShelf([root], [], { socketPath: sock });
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      // grep runs in a worker: its reply is made well after stdin ended (it was lost when the server ended at the client's end).
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'grep_resources', arguments: { pattern: 'a' } } },
    ];
    const { code, stdout } = await runCli(['connect', '--socket', sock], lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(code).toBe(0);
    const ids = stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id?: number }).id);
    expect(ids).toEqual([1, 2, 3]);
    expect(await shelf.stop()).toBe(0);
  });
});

describe('serve answers while it indexes', () => {
  it('a client that connects the moment the socket opens reads a file of the last of many folders (not "not found")', async () => {
    // The folders used to be judged (stat, realpath) one by one after the socket listened: a read that came
    // meanwhile found no such folder and was told -32602 not found. 120 folders widen that moment.
    const roots: string[] = [];
    for (let i = 0; i < 120; i++) roots.push(await makeTree({ [`note${i}.txt`]: `folder ${i}` }));
    const last = roots[roots.length - 1] as string;
    const dir = await socketDir();
    const sock = path.join(dir, 's.sock');
    const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', dir, ...roots], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      const c = await eventually(() => RawClient.initialized(sock), 20_000, 'a connection');
      const read = await c.request('resources/read', { uri: uriOf(last, 'note119.txt') });
      expect(read.error).toBeUndefined();
      expect(read.result).toMatchObject({ contents: [{ text: 'folder 119' }] });
      c.socket.destroy();
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      for (const r of roots) await rm(r, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('the socket accepts before indexing ends; a list is answered at once and is complete once list_changed comes', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30_000; i++) files[`d${i % 300}/f${i}.txt`] = '';
    files['d299/deep/.gitignore'] = 'private.txt\n';
    files['d299/deep/private.txt'] = 'ignored';
    files['d299/deep/public.txt'] = 'public';
    files['d299/.env'] = 'SECRET=1';
    const root = await makeTree(files);
    const dir = await socketDir();
    const sock = path.join(dir, 's.sock');
    const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', dir, root], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      // The file appears at bind(), a moment before listen(): connect until it is accepted.
      const c = await eventually(() => RawClient.initialized(sock), 10_000, 'a connection');
      // Reads by URI work at once, before the scan gets there, under the same rules.
      const indexing = !err.includes('listening on');
      const read = await c.request('resources/read', { uri: uriOf(root, 'd299/deep/public.txt') });
      expect(read.error).toBeUndefined();
      expect(read.result).toMatchObject({ contents: [{ text: 'public' }] });
      for (const hidden of ['d299/deep/private.txt', 'd299/.env', 'd299/nope.txt']) {
        expect((await c.request('resources/read', { uri: uriOf(root, hidden) })).error?.code, hidden).toBe(-32602);
      }
      expect(indexing || err.includes('listening on')).toBe(true);
      const first = (await c.request('resources/list', {})).result as { resources: unknown[]; nextCursor?: string; _meta?: Record<string, unknown> };
      expect(Array.isArray(first.resources)).toBe(true); // answered at once, complete or not yet
      // A list given before indexing ended says so (later lists come complete, after list_changed).
      if (!err.includes('listening on')) expect(first._meta).toEqual({ 'dev.mcpshelf/indexing': true });
      await eventually(() => err.includes('listening on'), 30_000, 'indexing to finish');
      let total = 0;
      let cursor: string | undefined;
      do {
        const page = (await c.request('resources/list', cursor ? { cursor } : {})).result as { resources: unknown[]; nextCursor?: string };
        total += page.resources.length;
        cursor = page.nextCursor;
      } while (cursor);
      expect(total).toBe(30_001); // and d299/deep/public.txt (its .gitignore is a dotfile, private.txt ignored, .env a secret)
      c.close();
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      await rm(dir, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
