import { rm } from 'node:fs/promises';
import net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { rssMiB, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

const init = (id: number | string) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow', version: '1' } } })}\n`;

describe.runIf(process.platform === 'linux')('slow and broken clients', () => {
  let root: string;
  let shelf: ShelfProcess;
  let bystander: RawClient;

  beforeAll(async () => {
    root = await makeTree({ 'big.bin': Buffer.alloc(1024 * 1024, 7), 'small.txt': 'small' });
    shelf = await startShelf([root]);
    bystander = await RawClient.initialized(shelf.socketPath);
  });
  afterAll(async () => {
    bystander?.close();
    expect(await shelf.stop()).toBe(0);
    await rm(root, { recursive: true, force: true });
  });

  const bystanderOk = async () => {
    const r = await bystander.request('resources/read', { uri: uriOf(root, 'small.txt') });
    expect(r.result).toEqual({ contents: [{ uri: uriOf(root, 'small.txt'), mimeType: 'text/plain', text: 'small' }] });
  };

  it('a client that never reads cannot grow the server’s memory without bound', async () => {
    const pid = shelf.proc.pid as number;
    const before = await rssMiB(pid);
    const sock = net.connect(shelf.socketPath);
    await new Promise((r) => sock.once('connect', r));
    sock.pause(); // never read a byte
    sock.on('error', () => undefined); // the server may cut it off (a reset, as it never read)
    sock.write(init(0));
    const read = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: uriOf(root, 'big.bin') } });
    // 400 reads of 1 MiB: ~560 MB of replies if the server buffered them all.
    for (let i = 0; i < 400; i++) sock.write(`${read.replace('"id":1', `"id":${i + 1}`)}\n`);
    await new Promise((r) => setTimeout(r, 3000));
    const after = await rssMiB(pid);
    expect(after - before).toBeLessThan(200);
    await bystanderOk();
    sock.destroy();
  });

  it('a client that disconnects mid-response leaves the others served', async () => {
    for (let i = 0; i < 20; i++) {
      const sock = net.connect(shelf.socketPath);
      await new Promise((r) => sock.once('connect', r));
      sock.write(init(0));
      sock.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: uriOf(root, 'big.bin') } })}\n`);
      await new Promise((r) => setTimeout(r, i % 3));
      sock.destroy();
    }
    await bystanderOk();
  });

  it('a client sending a byte at a time is answered in the end, and blocks no one meanwhile', async () => {
    const sock = net.connect(shelf.socketPath);
    await new Promise((r) => sock.once('connect', r));
    let out = '';
    sock.on('data', (d: Buffer) => (out += d.toString()));
    const message = init('slow');
    for (let i = 0; i < message.length; i++) {
      sock.write(message[i] as string);
      if (i % 40 === 0) await bystanderOk(); // others are served between its bytes
      await new Promise((r) => setTimeout(r, 5));
    }
    await eventually(() => out.includes('"id":"slow"'), 5000, 'the slow client’s answer');
    sock.destroy();
  });
});

describe('in-flight limit', () => {
  it('cancelled requests free their slots: a client that cancels many is still served', async () => {
    const root = await makeTree({ 'x.txt': 'x' });
    const shelf = await startShelf([root]);
    try {
      const c = await RawClient.initialized(shelf.socketPath);
      // 40 requests the server will not answer once cancelled (more than the in-flight limit).
      for (let i = 0; i < 40; i++) {
        c.send({ jsonrpc: '2.0', id: `r${i}`, method: 'resources/read', params: { uri: uriOf(root, 'x.txt') } });
        c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: `r${i}`, reason: 'test' } });
      }
      const res = await c.request('ping');
      expect(res.result).toEqual({});
      c.close();
    } finally {
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});
