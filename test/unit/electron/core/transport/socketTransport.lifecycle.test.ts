import { describe, expect, it } from 'vitest';

import type { StreamedReply } from '../../../../../electron/core/transport/socketTransport.js';
import { eventually } from '../../../../support/fixtures.js';
import { deferred, heldReplies, pairsClosedAfterEach, requestLine } from '../../../../support/transportPair.js';

/**
 * How a SocketTransport ends, in this process over a real Unix socket: the
 * peer leaving mid-line, half-closing or vanishing while a reply is being
 * made, and the server closing; onclose once, later sends refused, and what
 * a reply holds released.
 */

const open = pairsClosedAfterEach();

const ping = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: 'hello' } };

/** A streamed reply that counts how often its body was started and it was closed. */
function countedStream() {
  const counts = { started: 0, closed: 0 };
  const reply: StreamedReply = {
    head: '{"text":"',
    body: (async function* () {
      counts.started++;
      yield Buffer.from('body');
    })(),
    tail: '"}',
    logged: () => ({ text: 'body' }),
    close: () => counts.closed++,
  };
  return { reply, counts };
}

describe('SocketTransport lifecycle', () => {
  it('a peer that ends mid-line: the half line is dropped, onclose is called once, sends are refused', async () => {
    const pair = await open();
    await pair.write('{"jsonrpc":"2.0","id":1,"method":"tools/li');
    pair.client.socket.end();
    await eventually(() => pair.closes === 1, 5000, 'onclose');
    expect(pair.received).toEqual([]);
    expect(pair.incoming).toEqual([]);
    expect(pair.protocolErrors).toEqual([]);
    await expect(pair.transport.send(ping)).rejects.toThrow('Connection closed');
    expect(pair.closes).toBe(1);
  });

  it('a peer that half-closes after its requests still gets every reply, then the connection ends', async () => {
    const pair = await open();
    pair.client.send(requestLine(1, 'tools/list'));
    pair.client.send(requestLine(2, 'tools/list'));
    pair.client.socket.end();
    await eventually(() => pair.received.length === 2, 5000, 'both requests handed on');
    // Answered after the peer's end (`echo … | mcp-shelf connect`): a reply made then was lost.
    await new Promise((r) => setTimeout(r, 100));
    expect(pair.closes).toBe(0);
    await pair.transport.send({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(pair.closes).toBe(0);
    await pair.transport.send({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
    await pair.client.waitFor((m) => m.id === 2);
    expect(pair.client.messages.map((m) => m.id)).toEqual([1, 2]);
    await pair.client.waitClosed();
    await eventually(() => pair.closes === 1, 5000, 'onclose');
  });

  it('a peer that half-closes gets a streamed reply whole, and the reply that waited behind it', async () => {
    const held = heldReplies();
    const pair = await open({ intercept: (request, cancel) => (request.method === 'resources/read' ? held.intercept(request, cancel) : null) });
    await pair.write(requestLine('big', 'resources/read'));
    await eventually(() => held.calls.length === 1, 5000, 'the read taken');
    pair.client.send(requestLine(2, 'tools/list'));
    pair.client.socket.end();
    await eventually(() => pair.received.length === 1, 5000, 'the second request handed on');
    const rest = deferred<void>();
    let started = false;
    const body = (async function* () {
      started = true;
      yield Buffer.from('x'.repeat(16 * 1024));
      await rest.promise;
      for (let i = 1; i < 64; i++) yield Buffer.from('x'.repeat(16 * 1024));
    })();
    held.calls[0]?.reply.resolve({ stream: { head: '{"text":"', body, tail: '"}', logged: () => ({}), close: () => undefined } });
    await eventually(() => started, 5000, 'the stream begun');
    await pair.transport.send({ jsonrpc: '2.0', id: 2, result: { tools: [] } }); // held behind the stream
    rest.resolve();
    await pair.client.waitFor((m) => m.id === 2);
    expect(pair.client.messages.map((m) => m.id)).toEqual(['big', 2]);
    expect((pair.client.messages[0]?.result as { text: string }).text.length).toBe(64 * 16 * 1024);
    await pair.client.waitClosed();
  });

  it('close(): the peer sees the end, onclose is called once (not again for the socket’s own close), sends are refused', async () => {
    const pair = await open();
    await pair.transport.send(ping);
    await pair.client.waitFor((m) => m.method === 'notifications/message');
    await pair.transport.close();
    expect(pair.closes).toBe(1);
    await pair.client.waitClosed();
    await eventually(() => pair.server.destroyed, 5000, 'the server socket closed');
    await pair.transport.close();
    expect(pair.closes).toBe(1);
    await expect(pair.transport.send(ping)).rejects.toThrow('Connection closed');
  });

  it('a request cancelled while its reply is being made gets no reply; what the reply holds is released', async () => {
    const { intercept, calls } = heldReplies();
    const pair = await open({ intercept });
    await pair.write(requestLine('slow', 'resources/read'));
    await eventually(() => calls.length === 1, 5000, 'the request taken');
    await pair.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow' } })}\n`);
    const stream = countedStream();
    calls[0]?.reply.resolve({ stream: stream.reply });
    await eventually(() => stream.counts.closed === 1, 5000, 'the reply released');
    expect(stream.counts.started).toBe(0);
    // The connection goes on: the next request is answered, and is the only reply.
    await pair.write(requestLine('next', 'resources/read'));
    await eventually(() => calls.length === 2, 5000, 'the next request taken');
    calls[1]?.reply.resolve({ result: { ok: true } });
    await pair.client.waitFor((m) => m.id === 'next');
    expect(pair.client.messages.map((m) => m.id)).toEqual(['next']);
  });

  it('a peer gone while its replies are being made: they meet a closed socket, nothing is thrown, what they hold is released, onclose once', async () => {
    const { intercept, calls } = heldReplies();
    const pair = await open({ intercept });
    await pair.write(requestLine(1, 'resources/read') + requestLine(2, 'resources/read'));
    await eventually(() => calls.length === 2, 5000, 'both requests taken');
    // A peer gone looks like one that half-closed until something is written (the FIN is all either sends).
    pair.client.close();
    const stream = countedStream();
    calls[0]?.reply.resolve({ stream: stream.reply });
    calls[1]?.reply.resolve({ result: { ok: true } });
    await eventually(() => stream.counts.closed === 1, 5000, 'the reply released');
    await eventually(() => pair.closes === 1, 5000, 'onclose');
    expect(pair.server.destroyed || !pair.server.writable).toBe(true);
  });
});
