import { describe, expect, it } from 'vitest';

import type { InterceptedReply } from '../../../../../electron/core/transport/socketTransport.js';
import { pairsClosedAfterEach, requestLine, TransportPair } from '../../../../support/transportPair.js';

/**
 * SocketTransport's framing, in this process over a real Unix socket:
 * newline-delimited JSON cut anywhere by the network, bad lines answered
 * without the SDK, and an oversized line refused. `test/echo` requests are
 * answered by an interceptor, so a test can tell when everything before one
 * has been handled (replies go out in order).
 */

const echo = (request: { method: string; params?: unknown }): Promise<InterceptedReply> | null =>
  request.method === 'test/echo' ? Promise.resolve({ result: { echo: request.params ?? null } }) : null;

const open = pairsClosedAfterEach({ intercept: echo });

/** Sends an echo and waits for its reply: every line sent before it has been handled by then. */
async function settled(pair: TransportPair, id: string): Promise<void> {
  await pair.write(requestLine(id, 'test/echo'));
  await pair.client.waitFor((m) => m.id === id);
}

describe('SocketTransport framing', () => {
  it('hands on a message cut into chunks, a character’s bytes split between two of them, once and whole', async () => {
    const pair = await open();
    const message = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///notes/caf%C3%A9.md', note: 'prix: 12 € — ok' } };
    const bytes = Buffer.from(`${JSON.stringify(message)}\n`);
    const euro = bytes.indexOf(Buffer.from('€'));
    // Three chunks: inside "jsonrpc", between the first and second byte of €, and the rest.
    for (const [from, to] of [
      [0, 5],
      [5, euro + 1],
      [euro + 1, bytes.length],
    ] as const) {
      expect(pair.received).toEqual([]);
      await pair.write(bytes.subarray(from, to));
    }
    await pair.receivedCount(1);
    expect(pair.received).toEqual([message]);
    await settled(pair, 'done');
    expect(pair.received).toEqual([message]);
  });

  it('hands on the lines of one chunk one by one, in order, skipping blank ones', async () => {
    const pair = await open();
    const messages = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    await pair.write(`${JSON.stringify(messages[0])}\n\n${JSON.stringify(messages[1])}\n \r\n${JSON.stringify(messages[2])}\n`);
    await settled(pair, 'done');
    expect(pair.received).toEqual(messages);
    // Blank lines get no answer (not even a parse error): the echo's is the only reply.
    expect(pair.client.messages.map((m) => m.id)).toEqual(['done']);
  });

  it('takes CRLF line ends: the message is handed on, and the wire log keeps its text without the CR', async () => {
    const pair = await open();
    const message = { jsonrpc: '2.0', method: 'notifications/initialized' };
    await pair.write(`${JSON.stringify(message)}\r\n${requestLine('crlf', 'test/echo').replace('\n', '\r\n')}`);
    await pair.client.waitFor((m) => m.id === 'crlf');
    expect(pair.received).toEqual([message]);
    expect(pair.incoming.map((l) => l.text)).toEqual([JSON.stringify(message), requestLine('crlf', 'test/echo').trimEnd()]);
    expect(pair.client.messages).toEqual([{ jsonrpc: '2.0', id: 'crlf', result: { echo: null } }]);
  });

  it('answers a line that is not JSON, a batch and a malformed request itself, and the connection goes on', async () => {
    const pair = await open();
    await pair.write('this is not json\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n{"jsonrpc":"2.0","id":7,"method":5}\n');
    await settled(pair, 'after');
    expect(pair.client.messages).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: batches are not supported' } },
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request' } },
      { jsonrpc: '2.0', id: 'after', result: { echo: null } },
    ]);
    // None of them reached the SDK.
    expect(pair.received).toEqual([]);
    expect(pair.closes).toBe(0);
  });

  it('takes a line of exactly the limit, and refuses one over it before its end arrives: the error, then the connection closes', async () => {
    const pair = await open({ maxLineBytes: 1000 });
    const head = '{"jsonrpc":"2.0","method":"notifications/x","params":{"pad":"';
    const exact = `${head}${'a'.repeat(1000 - head.length - 3)}"}}`;
    expect(Buffer.byteLength(exact)).toBe(1000);
    await pair.write(`${exact}\n`);
    await pair.receivedCount(1);
    // 1,500 bytes and no newline: the client is still sending its line.
    pair.client.send(`${head}${'b'.repeat(1500)}`);
    await pair.client.waitClosed();
    expect(pair.client.messages).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Message too large; closing the connection' } }]);
    expect(pair.protocolErrors).toHaveLength(1);
    expect(pair.protocolErrors[0]).toMatch(/^message over 1000 bytes \(\d+\+\); connection closed$/);
    expect(pair.received).toHaveLength(1);
    await expect.poll(() => pair.closes).toBe(1);
  });

  it('hands on nothing after an oversized line, even complete lines in the same chunk', async () => {
    const pair = await open({ maxLineBytes: 200 });
    pair.client.send(`${'x'.repeat(300)}\n${requestLine('late', 'test/echo')}${requestLine(2, 'tools/list')}`);
    await pair.client.waitClosed();
    expect(pair.client.messages.map((m) => m.error?.code)).toEqual([-32600]);
    expect(pair.received).toEqual([]);
  });
});
