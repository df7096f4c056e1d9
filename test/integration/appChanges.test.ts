import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { App } from '@modelcontextprotocol/ext-apps';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ChangeProposal } from '../../shared/changeTypes.js';
import { ErrorCodes } from '../../shared/errorCodes.js';
import { APP_TOOLS, type AppChangesResult } from '../../shared/shelfApp.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';
import { connectWebApi, type WebApi } from '../support/webApi.js';

const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown> & { error?: { code: number; data?: { reason?: string } } };
}

/** A chat host as ext-apps builds one: its MCP client of the shelf, an AppBridge, and the view's `App` on the other end. */
interface ChatHost {
  client: Client;
  app: App;
  bridge: AppBridge;
}

/**
 * The in-chat app's view of changes by AI, against the real
 * `mcp-shelf serve --ui`: two chat hosts (AppBridge, forwarding the view's
 * calls to their own MCP client, one over HTTP and one through the stdio
 * bridge) each propose a change; each view lists only its own client's
 * proposal, and it is gone once the person answers in the window (the
 * window's WebSocket API).
 */
describe('the in-chat app shows its client’s changes waiting for approval', () => {
  let base: string;
  let root: string;
  let shelf: ShelfProcess;
  let api: WebApi;
  const hosts: ChatHost[] = [];

  async function chatHost(name: string, over: 'http' | 'bridge'): Promise<ChatHost> {
    const client = new Client({ name, version: '1.0.0' }, { capabilities: UI as never });
    await client.connect(
      over === 'http'
        ? new StreamableHTTPClientTransport(new URL(shelf.http?.url as string), { requestInit: { headers: { Authorization: `Bearer ${shelf.http?.token}` } } })
        : new StdioClientTransport({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' }),
    );
    // With the client given, the bridge forwards the view's tools/call to the shelf itself.
    const bridge = new AppBridge(client, { name: `${name} host`, version: '1.0.0' }, { serverTools: {} });
    const app = new App({ name: 'MCP Shelf', version: 'test' }, {}, { autoResize: false });
    const [toView, toHost] = InMemoryTransport.createLinkedPair();
    await bridge.connect(toView);
    await app.connect(toHost);
    const host = { client, app, bridge };
    hosts.push(host);
    return host;
  }

  /** What the view's call answers: the waiting changes of its host's connection. */
  const waitingSeenBy = async (host: ChatHost): Promise<AppChangesResult['changes']> => {
    const r = await host.app.callServerTool({ name: APP_TOOLS.changes, arguments: {} });
    expect(r.isError).toBeFalsy();
    return (r.structuredContent as unknown as AppChangesResult).changes;
  };
  const inWindow = (p: string) =>
    eventually(async () => (await api.call('pendingChanges')).find((c: ChangeProposal) => c.path === p), 10_000, `a proposal for ${p} in the window`);

  beforeAll(async () => {
    base = await makeTree({ 'pub/notes.md': 'first line\nsecond line\n' });
    root = path.join(base, 'pub');
    shelf = await startShelf([root], ['--allow-changes', '--ui', '--ui-port', '0', '--no-open', '--http', '0']);
    api = await connectWebApi(shelf);
  });
  afterAll(async () => {
    for (const h of hosts) {
      await h.app.close().catch(() => undefined);
      await h.client.close().catch(() => undefined);
    }
    await api?.close();
    await shelf?.stop();
    await rm(base, { recursive: true, force: true });
  });

  it('each view lists only its own connection’s proposal (uri, path, kind, lines ±, time, deadline), and nothing once the person answered in the window', async () => {
    const a = await chatHost('chat-a', 'http');
    const b = await chatHost('chat-b', 'bridge');
    expect(await waitingSeenBy(a)).toEqual([]);

    const notes = uriOf(root, 'notes.md');
    const edit = a.client.callTool({
      name: 'edit_resource',
      arguments: { uri: notes, edits: [{ oldText: 'second line', newText: 'second line, revised\nand a third' }] },
    }) as Promise<ToolResult>;
    const fromA = await inWindow('notes.md');
    const seenA = await waitingSeenBy(a);
    // Only what the client sent itself and when it waits until: no diff, no text, no client facts.
    expect(seenA).toEqual([{ uri: notes, folder: root, path: 'notes.md', kind: 'edit', added: 2, removed: 1, time: fromA.time, deadline: fromA.deadline }]);
    expect(seenA[0]?.deadline).toBeGreaterThan(seenA[0]?.time ?? Infinity);
    // Another connection does not learn what this one proposes.
    expect(await waitingSeenBy(b)).toEqual([]);

    const create = b.client.callTool({ name: 'write_resource', arguments: { uri: uriOf(root, 'drafts/new.md'), text: 'one\ntwo\n' } }) as Promise<ToolResult>;
    const fromB = await inWindow('drafts/new.md');
    expect(await waitingSeenBy(b)).toEqual([
      {
        uri: uriOf(root, 'drafts/new.md'),
        folder: root,
        path: 'drafts/new.md',
        kind: 'create',
        added: 2,
        removed: 0,
        time: fromB.time,
        deadline: fromB.deadline,
      },
    ]);
    expect((await waitingSeenBy(a)).map((c) => c.path)).toEqual(['notes.md']);

    // The person answers in the window; each view's list empties with its own answer.
    await api.call('answerChange', fromA.id, { approve: false });
    expect((await edit).structuredContent?.error).toMatchObject({ code: ErrorCodes.changeNotMade, data: { reason: 'declined' } });
    expect(await waitingSeenBy(a)).toEqual([]);
    expect((await waitingSeenBy(b)).map((c) => c.path)).toEqual(['drafts/new.md']);
    await api.call('answerChange', fromB.id, { approve: true });
    expect((await create).structuredContent).toMatchObject({ status: 'written', created: true });
    expect(await waitingSeenBy(b)).toEqual([]);
    expect(await readFile(path.join(root, 'drafts/new.md'), 'utf8')).toBe('one\ntwo\n');
    expect(await readFile(path.join(root, 'notes.md'), 'utf8')).toBe('first line\nsecond line\n');
  }, 120_000);

  it('the app’s tool decides nothing, takes no arguments, and lists nothing while no folder allows changes', async () => {
    const a = hosts[0] ?? (await chatHost('chat-a', 'http'));
    const pending = a.client.callTool({ name: 'write_resource', arguments: { uri: uriOf(root, 'later.md'), text: 'later\n' } }) as Promise<ToolResult>;
    const waiting = await inWindow('later.md');
    expect((await waitingSeenBy(a)).map((c) => c.path)).toEqual(['later.md']);
    // An argument (an id to answer, say) is refused, and the proposal still waits for the person.
    const forced = await a.app.callServerTool({ name: APP_TOOLS.changes, arguments: { id: waiting.id, approve: true } });
    expect(forced.isError).toBe(true);
    expect((await api.call('pendingChanges')).map((c: ChangeProposal) => c.id)).toContain(waiting.id);
    // Changes turned off everywhere: the view lists none (a change still waiting can no longer be written).
    await api.call('setFolderOptions', root, { changes: 'off' });
    try {
      expect(await waitingSeenBy(a)).toEqual([]);
    } finally {
      await api.call('setFolderOptions', root, { changes: 'ask' });
    }
    await api.call('answerChange', waiting.id, { approve: false });
    expect((await pending).structuredContent?.error?.data?.reason).toBe('declined');
    expect(await waitingSeenBy(a)).toEqual([]);
  }, 120_000);
});
