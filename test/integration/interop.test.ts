import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { runNode22 } from '../support/node22.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONFORMANCE = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const INSPECTOR = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

const BIN = Buffer.from([0x89, 0x00, 0xff, 0x10, 0x20]);

/**
 * The official conformance suite, once per protocol revision, each run
 * scored against that revision's frozen requirement set. The checks that
 * cannot apply to a file server are in test/integration/conformance/, each with its
 * reason; the suite itself fails the run on any other failure, and on a
 * baseline entry that has started to pass.
 */
describe.each(['2025-11-25', '2026-07-28'])('official conformance suite, revision %s, over Streamable HTTP (--http-no-auth)', (revision) => {
  it('passes every requirement that applies; the rest are listed with reasons in the baseline', async () => {
    const root = await makeTree({ 'a.txt': 'a' });
    const shelf = await startShelf([root], ['--http', '0', '--http-no-auth']);
    try {
      const url = shelf.http?.url as string;
      const baseline = path.join(ROOT, `test/integration/conformance/baseline-${revision}.yml`);
      const run = await runNode22([CONFORMANCE, 'server', '--url', url, '--requirements', revision, '--expected-failures', baseline], { cwd: ROOT });
      const out = run.stdout + run.stderr;
      expect(out).toMatch(/✓ resources-list: \d+ passed, 0 failed/);
      expect(out).toMatch(/✓ completion-complete: \d+ passed, 0 failed/);
      expect(out).toMatch(/✓ dns-rebinding-protection: \d+ passed, 0 failed/);
      if (revision === '2025-11-25') {
        for (const s of ['server-initialize', 'ping', 'logging-set-level', 'resources-subscribe', 'resources-unsubscribe'])
          expect(out, s).toMatch(new RegExp(`✓ ${s}: \\d+ passed, 0 failed`));
      } else {
        for (const s of ['sep-2164-resource-not-found', 'http-header-validation']) expect(out, s).toMatch(new RegExp(`✓ ${s}: \\d+ passed, 0 failed`));
      }
      expect(out).toContain('Baseline check passed');
      expect(run.code, out.slice(-3000)).toBe(0);
    } finally {
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the MCP Inspector CLI launching mcp-shelf connect', () => {
  let root: string;
  let shelf: ShelfProcess;
  const inspect = async (...args: string[]) => {
    const run = await runNode22([INSPECTOR, '--cli', process.execPath, CLI, 'connect', '--socket', shelf.socketPath, ...args], {
      cwd: ROOT,
      env: { HOME: root }, // the Inspector keeps a catalog under HOME; keep it out of the real one
    });
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    root = await makeTree({ 'docs/hello.md': '# Hello\n', 'data.bin': BIN });
    shelf = await startShelf([root]);
  });
  afterAll(async () => {
    await shelf.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('lists resources, reads a text and a binary file, lists templates', async () => {
    const list = (await inspect('--method', 'resources/list')) as { resources: Array<{ name: string; uri: string }> };
    expect(list.resources.map((r) => r.name)).toEqual(['data.bin', 'docs/hello.md']);
    const text = await inspect('--method', 'resources/read', '--uri', uriOf(root, 'docs/hello.md'));
    expect(text).toEqual({ contents: [{ uri: uriOf(root, 'docs/hello.md'), mimeType: 'text/markdown', text: '# Hello\n' }] });
    const bin = await inspect('--method', 'resources/read', '--uri', uriOf(root, 'data.bin'));
    expect(bin).toEqual({ contents: [{ uri: uriOf(root, 'data.bin'), mimeType: 'application/octet-stream', blob: BIN.toString('base64') }] });
    const templates = (await inspect('--method', 'resources/templates/list')) as { resourceTemplates: Array<{ uriTemplate: string }> };
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([`${uriOf(root, '')}/{+path}`]);
  }, 300_000);
});

describe('an SDK client over Streamable HTTP with the bearer token', () => {
  let root: string;
  let shelf: ShelfProcess;
  let client: Client;

  const connect = async (token: string | null, name = 'http-client') => {
    const c = new Client({ name, version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(shelf.http?.url as string), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    });
    await c.connect(transport);
    return c;
  };

  beforeAll(async () => {
    const files: Record<string, string | Buffer> = { 'watch.txt': 'v1', 'data.bin': BIN, 'big.txt': 'x'.repeat(5000) };
    for (let i = 0; i < 2500; i++) files[`many/${String(i).padStart(4, '0')}.txt`] = String(i);
    root = await makeTree(files);
    shelf = await startShelf([root], ['--http', '0', '--max-read-bytes', '4096']);
    client = await connect(shelf.http?.token ?? null);
  });
  afterAll(async () => {
    await client?.close();
    await shelf.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('is refused without the token (401) and from a foreign Host or Origin (403)', async () => {
    await expect(connect(null)).rejects.toThrow(/401|Unauthorized/);
    await expect(connect('wrong-token-wrong-token-wrong')).rejects.toThrow(/401|Unauthorized/);
    const url = new URL(shelf.http?.url as string);
    const http = await import('node:http');
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: url.port,
            path: '/mcp',
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${shelf.http?.token}`, ...headers },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    expect(await status({ host: `evil.example:${url.port}` })).toBe(403);
    expect(await status({ origin: 'http://evil.example' })).toBe(403);
    expect(await status({})).toBe(400); // allowed in, but not an initialize and no session
  });

  it('lists with pagination, reads text and blobs, and gives the same errors', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      names.push(...page.resources.map((r) => r.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).toHaveLength(2503);
    expect(names).toEqual([...names].sort());
    expect((await client.readResource({ uri: uriOf(root, 'watch.txt') })).contents[0]).toMatchObject({ text: 'v1' });
    expect((await client.readResource({ uri: uriOf(root, 'data.bin') })).contents[0]).toMatchObject({ blob: BIN.toString('base64') });
    const notFound = await client.readResource({ uri: 'file:///etc/passwd' }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(McpError);
    expect(notFound).toMatchObject({ code: -32602, data: { uri: 'file:///etc/passwd' } });
    await expect(client.readResource({ uri: uriOf(root, 'big.txt') })).rejects.toMatchObject({ code: 1004 });
    await expect(client.listResources({ cursor: '!!' })).rejects.toMatchObject({ code: -32602 });
  });

  it('delivers resources/updated and list_changed on the session’s GET stream', async () => {
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    await client.subscribeResource({ uri: uriOf(root, 'watch.txt') });
    await writeFile(path.join(root, 'watch.txt'), 'v2');
    await eventually(() => updated.includes(uriOf(root, 'watch.txt')), 5000, 'updated over HTTP');
    await writeFile(path.join(root, 'new.txt'), 'new');
    await eventually(() => listChanged > 0, 5000, 'list_changed over HTTP');
  });

  it('ends a session with DELETE', async () => {
    const c = await connect(shelf.http?.token ?? null, 'short-lived');
    const transport = c.transport as StreamableHTTPClientTransport;
    const sid = transport.sessionId as string;
    await transport.terminateSession();
    const res = await fetch(shelf.http?.url as string, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${shelf.http?.token}`,
        'mcp-session-id': sid,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(404);
    await c.close();
  });
});
