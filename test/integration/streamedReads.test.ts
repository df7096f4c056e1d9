import { appendFile, rm, truncate } from 'node:fs/promises';
import net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

// Files over 256 KiB are streamed to socket clients in chunks; these check that
// what arrives is exactly what a whole reply would have been.
const MiB = 1024 * 1024;

/** Text that crosses every chunk boundary with multi-byte characters and characters JSON must escape. */
function awkwardText(bytes: number): string {
  const unit = 'plain ascii, "quotes", back\\slash, tab\t, newline\n, é, 漢字, 🙂 emoji; ';
  return unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));
}

function binary(bytes: number): Buffer {
  const b = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) b[i] = (i * 131 + (i >> 8)) & 0xff;
  return b;
}

/** A socket client reading replies as raw lines (no string concatenation of megabytes). */
async function rawLines(socketPath: string): Promise<{ sock: net.Socket; lines: Buffer[]; closed: () => boolean }> {
  const sock = net.connect(socketPath);
  await new Promise((r) => sock.once('connect', r));
  const lines: Buffer[] = [];
  let pending: Buffer[] = [];
  let closed = false;
  sock.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      lines.push(Buffer.concat([...pending, chunk.subarray(start, nl)]));
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  sock.on('close', () => (closed = true));
  sock.on('error', () => undefined);
  return { sock, lines, closed: () => closed };
}

const readRequest = (id: number | string, uri: string) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } })}\n`;

describe('large reads are streamed', () => {
  let root: string;
  let shelf: ShelfProcess;
  let client: RawClient;
  const text = awkwardText(3 * MiB + 17);
  const bin = binary(3 * MiB + 2); // not a multiple of 3: base64 padding at the very end

  beforeAll(async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('UTF-16 text ✓ '.repeat(90_000), 'utf16le')]);
    const lateNul = Buffer.concat([Buffer.from('a'.repeat(2 * MiB)), Buffer.from([0]), Buffer.from('tail')]);
    const lateBadUtf8 = Buffer.concat([Buffer.from('b'.repeat(2 * MiB)), Buffer.from([0xc3, 0x28]), Buffer.from('tail')]);
    root = await makeTree({ 'big.txt': text, 'big.bin': bin, 'utf16.txt': utf16, 'late-nul.dat': lateNul, 'late-bad.dat': lateBadUtf8, 'small.txt': 'small' });
    shelf = await startShelf([root], ['--max-read-bytes', String(64 * MiB)]);
    client = await RawClient.initialized(shelf.socketPath);
  });
  afterAll(async () => {
    client?.close();
    expect(await shelf.stop()).toBe(0);
    await rm(root, { recursive: true, force: true });
  });

  it('sends a large text file exactly, escapes and multi-byte characters included', async () => {
    const reply = await client.request('resources/read', { uri: uriOf(root, 'big.txt') });
    expect(reply.result).toEqual({ contents: [{ uri: uriOf(root, 'big.txt'), mimeType: 'text/plain', text }] });
  });

  it('sends a large binary file as base64 that decodes to the same bytes', async () => {
    const reply = await client.request('resources/read', { uri: uriOf(root, 'big.bin') });
    const [c] = (reply.result as { contents: Array<{ blob: string; mimeType: string }> }).contents;
    expect(c?.mimeType).toBe('application/octet-stream');
    expect(Buffer.from(c?.blob ?? '', 'base64').equals(bin)).toBe(true);
  });

  it('decides text or blob from the whole file, as for a small one', async () => {
    const utf16 = await client.request('resources/read', { uri: uriOf(root, 'utf16.txt') });
    expect((utf16.result as { contents: Array<{ text: string }> }).contents[0]?.text).toBe('UTF-16 text ✓ '.repeat(90_000));
    for (const name of ['late-nul.dat', 'late-bad.dat']) {
      const r = await client.request('resources/read', { uri: uriOf(root, name) });
      expect(Object.keys((r.result as { contents: object[] }).contents[0] ?? {})).toContain('blob');
    }
  });

  it('the SDK client over `mcp-shelf connect` reads a streamed file', async () => {
    const sdk = await connectSdkClient(shelf.socketPath, 'stream-test');
    try {
      const r = await sdk.readResource({ uri: uriOf(root, 'big.txt') });
      expect(r.contents[0]).toEqual({ uri: uriOf(root, 'big.txt'), mimeType: 'text/plain', text });
    } finally {
      await sdk.close();
    }
  });

  it('other replies on the same connection never land inside a streamed one', async () => {
    const c = await rawLines(shelf.socketPath);
    c.sock.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mix', version: '1' } } })}\n`,
    );
    for (let i = 1; i <= 6; i++) {
      c.sock.write(readRequest(i, uriOf(root, i % 2 ? 'big.bin' : 'big.txt')));
      c.sock.write(readRequest(`s${i}`, uriOf(root, 'small.txt')));
      c.sock.write(`${JSON.stringify({ jsonrpc: '2.0', id: `p${i}`, method: 'ping' })}\n`);
    }
    await eventually(() => c.lines.length >= 19, 20_000, 'all 19 replies');
    const replies = c.lines.map((l) => JSON.parse(l.toString('utf8')) as { id: unknown; result?: { contents?: Array<{ text?: string; blob?: string }> } });
    expect(replies.map((r) => r.id).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 's1', 's2', 's3', 's4', 's5', 's6'].sort());
    for (const r of replies.filter((x) => typeof x.id === 'number' && x.id > 0)) {
      const content = r.result?.contents?.[0];
      if ((r.id as number) % 2) expect(Buffer.from(content?.blob ?? '', 'base64').equals(bin)).toBe(true);
      else expect(content?.text).toBe(text);
    }
    c.sock.destroy();
  });

  it('a file that shrinks while it is being sent closes that connection only', async () => {
    const victim = 'shrinks.bin';
    await appendFile(`${root}/${victim}`, binary(8 * MiB));
    await eventually(async () => (await client.request('resources/read', { uri: uriOf(root, victim) })).result !== undefined, 5000, 'the file to be indexed');
    const c = await rawLines(shelf.socketPath);
    c.sock.pause(); // read nothing: the server stops after the first chunks, waiting for the socket to drain
    c.sock.write(readRequest(1, uriOf(root, victim)));
    await eventually(() => c.sock.readableLength > 0, 5000, 'the reply to have begun'); // not a sleep: on a busy machine it may begin late
    await truncate(`${root}/${victim}`, MiB);
    c.sock.resume();
    await eventually(() => c.closed(), 10_000, 'the connection to be closed');
    expect(c.lines.length).toBe(0); // never a complete reply mixing two versions
    expect(shelf.stderr()).toMatch(/changed while its reply was being sent; connection closed/);
    const other = await client.request('resources/read', { uri: uriOf(root, 'small.txt') });
    expect(other.result).toBeDefined();
  });

  it('a file that only grows while it is sent arrives as it was when the read began', async () => {
    const grower = 'grows.log';
    const start = binary(4 * MiB);
    await appendFile(`${root}/${grower}`, start);
    await eventually(async () => (await client.request('resources/read', { uri: uriOf(root, grower) })).result !== undefined, 5000, 'the file to be indexed');
    const c = await rawLines(shelf.socketPath);
    c.sock.pause();
    c.sock.write(readRequest(7, uriOf(root, grower)));
    await eventually(() => c.sock.readableLength > 0, 5000, 'the reply to have begun');
    await appendFile(`${root}/${grower}`, binary(MiB));
    c.sock.resume();
    await eventually(() => c.lines.length === 1, 10_000, 'the reply');
    const reply = JSON.parse(c.lines[0]?.toString('utf8') ?? '{}') as { result: { contents: Array<{ blob: string }> } };
    expect(Buffer.from(reply.result.contents[0]?.blob ?? '', 'base64').equals(start)).toBe(true);
    c.sock.destroy();
  });

  it('a cancelled large read gets no reply, and the connection goes on', async () => {
    const c = await RawClient.initialized(shelf.socketPath);
    // One write, so the cancel arrives with the request, before its reply can start.
    const cancel = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'gone', reason: 'test' } });
    c.send(`${readRequest('gone', uriOf(root, 'big.bin'))}${cancel}\n`);
    const ping = await c.request('ping');
    expect(ping.result).toEqual({});
    await new Promise((r) => setTimeout(r, 300));
    expect(c.messages.some((m) => m.id === 'gone')).toBe(false);
    c.close();
  });
});
