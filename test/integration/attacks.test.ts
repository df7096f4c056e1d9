import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, symlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { connectSdkClient, rssMiB, runCli, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * Each finding of the security review, reproduced against the real CLI (or
 * the real service where only it can show the state), bounded in time.
 */

/**
 * A bystander's small reads, one every 20 ms while `during` runs: how many
 * were answered meanwhile, and the slowest. A server held by the attack
 * answers none while it lasts; the count says that on a busy machine too,
 * where a latency bound would only measure the machine (speed targets live in
 * npm run bench).
 */
async function bystanderReads(bystander: RawClient, uri: string, during: Promise<unknown>): Promise<{ served: number; worst: number }> {
  let worst = 0;
  let served = 0;
  let done = false;
  void during.finally(() => (done = true));
  while (!done) {
    const t = performance.now();
    const r = await bystander.request('resources/read', { uri });
    if (!r.result) throw new Error(`bystander read failed: ${JSON.stringify(r)}`);
    worst = Math.max(worst, performance.now() - t);
    if (!done) served++; // answered while the attack still ran
    await new Promise((res) => setTimeout(res, 20));
  }
  return { served, worst };
}

describe.runIf(process.platform === 'linux')('attacks from a socket client', () => {
  let root: string;
  let shelf: ShelfProcess;
  let bystander: RawClient;

  beforeAll(async () => {
    root = await makeTree({ 'big.bin': Buffer.alloc(20 * 1024 * 1024, 0x41), 'small.txt': 'small', 'seven.bin': Buffer.alloc(7 * 1024 * 1024, 0xfe) });
    shelf = await startShelf([root], ['--max-read-bytes', String(64 * 1024 * 1024)]);
    bystander = await RawClient.initialized(shelf.socketPath);
  });
  afterAll(async () => {
    bystander?.close();
    expect(await shelf.stop()).toBe(0);
    await rm(root, { recursive: true, force: true });
  });

  it('a streamed read left unread plus a flood of bad lines freezes no one, and memory stays bounded', async () => {
    const attacker = net.connect(shelf.socketPath);
    await new Promise((r) => attacker.once('connect', r));
    attacker.on('error', () => undefined);
    attacker.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: uriOf(root, 'big.bin') } })}\n`);
    await new Promise((r) => setTimeout(r, 200));
    attacker.pause(); // never reads the 27 MiB reply…
    const flood = (async () => {
      const line = Buffer.from('x\n'.repeat(4096));
      const until = Date.now() + 2000;
      while (Date.now() < until && !attacker.destroyed) {
        if (!attacker.write(line))
          await new Promise((r) => setTimeout(r, 1)); // …and floods lines that are not JSON
        else await new Promise((r) => setImmediate(r));
      }
    })();
    const duringFlood = await bystanderReads(bystander, uriOf(root, 'small.txt'), flood);
    // Then it reads everything: whatever was held behind the reply goes out without starving anyone.
    attacker.resume();
    attacker.on('data', () => undefined);
    const afterwards = await bystanderReads(bystander, uriOf(root, 'small.txt'), new Promise((r) => setTimeout(r, 2000)));
    attacker.destroy();
    // Served throughout each 2 s (a held server serves none), and never held for long (a hang bound, not a speed target).
    expect(duringFlood.served, `during the flood: ${JSON.stringify(duringFlood)}`).toBeGreaterThanOrEqual(3);
    expect(afterwards.served, `while it reads: ${JSON.stringify(afterwards)}`).toBeGreaterThanOrEqual(3);
    expect(Math.max(duringFlood.worst, afterwards.worst)).toBeLessThan(5000);
    expect(await rssMiB(shelf.proc.pid as number)).toBeLessThan(400);
  });

  it('a client that asks for sixteen 7 MiB tool reads at once and reads promptly gets all of them', async () => {
    const client = await connectSdkClient(shelf.socketPath, 'heavy');
    try {
      const calls = Array.from({ length: 16 }, () => client.callTool({ name: 'read_resource', arguments: { uri: uriOf(root, 'seven.bin') } }));
      const results = await Promise.all(calls);
      for (const r of results) expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(shelf.stderr()).not.toMatch(/not reading its responses/);
  }, 60_000);

  it('thousands of connections: past 1,024 a new one is told why and closed, and the bystander is still answered', async () => {
    const socks: net.Socket[] = [];
    try {
      for (let i = 0; i < 1030; i++) {
        const s = net.connect(shelf.socketPath);
        s.on('error', () => undefined);
        await new Promise((r) => s.once('connect', r).once('error', r));
        socks.push(s);
      }
      const refused = socks.at(-1) as net.Socket;
      const said = await new Promise<string>((resolve) => {
        let text = '';
        refused.on('data', (d: Buffer) => (text += d.toString()));
        refused.once('close', () => resolve(text));
      });
      expect(JSON.parse(said)).toMatchObject({ id: null, error: { code: -32603, message: expect.stringMatching(/Too many connections \(1024\)/) } });
      expect((await bystander.request('resources/read', { uri: uriOf(root, 'small.txt') })).result).toBeDefined();
    } finally {
      for (const s of socks) s.destroy();
    }
    // Closed ones free their places.
    await eventually(
      async () => {
        const c = await RawClient.initialized(shelf.socketPath).catch(() => null);
        c?.close();
        return c !== null;
      },
      5000,
      'a new connection accepted again',
    );
  });

  it('long client strings are refused or cut: URIs, ids and client names', async () => {
    const c = await RawClient.connect(shelf.socketPath);
    try {
      const huge = `file:///${'a'.repeat(3 * 1024 * 1024)}`;
      const init = await c.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'n'.repeat(1024 * 1024), version: '1' },
      });
      expect(init.error).toMatchObject({ code: -32602 });
      const sub = await c.request('resources/subscribe', { uri: huge });
      expect(sub.error).toEqual({ code: -32602, message: 'Invalid params for resources/subscribe: uri: at most 8192 characters' });
    } finally {
      c.close();
    }
  });
});

describe.runIf(process.platform === 'linux')('special files are never opened blocking', () => {
  it('a FIFO named .gitignore (and one named like a data file) does not stop serve from starting or stopping', async () => {
    const root = await makeTree({ 'a.txt': 'a', 'sub/b.txt': 'b' });
    execFileSync('mkfifo', [path.join(root, 'sub', '.gitignore'), path.join(root, 'data'), path.join(root, '.gitignore')]);
    const shelf = await startShelf([root]); // rejects after 20 s if serve never starts listening
    try {
      const c = await RawClient.initialized(shelf.socketPath);
      const list = await c.request('resources/list', {});
      expect((list.result as { resources: Array<{ name: string }> }).resources.map((r) => r.name)).toEqual(['a.txt', 'sub/b.txt']);
      c.close();
    } finally {
      expect(await shelf.stop()).toBe(0);
      await rm(root, { recursive: true, force: true });
    }
  });

  it('the client config writer refuses a FIFO where the config file should be, at once', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'home-'));
    const dir = path.join(home, '.cursor');
    await mkdir(dir);
    execFileSync('mkfifo', [path.join(dir, 'mcp.json')]);
    try {
      const t = Date.now();
      const run = await runCli(['config', 'cursor', '--socket', '/tmp/none.sock'], '', { HOME: home });
      expect(Date.now() - t).toBeLessThan(10_000);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/not a regular file/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('a published folder swapped for a link', () => {
  it('is treated as missing: the link’s target is never listed or read', async () => {
    const parent = await makeTree({ 'docs/readme.md': 'mine' });
    const elsewhere = await makeTree({ 'private.txt': 'not published' });
    const docs = path.join(parent, 'docs');
    const shelf = await startShelf([docs]);
    const c = await RawClient.initialized(shelf.socketPath);
    try {
      await rename(docs, `${docs}.old`);
      await symlink(elsewhere, docs);
      await eventually(() => /now leads to/.test(shelf.stderr()), 5000, 'the swap to be noticed');
      await new Promise((r) => setTimeout(r, 1500)); // several root checks later
      const list = await c.request('resources/list', {});
      expect((list.result as { resources: unknown[] }).resources).toEqual([]);
      for (const uri of [uriOf(docs, 'private.txt'), uriOf(elsewhere, 'private.txt')]) {
        expect((await c.request('resources/read', { uri })).error).toMatchObject({ code: -32602 });
      }
      // The real folder back in place is served again.
      await rm(docs);
      await rename(`${docs}.old`, docs);
      await eventually(async () => ((await c.request('resources/list', {})).result as { resources: unknown[] }).resources.length === 1, 5000, 'served again');
    } finally {
      c.close();
      await shelf.stop();
      await rm(parent, { recursive: true, force: true });
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('HTTP with the token', () => {
  it('a token given with MCP_SHELF_HTTP_TOKEN is used, never saved, and kept out of the command line', async () => {
    const root = await makeTree({ 'a.txt': 'a' });
    const token = 'env-token-env-token-env-token-123';
    const shelf = await startShelf([root], ['--http', '0'], { env: { MCP_SHELF_HTTP_TOKEN: token } });
    try {
      expect(shelf.stderr()).toContain(`HTTP bearer token: ${token}`);
      expect(shelf.proc.spawnargs.join(' ')).not.toContain(token);
      const settings = await readFile(path.join(path.dirname(shelf.socketPath), 'settings.json'), 'utf8').catch(() => '');
      expect(settings).not.toContain(token);
    } finally {
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('secrets stay hidden, --show-hidden or not', () => {
  it.each([[[] as string[]], [['--show-hidden', '--no-gitignore']]])('with %j', async (flags) => {
    const secrets = [
      'keys/app.jks',
      'keys/release.keystore',
      'putty.ppk',
      'vault.kdbx',
      'credentials.json',
      'service-account-prod.json',
      'infra/terraform.tfstate',
      'infra/terraform.tfstate.backup',
      'wallet.dat',
      'private.asc',
      '.git-credentials',
      '.docker/config.json',
      '.kube/config',
      '.pypirc',
      '.vault-token',
      '.bash_history',
      '.zsh_history',
      '.htpasswd',
    ];
    const files: Record<string, string> = { 'ok.txt': 'ok' };
    for (const s of secrets) files[s] = 'secret';
    const root = await makeTree(files);
    const shelf = await startShelf([root], flags);
    const c = await RawClient.initialized(shelf.socketPath);
    try {
      const list = await c.request('resources/list', {});
      expect((list.result as { resources: Array<{ name: string }> }).resources.map((r) => r.name)).toEqual(['ok.txt']);
      for (const s of secrets) expect((await c.request('resources/read', { uri: uriOf(root, s) })).error?.code, s).toBe(-32602);
    } finally {
      c.close();
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});
