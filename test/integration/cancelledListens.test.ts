import { type ChildProcess, spawn } from 'node:child_process';
import { appendFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const require = createRequire(import.meta.url);
const MCP_REMOTE = path.join(path.dirname(require.resolve('mcp-remote/package.json')), 'dist', 'proxy.js');

const envelope = (name: string) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name, version: '1' },
});

type Message = { id?: unknown; method?: string; params?: { uri?: string; _meta?: Record<string, unknown> } };

/** mcp-remote as a client config runs it: a stdio process whose stdin/stdout we speak newline JSON on. */
class RemoteProxy {
  readonly messages: Message[] = [];
  private buffer = '';
  private waiters: Array<() => void> = [];
  private readonly proc: ChildProcess;

  constructor(url: string, token: string) {
    this.proc = spawn(process.execPath, [MCP_REMOTE, url, '--allow-http', '--transport', 'http-only', '--header', `Authorization: Bearer ${token}`], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim()) this.messages.push(JSON.parse(line) as Message);
      }
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    });
  }

  send(message: unknown): void {
    this.proc.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  /** The first message from `from` on that matches (waits as long as the test allows). */
  async next(from: number, match: (m: Message) => boolean): Promise<{ message: Message; index: number }> {
    for (;;) {
      const index = this.messages.findIndex((m, i) => i >= from && match(m));
      if (index >= 0) return { message: this.messages[index] as Message, index };
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  stop(): void {
    this.proc.kill();
  }
}

const subscriptionOf = (m: Message) => m.params?._meta?.['io.modelcontextprotocol/subscriptionId'];

/**
 * A 2026-07-28 listen over HTTP ends when the client cancels it by
 * notification: mcp-remote never closes the stream, it only forwards the
 * client's `notifications/cancelled`.
 */
describe('cancelled listens over HTTP', () => {
  let root: string;
  let shelf: ShelfProcess;

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    shelf = await startShelf([root], ['--http', '0']);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('through mcp-remote 0.15: a listen cancelled by notification hears nothing more; another listen goes on', async () => {
    const proxy = new RemoteProxy(shelf.http?.url as string, shelf.http?.token as string);
    try {
      const meta = envelope('remote-user');
      proxy.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
      await proxy.next(0, (m) => m.id === 1);
      const listen = (id: string, file: string) =>
        proxy.send({
          jsonrpc: '2.0',
          id,
          method: 'subscriptions/listen',
          params: { _meta: meta, notifications: { resourceSubscriptions: [uriOf(root, file)] } },
        });
      listen('listen:a', 'a.txt');
      listen('listen:b', 'b.txt');
      await proxy.next(0, (m) => m.method === 'notifications/subscriptions/acknowledged' && subscriptionOf(m) === 'listen:a');
      await proxy.next(0, (m) => m.method === 'notifications/subscriptions/acknowledged' && subscriptionOf(m) === 'listen:b');
      const updateFor = (id: string) => (m: Message) => m.method === 'notifications/resources/updated' && subscriptionOf(m) === id;
      // Heard while open (writes repeat until one is seen: the watcher's start is not ours to time).
      let heard: number | null = null;
      for (let i = 0; heard === null; i++) {
        await appendFile(path.join(root, 'a.txt'), `open ${i}\n`);
        heard = await Promise.race([proxy.next(0, updateFor('listen:a')).then((r) => r.index), new Promise<null>((r) => setTimeout(() => r(null), 1000))]);
      }
      // A round: a changes, then b; b's update is awaited. Changes are reported in order, so once b's
      // arrives, a's change was reported to whoever listened for it.
      let from = heard + 1;
      const round = async (n: number) => {
        await appendFile(path.join(root, 'a.txt'), `round ${n}\n`);
        await new Promise((r) => setTimeout(r, 200));
        await appendFile(path.join(root, 'b.txt'), `round ${n}\n`);
        from = (await proxy.next(from, updateFor('listen:b'))).index + 1;
      };
      await round(0); // the earlier writes' updates have all come in
      proxy.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: meta, requestId: 'listen:a', reason: 'unsubscribed' } });
      await round(1); // the cancel travels (a POST) while this round's change does
      const cancelledFrom = from;
      for (let n = 2; n < 5; n++) await round(n);
      expect(proxy.messages.slice(cancelledFrom).filter(updateFor('listen:a'))).toEqual([]);
    } finally {
      proxy.stop();
    }
  }, 60_000);

  it('over raw HTTP: the cancel ends the listen’s response stream; the same id from another client does not', async () => {
    const url = shelf.http?.url as string;
    const headers = (method: string) => ({
      authorization: `Bearer ${shelf.http?.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    });
    const post = (body: { method: string } & Record<string, unknown>) =>
      fetch(url, { method: 'POST', headers: headers(body.method), body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
    const openListen = async (client: string) => {
      const res = await post({
        id: 7,
        method: 'subscriptions/listen',
        params: { _meta: envelope(client), notifications: { resourceSubscriptions: [uriOf(root, 'a.txt')] } },
      });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read(); // the acknowledgement
      expect(new TextDecoder().decode(first.value)).toContain('notifications/subscriptions/acknowledged');
      return reader;
    };
    const mine = await openListen('raw-one');
    const theirs = await openListen('raw-two');
    const ended = (async () => {
      for (;;) if ((await mine.read()).done) return true;
    })();
    const cancel = await post({ method: 'notifications/cancelled', params: { _meta: envelope('raw-one'), requestId: 7 } });
    expect(cancel.status).toBe(202);
    expect(await ended).toBe(true);
    // The other client's listen with the same request id is still open: a change reaches it.
    let text = '';
    for (let i = 0; !text.includes('notifications/resources/updated'); i++) {
      await appendFile(path.join(root, 'a.txt'), `still ${i}\n`);
      const next = await Promise.race([theirs.read(), new Promise<null>((r) => setTimeout(() => r(null), 1000))]);
      if (next && !next.done) text += new TextDecoder().decode(next.value);
      expect(next?.done ?? false).toBe(false);
    }
    await theirs.cancel();
  }, 60_000);
});
