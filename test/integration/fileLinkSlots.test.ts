import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_FILE_LINK_SERVES } from '../../electron/core/webhost/linkedFiles.js';
import { pdfWithText } from '../support/documents.js';
import { makeTree, uriOf } from '../support/fixtures.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';
import { connectWebApi, type WebApi } from '../support/webApi.js';

/** File links against the real `serve --ui`: how many are served at once, with readers that never read. */

const PYTHON = path.resolve('.venv-py', 'bin', 'python');
if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run "npm run setup:python" (npm test does)`);

/**
 * Opens N connections with a 4 KiB receive buffer and asks each for the path;
 * once every one has its answer begun (peeked, not read), prints the status
 * each got, and then reads nothing until stdin ends.
 */
const STALLED_READERS = `
import socket, sys
port, at, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
held = []
for _ in range(n):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(("GET %s HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % (at, port)).encode())
    held.append(s)
statuses = []
for s in held:
    head = b""
    while len(head) < 12:
        head = s.recv(12, socket.MSG_PEEK | socket.MSG_WAITALL)
    statuses.append(head[9:12].decode())
print(" ".join(sorted(statuses)), flush=True)
sys.stdin.read()
`;

function get(port: number, at: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: at, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('file links served at once', () => {
  let folder: string;
  let shelf: ShelfProcess;
  let api: WebApi;
  let port: number;

  beforeAll(async () => {
    const pdf = await pdfWithText(['Survey of the northern lakes']);
    // 6 MB: more than the stalled readers' buffers and the host's send buffer take, so their answers stay unfinished.
    folder = await makeTree({ 'big.pdf': Buffer.concat([Buffer.from(pdf), Buffer.from('\n%'), Buffer.alloc(6_000_000, 'x'), Buffer.from('\n')]) });
    shelf = await startShelf([folder], ['--ui', '--ui-port', '0']);
    api = await connectWebApi(shelf);
    port = Number(new URL(/window: (\S+)/.exec(shelf.stderr())?.[1] ?? '').port);
  });
  afterAll(async () => {
    await api?.close();
    await shelf?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const link = (rel: string) => api.call('fileLink', uriOf(folder, rel));

  it('serves a bounded number of links at once: readers that take nothing cannot hold the host’s memory', async () => {
    const at = (await link('big.pdf')) as string;
    // Readers that ask and never read, with a small fixed receive buffer: Linux grows a socket's
    // buffers up to tcp_rmem's maximum (32 MiB here), enough to take a whole 6 MB response and free
    // its slot. And each has its answer before this test asks: a request of its own made while they
    // were still arriving took a slot one of them would have held.
    const n = 3 * MAX_FILE_LINK_SERVES;
    const stalled = spawn(PYTHON, ['-c', STALLED_READERS, String(port), at, String(n)], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const answered = await new Promise<string>((resolve, reject) => {
        stalled.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
        stalled.once('exit', (code) => reject(new Error(`stalled readers exited with ${code}`)));
      });
      // The first few are served (their answers unfinished: they hold their slots), the rest turned away.
      expect(answered).toBe([...Array<string>(MAX_FILE_LINK_SERVES).fill('200'), ...Array<string>(n - MAX_FILE_LINK_SERVES).fill('503')].join(' '));
      const busy = await get(port, at);
      expect(busy.status).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
    } finally {
      stalled.stdin.end(); // they go
      await new Promise((r) => (stalled.exitCode !== null ? r(null) : stalled.once('exit', r)));
    }
    // Their slots come back when they go.
    await expect.poll(async () => (await get(port, at)).status, { timeout: 20_000 }).toBe(200);
  });
});
