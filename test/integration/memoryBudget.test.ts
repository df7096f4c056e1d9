import { readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ErrorCodes } from '../../shared/errorCodes.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { connectSdkClient, peakRssMiB, rssMiB, startShelf } from '../support/shelfProcess.js';

/**
 * One memory budget for everything held for clients, in total across
 * connections and transports (clientMemory/memoryBudget.ts), against the
 * real `mcp-shelf serve` with a small budget (--client-memory 64): clients
 * that never read their replies, lines queued behind busy slots, HTTP
 * replies built whole, silent connections holding every slot, and idle TCP
 * connects before any token. Each case grew the server by hundreds of MiB
 * (or locked honest clients out) before the budget.
 */

const MiB = 1024 * 1024;
const BUDGET_MIB = 64;
const modern = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'budget-test', version: '1' },
    },
  },
});

/** Opens a socket connection that sends `lines` and then never reads what comes back. */
function deafClient(socketPath: string, lines: string[]): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath, () => {
      s.pause();
      s.write(lines.join(''));
      resolve(s);
    });
    s.on('error', () => undefined);
    s.once('error', reject);
  });
}

const line = (m: unknown) => `${JSON.stringify(m)}\n`;

describe('one memory budget for what clients make the server hold', () => {
  let root: string;
  const files: Record<string, string> = { 'small.txt': 'small\n', 'mid.txt': 'm'.repeat(400_000) };
  for (let i = 0; i < 16; i++) files[`big${i}.txt`] = `${i}`.repeat(1_000_000);

  beforeAll(async () => {
    root = await makeTree(files, 'budget-');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('clients that ask for 1 MB reads and never read the replies stay within the budget; honest clients are served throughout', async () => {
    const shelf = await startShelf([root], ['--no-search-index', '--client-memory', String(BUDGET_MIB)]);
    const honest = await connectSdkClient(shelf.socketPath, 'honest');
    const deaf: net.Socket[] = [];
    try {
      await honest.readResource({ uri: uriOf(root, 'small.txt') });
      const before = await rssMiB(shelf.proc.pid as number);
      const init = line({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'deaf', version: '1' } },
      });
      for (let c = 0; c < 24; c++) {
        const reads = Array.from({ length: 16 }, (_, i) =>
          line({ jsonrpc: '2.0', id: i + 1, method: 'resources/read', params: { uri: uriOf(root, `big${i}.txt`) } }),
        );
        deaf.push(await deafClient(shelf.socketPath, [init, line({ jsonrpc: '2.0', method: 'notifications/initialized' }), ...reads]));
      }
      // Honest small reads go on while the deaf clients hold what they hold (each connection's first 128 KiB is its own).
      for (let i = 0; i < 30; i++) {
        const r = await honest.readResource({ uri: uriOf(root, 'small.txt') });
        expect((r.contents[0] as { text: string }).text).toBe('small\n');
      }
      const grown = (await rssMiB(shelf.proc.pid as number)) - before;
      // Before the budget: 24 deaf clients × 16 replies of 1 MB, kept whole, grew the server by ~800 MiB.
      expect(grown).toBeLessThan(BUDGET_MIB + 160);
      // A larger read needs the shared part: clients whose output has not moved for 2 s give theirs back first.
      const mid = await eventually(
        () =>
          honest.readResource({ uri: uriOf(root, 'mid.txt') }).then(
            (r) => r,
            (e: { code?: number }) => (e.code === ErrorCodes.serverBusy ? null : Promise.reject(e as Error)),
          ),
        20_000,
        'a 400 KB read once stalled clients were cut off',
      );
      expect((mid.contents[0] as { text: string }).text.length).toBe(400_000);
      expect(shelf.stderr()).toMatch(/client is not reading its responses/);
    } finally {
      for (const s of deaf) s.destroy();
      await honest.close();
      await shelf.stop();
    }
  }, 120_000);

  it('HTTP reads of a 7 MiB file go out in pieces as the client takes them: 40 left unread hold a chunk each, and each is whole once read', async () => {
    const file = Buffer.alloc(7 * MiB - 1024, 0);
    const big = await makeTree({ 'seven.bin': file }, 'budget-http-');
    const shelf = await startShelf([big], ['--no-search-index', '--client-memory', String(BUDGET_MIB), '--http', '0', '--http-no-auth']);
    const url = new URL(shelf.http?.url as string);
    const responses: http.IncomingMessage[] = [];
    const requests: http.ClientRequest[] = [];
    try {
      const before = await rssMiB(shelf.proc.pid as number);
      for (let i = 0; i < 40; i++) {
        const body = JSON.stringify(modern(i, 'resources/read', { uri: uriOf(big, 'seven.bin') }));
        const req = http.request({
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'resources/read',
            'mcp-name': uriOf(big, 'seven.bin'),
          },
        });
        req.on('response', (res) => {
          res.pause(); // a client that does not read its reply (yet)
          responses.push(res);
        });
        req.on('error', () => undefined);
        req.end(body);
        requests.push(req);
      }
      await eventually(() => (responses.length === 40 ? true : null), 60_000, 'an answer to every request');
      // Built whole, 40 replies of 9.3 MB were +900 MiB before the budget, and past it some were refused as busy;
      // streamed, each holds its read chunk (1 MiB) and the pieces the socket has not taken (~95 MiB in all here).
      const grown = (await rssMiB(shelf.proc.pid as number)) - before;
      expect(grown).toBeLessThan(BUDGET_MIB + 96);
      const expected = file.toString('base64');
      // Read one after another: each reply is the whole file, or refused as busy in so many words.
      let whole = 0;
      for (const res of responses) {
        const text = await new Promise<string>((resolve, reject) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
          res.resume();
        });
        const reply = JSON.parse(text) as { result?: { contents: Array<{ blob?: string }>; resultType?: string }; error?: { code: number; message: string } };
        if (reply.error) {
          expect(reply.error.code).toBe(ErrorCodes.serverBusy);
          expect(reply.error.message).toMatch(/memory it keeps for clients/);
          continue;
        }
        expect(reply.result?.resultType).toBe('complete');
        expect(
          reply.result?.contents[0]?.blob === expected,
          `${reply.result?.contents[0]?.blob?.length} vs ${expected.length}: ${reply.result?.contents[0]?.blob?.slice(0, 40)}`,
        ).toBe(true);
        whole++;
      }
      // A reply built whole reserved its 9.3 MB (6 fit the budget); a streamed one reserves what it holds at once.
      expect(whole).toBeGreaterThanOrEqual(16);
    } finally {
      for (const r of requests) r.destroy();
      await shelf.stop();
      await rm(big, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('images', () => {
  it('image reads wait for the image worker without a copy of the file each: 24 reads of a 40 MiB image at once', async () => {
    // A PNG's signature and 40 MiB after it: the worker finds it corrupt, but each read used to copy the
    // whole file before asking the worker's queue (16 reads of a 63 MiB PNG: +1,037 MiB).
    const png = Buffer.alloc(40 * MiB, 0);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
    const root = await makeTree({ 'photo.png': png }, 'budget-image-');
    const shelf = await startShelf([root], ['--no-search-index']);
    const clients: RawClient[] = [];
    try {
      for (let i = 0; i < 4; i++) clients.push(await RawClient.initialized(shelf.socketPath));
      const before = await peakRssMiB(shelf.proc.pid as number);
      const replies = await Promise.all(
        clients.flatMap((c) =>
          Array.from({ length: 6 }, () => c.request('tools/call', { name: 'read_resource', arguments: { uri: uriOf(root, 'photo.png') } })),
        ),
      );
      const peakGrowth = (await peakRssMiB(shelf.proc.pid as number)) - before;
      // Every read was answered: described (it cannot be shown) or refused as busy, never lost.
      for (const r of replies) expect(r.result !== undefined || r.error?.code === ErrorCodes.serverBusy).toBe(true);
      expect(replies.some((r) => r.result !== undefined)).toBe(true);
      // One image at a time is in memory (and its copy in the worker); before: 24 copies, +960 MiB or more.
      expect(peakGrowth).toBeLessThan(400);
    } finally {
      for (const c of clients) c.socket.destroy();
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('connection slots', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha\n' }, 'slots-');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('1,030 silent socket connections cannot lock a client out: the one idle longest makes room', async () => {
    const shelf = await startShelf([root], ['--no-search-index']);
    const silent: net.Socket[] = [];
    try {
      for (let i = 0; i < 1030; i++)
        silent.push(
          await new Promise<net.Socket>((resolve) => {
            const s = net.connect(shelf.socketPath, () => resolve(s));
            s.on('error', () => undefined);
          }),
        );
      // Silent for the idle bound (10 s), as a stuck or hostile client would be.
      await new Promise((r) => setTimeout(r, 10_500));
      const client = await connectSdkClient(shelf.socketPath, 'late');
      const read = await client.readResource({ uri: uriOf(root, 'a.txt') });
      expect((read.contents[0] as { text: string }).text).toBe('alpha\n');
      await client.close();
      expect(shelf.stderr()).toMatch(/idle while every slot was taken; closed to make room/);
    } finally {
      for (const s of silent) s.destroy();
      await shelf.stop();
    }
  }, 120_000);

  it('idle TCP connects to the HTTP and window ports are bounded before any token check, and a client still gets in', async () => {
    const shelf = await startShelf([root], ['--no-search-index', '--http', '0', '--ui', '--ui-port', '0', '--no-open']);
    const window = new URL((await eventually(() => /window: (\S+)/.exec(shelf.stderr())?.[1], 10_000, 'the window address')) as string);
    const mcp = new URL(shelf.http?.url as string);
    const idle: net.Socket[] = [];
    const connect = (port: number) =>
      new Promise<void>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => resolve());
        s.on('error', () => resolve());
        idle.push(s);
      });
    try {
      for (let i = 0; i < 1500; i++) await connect(Number(mcp.port));
      for (let i = 0; i < 500; i++) await connect(Number(window.port));
      // Before the bound every connect held a descriptor (21,000 of them took the process's limit).
      const fds = (await readdir(`/proc/${shelf.proc.pid}/fd`)).length;
      expect(fds).toBeLessThan(800);
      const answer = await fetch(mcp, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${shelf.http?.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'resources/list',
        },
        body: JSON.stringify(modern(1, 'resources/list')),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { result: { resources: unknown[] } }).result.resources).toHaveLength(1);
      const page = await fetch(new URL('/', window));
      expect(page.status).toBe(200);
    } finally {
      for (const s of idle) s.destroy();
      await shelf.stop();
    }
  }, 120_000);
});
