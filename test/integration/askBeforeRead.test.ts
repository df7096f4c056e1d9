import { rm } from 'node:fs/promises';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { ErrorCodes } from '../../shared/errorCodes.js';
import { webApiProtocols } from '../../shared/shelfApi.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { CLI, connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';
import { connectWebApi, type WebApi } from '../support/webApi.js';

/**
 * Ask-before-read against the real CLI: a read from such a folder waits
 * for the window's answer (both revisions, bridge and HTTP), other folders
 * are not held up, deny and timeout get error 1005 with the reason, and
 * with no window open the read is refused at once, saying why.
 */

const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (e: { code?: number; data?: { reason?: string } }) => `${e.code}:${e.data?.reason}`,
  );

describe('ask before read', () => {
  let asked: string;
  let open: string;

  beforeAll(async () => {
    asked = await makeTree({ 'secret.md': 'private notes', 'other.md': 'more', 'third.md': 'three' });
    open = await makeTree({ 'public.md': 'hello' });
  });
  afterAll(async () => {
    await rm(asked, { recursive: true, force: true });
    await rm(open, { recursive: true, force: true });
  });

  it('with no window open, refuses such reads at once and says why; listing still works', async () => {
    const shelf = await startShelf([asked], ['--ask-before-read']);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      const list = await client.listResources();
      expect(list.resources.map((r) => r.name).sort()).toEqual(['other.md', 'secret.md', 'third.md']);
      const err = await client.readResource({ uri: uriOf(asked, 'secret.md') }).catch((e: { code: number; message: string; data: unknown }) => e);
      expect(err).toMatchObject({ code: ErrorCodes.readNotAllowed, data: { uri: uriOf(asked, 'secret.md'), reason: 'no-window' } });
      expect((err as { message?: string }).message).toMatch(/asks before each read.*no MCP Shelf window is open/);
      // The tool says the same, as a result the model can read.
      const tool = await client.callTool({ name: 'read_resource', arguments: { uri: uriOf(asked, 'secret.md') } });
      expect(tool.isError).toBe(true);
      expect(JSON.stringify(tool.content)).toContain('no MCP Shelf window is open');
    } finally {
      await client.close();
      await shelf.stop();
    }
  });

  it('a window that went silent (its browser gone without closing the socket) stops counting: reads are refused at once, not after the ask timeout', async () => {
    const shelf = await startShelf([asked], ['--ask-before-read', '--ui', '--ui-port', '0']);
    const address = new URL(await eventually(() => /window: (\S+)/.exec(shelf.stderr())?.[1], 10_000, 'the window address'));
    const token = new URLSearchParams(address.hash.slice(1)).get('token') ?? '';
    // A tab whose machine went to sleep: the socket stays open, nothing answers the server's pings.
    const silent = new WebSocket(`ws://${address.host}/api`, webApiProtocols(token), { origin: `http://${address.host}`, autoPong: false });
    await new Promise<void>((resolve, reject) => {
      silent.once('open', () => resolve());
      silent.once('error', reject);
    });
    const client = await connectSdkClient(shelf.socketPath);
    try {
      // Within a few heartbeats the read is refused for want of a window; before, it waited out the 60 s ask.
      const started = Date.now();
      const outcome = await eventually(
        async () => {
          const settled = await Promise.race([
            failure(client.readResource({ uri: uriOf(asked, 'secret.md') })),
            new Promise<null>((r) => setTimeout(() => r(null), 2000)),
          ]);
          return settled === `${ErrorCodes.readNotAllowed}:no-window` ? settled : null;
        },
        30_000,
        'a refusal for want of a window',
      );
      expect(outcome).toBe(`${ErrorCodes.readNotAllowed}:no-window`);
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      silent.terminate();
      await client.close();
      await shelf.stop();
    }
  }, 60_000);

  it('grep cannot be led into an ask-before-read folder by its cursor: a cursor made before the folder asked is checked again, and a hand-made one is refused', async () => {
    const dir = await makeTree({ 'pin.txt': 'TOPSECRET bank PIN 1111\nfiller\nTOPSECRET bank PIN 2222\nTOPSECRET bank PIN 3333\n' });
    const shelf = await startShelf([dir], ['--ui', '--ui-port', '0', '--no-open']);
    const api = await connectWebApi(shelf);
    const client = await connectSdkClient(shelf.socketPath);
    const grep = async (cursor?: string) => {
      const r = await client.callTool({ name: 'grep_resources', arguments: { pattern: 'TOPSECRET', maxResults: 1, ...(cursor ? { cursor } : {}) } });
      return { text: JSON.stringify(r.content), structured: r.structuredContent as { nextCursor?: string; matches: number }, isError: r.isError };
    };
    try {
      const first = await grep();
      expect(first.text).toContain('PIN 1111');
      const sealed = first.structured.nextCursor as string;
      expect(sealed).toBeTruthy();
      // The person makes the folder ask before each read: the cursor handed out before must not go on inside the file.
      await api.call('setFolderOptions', dir, { askBeforeRead: true });
      const resumed = await grep(sealed);
      expect(resumed.text).not.toContain('PIN');
      expect(resumed.structured.matches).toBe(0);
      // A cursor made by hand, naming the file and a place inside it, as the old unsigned cursors were spelled.
      const forged = Buffer.from(
        JSON.stringify({ folderId: 1, rel: 'pin.txt', inside: { from: 0, line: 1 }, query: JSON.stringify(['TOPSECRET', false, '']) }),
      ).toString('base64url');
      const refused = await grep(forged);
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('Invalid cursor');
      expect(refused.text).not.toContain('PIN');
    } finally {
      await client.close();
      await api.close();
      await shelf.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('with the window open', () => {
    let shelf: ShelfProcess;
    let api: WebApi;

    beforeAll(async () => {
      shelf = await startShelf([asked, open], ['--http', '0', '--ui', '--ui-port', '0']);
      api = await connectWebApi(shelf);
      await api.call('setFolderOptions', asked, { askBeforeRead: true });
      await api.call('updateSettings', { askTimeoutSeconds: 2 });
    });
    afterAll(async () => {
      await api?.close();
      await shelf?.stop();
    });

    const waitingAsk = (uri: string) => eventually(async () => (await api.call('pendingAsks')).find((a) => a.uri === uri), 5000, `an ask for ${uri}`);

    it('a 2026-07-28 client over HTTP waits while other folders are served, and reads once allowed', async () => {
      const v2 = new V2Client({ name: 'modern-http', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await v2.connect(new V2Http(new URL(shelf.http?.url as string), { requestInit: { headers: { Authorization: `Bearer ${shelf.http?.token}` } } }));
      const v1 = await connectSdkClient(shelf.socketPath, 'legacy-bridge');
      try {
        let settled = false;
        const read = v2.readResource({ uri: uriOf(asked, 'secret.md') }).finally(() => (settled = true));
        const ask = await waitingAsk(uriOf(asked, 'secret.md'));
        expect(ask).toMatchObject({ client: 'modern-http', clientVersion: '2.0.0', transport: 'http', path: 'secret.md', folder: asked, size: 13 });
        expect(api.events('asks').some((list) => list.some((a) => a.id === ask.id))).toBe(true);
        // The other folder is served while the ask waits, over the bridge and by the same client.
        expect((await v1.readResource({ uri: uriOf(open, 'public.md') })).contents[0]).toMatchObject({ text: 'hello' });
        expect((await v2.readResource({ uri: uriOf(open, 'public.md') })).contents[0]).toMatchObject({ text: 'hello' });
        expect(settled).toBe(false);
        expect(await api.call('answerAsk', ask.id, 'once')).toBe(true);
        expect((await read).contents[0]).toMatchObject({ text: 'private notes' });
        expect(await api.call('answerAsk', ask.id, 'once')).toBe(false);
      } finally {
        await v2.close();
        await v1.close();
      }
    });

    it('a 2026-07-28 HTTP client is offered "Allow once" only: another request giving its name is asked about again', async () => {
      const v2 = new V2Client({ name: 'modern-http', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await v2.connect(new V2Http(new URL(shelf.http?.url as string), { requestInit: { headers: { Authorization: `Bearer ${shelf.http?.token}` } } }));
      const bridged = await connectSdkClient(shelf.socketPath, 'legacy-bridge');
      try {
        const read = v2.readResource({ uri: uriOf(asked, 'secret.md') });
        const ask = await waitingAsk(uriOf(asked, 'secret.md'));
        expect(ask).toMatchObject({ client: 'modern-http', transport: 'http', protocolVersion: '2026-07-28', allowClient: false });
        expect(ask.connectedAt).toBeLessThanOrEqual(ask.time);
        // What a window that offered "Allow this client" would send: it allows this read and nothing more.
        await api.call('answerAsk', ask.id, 'client');
        expect((await read).contents[0]).toMatchObject({ text: 'private notes' });
        // Any program holding the token can send a request under that name: it is asked about, not let through.
        const uri = uriOf(asked, 'third.md');
        const impostor = fetch(shelf.http?.url as string, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${shelf.http?.token}`,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2026-07-28',
            'Mcp-Method': 'resources/read',
            'Mcp-Name': uri,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'resources/read',
            params: {
              uri,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
                'io.modelcontextprotocol/clientInfo': { name: 'modern-http', version: '2.0.0' },
              },
            },
          }),
        }).then((r) => r.json() as Promise<{ error?: { code: number; data: { reason: string } } }>);
        const second = await waitingAsk(uri);
        expect(second).toMatchObject({ client: 'modern-http', allowClient: false });
        await api.call('answerAsk', second.id, 'deny');
        expect((await impostor).error).toMatchObject({ code: ErrorCodes.readNotAllowed, data: { reason: 'denied' } });
        // A connection (the bridge) is offered "Allow this client": its grant is its own.
        const viaBridge = bridged.readResource({ uri });
        expect(await waitingAsk(uri)).toMatchObject({ client: 'legacy-bridge', transport: 'socket', allowClient: true });
        await api.call('answerAsk', (await waitingAsk(uri)).id, 'once');
        await viaBridge;
      } finally {
        await v2.close();
        await bridged.close();
      }
    });

    it('deny and no answer give error 1005 with the reason, over the bridge (2025-11-25), and are in the history', async () => {
      const v1 = await connectSdkClient(shelf.socketPath, 'legacy-bridge');
      try {
        const denied = failure(v1.readResource({ uri: uriOf(asked, 'secret.md') }));
        await api.call('answerAsk', (await waitingAsk(uriOf(asked, 'secret.md'))).id, 'deny');
        expect(await denied).toBe(`${ErrorCodes.readNotAllowed}:denied`);
        const started = Date.now();
        expect(await failure(v1.readResource({ uri: uriOf(asked, 'other.md') }))).toBe(`${ErrorCodes.readNotAllowed}:timeout`);
        expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
        const history = await eventually(async () => {
          const page = await api.call('queryHistory', { client: 'legacy-bridge', outcome: 'denied' });
          return page.entries.length >= 2 ? page : null;
        });
        expect(history.entries.map((e) => e.errorCode)).toEqual([ErrorCodes.readNotAllowed, ErrorCodes.readNotAllowed]);
      } finally {
        await v1.close();
      }
    });

    it('"allow this client" lets a 2026-07-28 bridge client read the folder until it disconnects', async () => {
      const bridge = { command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' as const };
      const connectModern = async () => {
        const c = new V2Client({ name: 'modern-bridge', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        await c.connect(new V2Stdio(bridge));
        return c;
      };
      const first = await connectModern();
      const read = first.readResource({ uri: uriOf(asked, 'secret.md') });
      await api.call('answerAsk', (await waitingAsk(uriOf(asked, 'secret.md'))).id, 'client');
      expect((await read).contents[0]).toMatchObject({ text: 'private notes' });
      // No more asks for this connection in this folder.
      expect((await first.readResource({ uri: uriOf(asked, 'third.md') })).contents[0]).toMatchObject({ text: 'three' });
      expect(await api.call('pendingAsks')).toEqual([]);
      await first.close();

      // A new connection is asked again.
      const second = await connectModern();
      try {
        const again = failure(second.readResource({ uri: uriOf(asked, 'third.md') }));
        await api.call('answerAsk', (await waitingAsk(uriOf(asked, 'third.md'))).id, 'deny');
        expect(await again).toBe(`${ErrorCodes.readNotAllowed}:denied`);
      } finally {
        await second.close();
      }
    });

    it('a read the client cancels while it waits withdraws its ask (the fast path and the SDK path), and the history says so', async () => {
      // Long enough that only the cancel can end these asks, however busy the machine.
      await api.call('updateSettings', { askTimeoutSeconds: 120 });
      const client = await connectSdkClient(shelf.socketPath, 'cancelling');
      const noAsks = () => eventually(async () => ((await api.call('pendingAsks')).length === 0 ? true : null), 10_000, 'the ask withdrawn');
      try {
        const secret = uriOf(asked, 'secret.md');
        // resources/read, answered by the socket's fast path.
        const aborted = new AbortController();
        const read = client.readResource({ uri: secret }, { signal: aborted.signal }).catch(() => 'aborted');
        await waitingAsk(secret);
        aborted.abort();
        expect(await read).toBe('aborted');
        await noAsks();

        // Two reads of one file by one connection share an ask: it stays until both are cancelled.
        const first = new AbortController();
        const second = new AbortController();
        const reads = [first, second].map((c) => client.readResource({ uri: secret }, { signal: c.signal }).catch(() => 'aborted'));
        const shared = await waitingAsk(secret);
        first.abort();
        await expect.poll(async () => (await api.call('pendingAsks')).map((a) => a.id), { timeout: 2000 }).toEqual([shared.id]);
        second.abort();
        await noAsks();
        expect(await Promise.all(reads)).toEqual(['aborted', 'aborted']);

        // The read tool, through the SDK's handler (its AbortSignal).
        const other = uriOf(asked, 'other.md');
        const tool = new AbortController();
        const called = client.callTool({ name: 'read_resource', arguments: { uri: other } }, undefined, { signal: tool.signal }).catch(() => 'aborted');
        await waitingAsk(other);
        tool.abort();
        expect(await called).toBe('aborted');
        await noAsks();

        // Nothing else of the folder was held up: a read after them is asked about as usual.
        const after = failure(client.readResource({ uri: uriOf(asked, 'third.md') }));
        await api.call('answerAsk', (await waitingAsk(uriOf(asked, 'third.md'))).id, 'deny');
        expect(await after).toBe(`${ErrorCodes.readNotAllowed}:denied`);
        // In the history, each as cancelled: the first three, then (a client can cancel at will, so
        // they fold as noise do) one standing for the rest, written when the real read above came.
        const history = await eventually(async () => {
          const page = await api.call('queryHistory', { client: 'cancelling' });
          return page.entries.some((e) => e.uri === other) ? page : null;
        });
        const cancelled = history.entries.filter((e) => e.failure === 'cancelled');
        expect(cancelled.map((e) => e.uri).sort()).toEqual([other, secret, secret, secret]);
        expect(cancelled.find((e) => e.uri === other)?.repeated).toBe(1);
      } finally {
        await client.close();
        await api.call('updateSettings', { askTimeoutSeconds: 2 });
      }
    });

    it('search and grep leave ask-before-read folders out and say so', async () => {
      const v1 = await connectSdkClient(shelf.socketPath, 'searcher');
      try {
        // "hello" is in the open folder; "notes" only in the asking one.
        const found = async (query: string) =>
          (await v1.callTool({ name: 'search_resources', arguments: { query } })).structuredContent as {
            results: Array<{ uri: string }>;
            notSearched: string[];
            indexing: boolean;
          };
        await eventually(async () => !(await found('hello')).indexing, 10_000, 'the index');
        expect((await found('hello')).results.map((r) => r.uri)).toEqual([uriOf(open, 'public.md')]);
        const hidden = await found('notes');
        expect(hidden.notSearched).toEqual([asked]);
        expect(hidden.results).toEqual([]);
        // grep too: no line of an asking folder's files goes out without a read the person allowed.
        const grep = (await v1.callTool({ name: 'grep_resources', arguments: { pattern: 'notes|hello' } })).structuredContent as {
          files: Array<{ uri: string }>;
          notSearched: string[];
        };
        expect(grep.files.map((f) => f.uri)).toEqual([uriOf(open, 'public.md')]);
        expect(grep.notSearched).toEqual([asked]);
        expect(await api.call('pendingAsks')).toEqual([]);
      } finally {
        await v1.close();
      }
    });
  });
});
