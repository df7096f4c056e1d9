import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { CLI, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = path.join(ROOT, '.venv-py', 'bin', 'python');
const SCRIPT = path.join(ROOT, 'test', 'integration', 'interop', 'python_subscribe.py');

if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run "npm run setup:python" (npm test does)`);

/**
 * A URI in another spelling than the listed one names the same file for
 * reads, and now for subscriptions and listens too; the update comes back in
 * the spelling the client used (clients match it exactly). Python's
 * Path.as_uri() writes `&` as `%26`; the server lists `&`.
 */
describe('subscriptions and listens by an equivalent URI spelling', () => {
  let root: string;
  let shelf: ShelfProcess;

  beforeAll(async () => {
    root = await makeTree({ 'r&d.txt': 'start\n', 'q&a.txt': 'start\n' });
    shelf = await startShelf([root], ['--http', '0']);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it.each([
    ['stdio', 'legacy', '2025-11-25'],
    ['stdio', '2026-07-28', '2026-07-28'],
    ['http', 'legacy', '2025-11-25'],
    ['http', '2026-07-28', '2026-07-28'],
  ])(
    'the Python SDK over %s in mode %s hears about a file it subscribed to by Path.as_uri()',
    async (kind, mode, revision) => {
      const [target, secret] = kind === 'stdio' ? [CLI, shelf.socketPath] : [shelf.http?.url as string, shelf.http?.token as string];
      const { stdout } = await run(PYTHON, [SCRIPT, kind, target, secret, mode, path.join(root, 'r&d.txt')], { timeout: 60_000 });
      const seen = JSON.parse(stdout) as { protocolVersion: string; subscribed: string; received: string[] };
      expect(seen.protocolVersion).toBe(revision);
      expect(seen.subscribed).toContain('r%26d.txt'); // not the listed spelling
      expect(seen.subscribed).not.toBe(uriOf(root, 'r&d.txt'));
      expect(seen.received).toEqual([seen.subscribed]);
    },
    90_000,
  );

  it.each([
    ['bridge', 'legacy'],
    ['bridge', 'modern'],
    ['http', 'legacy'],
    ['http', 'modern'],
  ] as const)(
    'the TypeScript v2 client over %s (%s) gets updates in each spelling it used',
    async (via, era) => {
      const listed = uriOf(root, 'q&a.txt');
      const encoded = listed.replace('q&a', 'q%26a');
      const withHost = encoded.replace('file:///', 'file://localhost/');
      const client = new Client(
        { name: `ts-${via}-${era}`, version: '2.0.0' },
        { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
      );
      const transport =
        via === 'bridge'
          ? new StdioClientTransport({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' })
          : new StreamableHTTPClientTransport(new URL(shelf.http?.url as string), {
              requestInit: { headers: { Authorization: `Bearer ${shelf.http?.token}` } },
            });
      await client.connect(transport);
      try {
        const heard: string[] = [];
        client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
        if (era === 'modern') {
          const sub = await client.listen({ resourceSubscriptions: [encoded, withHost] });
          expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [encoded, withHost] });
        } else {
          await client.subscribeResource({ uri: encoded });
          await client.subscribeResource({ uri: withHost });
        }
        // Reads take either spelling too (they did before); the file is the same.
        expect((await client.readResource({ uri: encoded })).contents[0]).toMatchObject({ uri: encoded });
        const deadline = Date.now() + 30_000;
        for (let i = 0; heard.length < 2 && Date.now() < deadline; i++) {
          await appendFile(path.join(root, 'q&a.txt'), `change ${i}\n`);
          await new Promise((r) => setTimeout(r, 500));
        }
        expect(new Set(heard)).toEqual(new Set([encoded, withHost]));
        expect(heard).not.toContain(listed);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
