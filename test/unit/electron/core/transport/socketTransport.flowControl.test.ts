import { describe, expect, it } from 'vitest';

import { MemoryBudget } from '../../../../../electron/core/clientMemory/memoryBudget.js';
import {
  type InterceptedReply,
  MAX_IN_FLIGHT,
  QUEUE_PAUSE,
  QUEUE_PAUSE_BYTES,
  type StreamedReply,
} from '../../../../../electron/core/transport/socketTransport.js';
import { eventually } from '../../../../support/fixtures.js';
import { deferred, heldReplies, pairsClosedAfterEach, requestLine } from '../../../../support/transportPair.js';

/**
 * SocketTransport's flow control, in this process over a real Unix socket:
 * how many requests it works on at once, when it stops reading a client,
 * what it holds for one that stops reading its replies, and when it cuts it
 * off. Bounds are asserted on what the server's socket read and keeps
 * unsent, never on time.
 */

const open = pairsClosedAfterEach();

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
const notification = (data: string) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data } });

describe('requests worked on at once', () => {
  it(`takes ${MAX_IN_FLIGHT} requests at a time; the next is taken as soon as one is answered`, async () => {
    const { intercept, calls } = heldReplies();
    const pair = await open({ intercept });
    await pair.write(Array.from({ length: 40 }, (_, i) => requestLine(i + 1, 'resources/read')).join(''));
    // All 40 lines are in; only the first MAX_IN_FLIGHT were taken.
    expect(calls.map((c) => c.id)).toEqual(Array.from({ length: MAX_IN_FLIGHT }, (_, i) => i + 1));
    calls[0]?.reply.resolve({ result: { n: 1 } });
    await eventually(() => calls.length === MAX_IN_FLIGHT + 1, 5000, 'the next request taken');
    expect(calls.at(-1)?.id).toBe(MAX_IN_FLIGHT + 1);
    // Answer everything as it comes: all 40 get their reply.
    for (let answered = 1; answered < 40; answered++) {
      await eventually(() => calls.length > answered, 5000, `request ${answered + 1} taken`);
      calls[answered]?.reply.resolve({ result: { n: answered + 1 } });
    }
    await eventually(() => pair.client.messages.length === 40, 5000, 'all 40 replies');
    expect(pair.client.messages.map((m) => m.id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('a cancel goes past requests waiting for a slot: it frees one while all are held (16 reads waiting on asks)', async () => {
    const { intercept, calls } = heldReplies();
    const pair = await open({ intercept });
    await pair.write(Array.from({ length: MAX_IN_FLIGHT + 2 }, (_, i) => requestLine(i + 1, 'resources/read')).join(''));
    expect(calls).toHaveLength(MAX_IN_FLIGHT);
    // Nothing is answered; the client gives up on its first request.
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    await pair.write(`${JSON.stringify(cancel)}\n`);
    await eventually(() => calls.length === MAX_IN_FLIGHT + 1, 5000, 'the slot the cancel freed taken');
    expect(calls.at(-1)?.id).toBe(MAX_IN_FLIGHT + 1);
    expect(pair.received).toContainEqual(cancel); // handed on, for the SDK to abort the work
    // The fast path's work is told too (an ask it waits on is withdrawn); the others are not.
    expect(calls.filter((c) => c.cancelled).map((c) => c.id)).toEqual([1]);
    // A request that only mentions the method keeps its place in line.
    await pair.write(requestLine('x', 'resources/read', { uri: 'file:///x', _meta: { method: 'notifications/cancelled' } }));
    await turns(5);
    expect(calls.map((c) => c.id)).not.toContain('x');
    calls[1]?.reply.resolve({ result: {} });
    await eventually(() => calls.length === MAX_IN_FLIGHT + 2, 5000, 'the next in line taken');
    expect(calls.at(-1)?.id).toBe(MAX_IN_FLIGHT + 2);
  });

  it('a cancel of a request still waiting for a slot keeps its place behind it: the request is not answered', async () => {
    const { intercept, calls } = heldReplies();
    const pair = await open({ intercept: (request, cancel) => (request.method === 'resources/read' ? intercept(request, cancel) : null) });
    await pair.write(Array.from({ length: MAX_IN_FLIGHT }, (_, i) => requestLine(i + 1, 'resources/read')).join(''));
    await pair.write(requestLine('queued-read', 'resources/read') + requestLine('queued-sdk', 'tools/list'));
    expect(calls).toHaveLength(MAX_IN_FLIGHT);
    // The client gives up on both waiting requests: had the cancels jumped the
    // queue, they would name nothing yet, and both would run and be answered.
    const cancels = ['queued-read', 'queued-sdk'].map((requestId) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } }));
    await pair.write(cancels.map((c) => `${JSON.stringify(c)}\n`).join(''));
    await turns(5);
    expect(pair.received).toEqual([]);
    for (const call of calls.slice(0, 3)) call.reply.resolve({ result: {} }); // slots for both, and the cancels after them
    await eventually(() => pair.received.length === 3, 5000, 'the SDK request and both cancels handed on');
    // The SDK sees the request before its cancel (which then aborts it).
    const sdkCancel = pair.received.findIndex((m) => JSON.stringify(m) === JSON.stringify(cancels[1]));
    expect(pair.received.findIndex((m) => 'id' in m && m.id === 'queued-sdk')).toBeLessThan(sdkCancel);
    // The read taken by the fast path is answered, but its reply is dropped: it was cancelled.
    await eventually(() => calls.length === MAX_IN_FLIGHT + 1, 5000, 'the queued read taken');
    calls.at(-1)?.reply.resolve({ result: { late: true } });
    await pair.client.waitFor((m) => m.id === 3);
    await turns(10);
    expect(pair.client.messages.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('a request named notifications/cancelled (it has an id) cancels nothing: it frees no slot and drops no reply', async () => {
    const { intercept, calls } = heldReplies();
    const pair = await open({ intercept: (request, cancel) => (request.method === 'resources/read' ? intercept(request, cancel) : null) });
    await pair.write(Array.from({ length: MAX_IN_FLIGHT - 1 }, (_, i) => requestLine(i + 1, 'resources/read')).join(''));
    // The SDK answers it as an unknown method, and the read it names goes on. Taken as a cancel, it
    // freed the read's slot while the read went on: a client could run any number of reads at once.
    await pair.write(requestLine('fake', 'notifications/cancelled', { requestId: 1 }));
    await pair.receivedCount(1);
    await pair.write(requestLine('next', 'resources/read'));
    await turns(5);
    expect(calls).toHaveLength(MAX_IN_FLIGHT - 1); // the read and the "cancel" fill the slots
    calls[0]?.reply.resolve({ result: { n: 1 } });
    await pair.client.waitFor((m) => m.id === 1); // answered: it was never cancelled
    expect(calls[0]?.cancelled).toBe(false);
    await eventually(() => calls.length === MAX_IN_FLIGHT, 5000, 'the next read taken once the first is answered');
    expect(calls.at(-1)?.id).toBe('next');
  });

  it('counts requests handed to the SDK until their reply is sent or they are cancelled; a listen holds no slot', async () => {
    const pair = await open();
    await pair.write(Array.from({ length: MAX_IN_FLIGHT + 1 }, (_, i) => requestLine(`r${i}`, 'tools/list')).join(''));
    await pair.receivedCount(MAX_IN_FLIGHT);
    await turns(5);
    expect(pair.received).toHaveLength(MAX_IN_FLIGHT);
    // A reply frees its request's slot: the one waiting is taken.
    await pair.transport.send({ jsonrpc: '2.0', id: 'r0', result: { tools: [] } });
    await pair.receivedCount(MAX_IN_FLIGHT + 1);
    expect(pair.received.at(-1)).toMatchObject({ id: `r${MAX_IN_FLIGHT}` });
    // A reply to an id never asked frees nothing.
    await pair.transport.send({ jsonrpc: '2.0', id: 'nobody', result: {} });
    // With one slot free, a cancel (handed on too, for the SDK to abort the work) frees another: both requests after it are taken.
    await pair.transport.send({ jsonrpc: '2.0', id: 'r2', result: { tools: [] } });
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'r1' } };
    await pair.write(`${JSON.stringify(cancel)}\n${requestLine('a', 'tools/list')}${requestLine('b', 'tools/list')}`);
    await pair.receivedCount(MAX_IN_FLIGHT + 4);
    await turns(5);
    expect(pair.received.slice(MAX_IN_FLIGHT + 1)).toEqual([
      cancel,
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
    ]);
    // And now the slots are full again.
    await pair.write(requestLine('c', 'tools/list'));
    await turns(5);
    expect(pair.received).toHaveLength(MAX_IN_FLIGHT + 4);

    // Listens stay open until cancelled, and take no slot: all of them are handed on.
    const listens = await open();
    await listens.write(Array.from({ length: MAX_IN_FLIGHT * 2 }, (_, i) => requestLine(i, 'subscriptions/listen', {})).join(''));
    await listens.receivedCount(MAX_IN_FLIGHT * 2);
  });

  it('keeps the ids 1 and "1" apart: the reply to one frees only its own slot', async () => {
    const pair = await open();
    const ids = [1, '1', ...Array.from({ length: MAX_IN_FLIGHT - 2 }, (_, i) => `x${i}`)];
    await pair.write(`${ids.map((id) => requestLine(id, 'tools/list')).join('')}${requestLine('next', 'tools/list')}`);
    await pair.receivedCount(MAX_IN_FLIGHT);
    await pair.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await pair.receivedCount(MAX_IN_FLIGHT + 1);
    // "1" is still open: a second reply to 1 frees nothing more.
    await pair.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await pair.write(requestLine('after', 'tools/list'));
    await turns(5);
    expect(pair.received.map((m) => ('id' in m ? m.id : null)).slice(MAX_IN_FLIGHT)).toEqual(['next']);
    await pair.transport.send({ jsonrpc: '2.0', id: '1', result: {} });
    await pair.receivedCount(MAX_IN_FLIGHT + 2);
  });
});

describe('a client sending faster than its requests are served', () => {
  it(`stops reading it once ${QUEUE_PAUSE} lines wait, so the server holds a bounded part of what it sends; reads on when they are served`, async () => {
    const waiting: Array<(reply: InterceptedReply) => void> = [];
    let hold = true;
    let taken = 0;
    const pair = await open({
      intercept: () => {
        taken++;
        return hold ? new Promise<InterceptedReply>((resolve) => waiting.push(resolve)) : Promise.resolve({ result: {} });
      },
    });
    const pad = 'p'.repeat(1000);
    const lines = 3000;
    // ~3 MB of requests in one go; none is answered yet.
    pair.client.send(Array.from({ length: lines }, (_, i) => requestLine(i, 'resources/read', { pad })).join(''));
    await eventually(() => pair.server.isPaused(), 5000, 'the server to stop reading the client');
    await turns(20);
    expect(taken).toBe(MAX_IN_FLIGHT);
    // What the server read is bounded (the waiting lines and a chunk or two); the rest waits in the client and the kernel.
    expect(pair.server.bytesRead).toBeLessThan(1024 * 1024);
    expect(pair.client.socket.writableLength).toBeGreaterThan(0);

    hold = false;
    for (const resolve of waiting.splice(0)) resolve({ result: {} });
    await eventually(() => pair.client.messages.length === lines, 10_000, `all ${lines} replies (got ${pair.client.messages.length})`);
    expect(taken).toBe(lines);
    expect(pair.client.messages.map((m) => m.id)).toEqual(Array.from({ length: lines }, (_, i) => i));
  });
});

describe('lines waiting for a slot, in bytes', () => {
  it(`stops reading it once ${QUEUE_PAUSE_BYTES / 1024 / 1024} MiB of lines wait, however few they are; what waits counts in the memory budget and is given back`, async () => {
    const waiting: Array<(reply: InterceptedReply) => void> = [];
    const memory = new MemoryBudget().account();
    const pair = await open({ memory, intercept: () => new Promise<InterceptedReply>((resolve) => waiting.push(resolve)) });
    const pad = 'p'.repeat(1024 * 1024 - 100);
    // 40 lines of 1 MiB, far fewer than the 256 lines that pause it by number.
    pair.client.send(Array.from({ length: 40 }, (_, i) => requestLine(i, 'resources/read', { pad })).join(''));
    await eventually(() => pair.server.isPaused(), 5000, 'the server to stop reading the client');
    await turns(20);
    expect(waiting).toHaveLength(MAX_IN_FLIGHT);
    // The slots' lines, the 4 MiB waiting, an unfinished line and a chunk; before, all 40 MiB were read and kept.
    expect(pair.server.bytesRead).toBeLessThan(MAX_IN_FLIGHT * 1024 * 1024 + 10 * 1024 * 1024);
    expect(memory.of('input')).toBeGreaterThanOrEqual(QUEUE_PAUSE_BYTES - 1024 * 1024);
    expect(memory.of('input')).toBeLessThan(QUEUE_PAUSE_BYTES + 5 * 1024 * 1024);
    for (const resolve of waiting.splice(0)) resolve({ result: {} });
    await eventually(
      () => {
        for (const resolve of waiting.splice(0)) resolve({ result: {} });
        return pair.client.messages.length === 40;
      },
      20_000,
      'all 40 replies',
    );
    expect(memory.of('input')).toBe(0);
  });
});

describe('a client that stops reading its replies', () => {
  it('is not given more work once its output backs up: requests taken and bytes kept unsent stay bounded; all is answered, in order, when it reads', async () => {
    const blob = 'b'.repeat(64 * 1024);
    let taken = 0;
    const pair = await open({
      intercept: () => {
        taken++;
        return Promise.resolve({ result: { blob } });
      },
    });
    pair.client.socket.pause(); // reads nothing
    const requests = 200; // 12.8 MB of replies if all were made
    await pair.write(Array.from({ length: requests }, (_, i) => requestLine(i, 'resources/read')).join(''));
    await eventually(() => pair.server.writableNeedDrain, 5000, 'output to back up');
    await turns(20);
    // The requests in flight and the replies the kernel's buffer took before write() said stop (~20 here), far from all 200.
    expect(taken).toBeLessThan(requests / 2);
    expect(pair.server.writableLength).toBeLessThan(4 * 1024 * 1024);
    expect(pair.server.destroyed).toBe(false);

    pair.client.socket.resume();
    await eventually(() => pair.client.messages.length === requests, 10_000, `all ${requests} replies (got ${pair.client.messages.length})`);
    expect(pair.client.messages.map((m) => m.id)).toEqual(Array.from({ length: requests }, (_, i) => i));
    expect(pair.client.messages.every((m) => (m.result as { blob: string }).blob.length === blob.length)).toBe(true);
  });

  it('is cut off when more than maxPendingWriteBytes wait unsent: told why, onclose called, later sends refused', async () => {
    const pair = await open({ maxPendingWriteBytes: 256 * 1024, stallTimeoutMs: 600_000 });
    pair.client.socket.pause();
    const piece = 'n'.repeat(64 * 1024);
    let sent = 0;
    while (!pair.server.destroyed && sent < 200) {
      await pair.transport.send(notification(piece)).catch(() => undefined);
      sent++;
    }
    expect(pair.server.destroyed).toBe(true);
    // Cut by the byte bound (the kernel's buffer, 256 KiB and one piece: ~8 here), not after all 200 (12.8 MB).
    expect(sent).toBeLessThan(100);
    expect(pair.protocolErrors).toEqual(['client is not reading its responses; connection closed']);
    await eventually(() => pair.closes === 1, 5000, 'onclose');
    await expect(pair.transport.send(notification('late'))).rejects.toThrow('Connection closed');
  });

  it('is never cut off for one reply larger than the bound, sent while nothing else waits', async () => {
    const pair = await open({ maxPendingWriteBytes: 256 * 1024, stallTimeoutMs: 600_000 });
    pair.client.socket.pause();
    const big = 'L'.repeat(8 * 1024 * 1024);
    await pair.transport.send(notification(big));
    expect(pair.server.writableLength).toBeGreaterThan(256 * 1024);
    await turns(5);
    expect(pair.server.destroyed).toBe(false);
    expect(pair.protocolErrors).toEqual([]);
    pair.client.socket.resume();
    const got = await pair.client.waitFor((m) => m.method === 'notifications/message');
    expect((got.params as { data: string }).data).toBe(big);
  });

  it('is cut off after reading nothing for the stall timeout, after its input was paused', async () => {
    const pair = await open({ stallTimeoutMs: 500 });
    pair.client.socket.pause(); // never reads
    const big = 'z'.repeat(1024 * 1024);
    // Output piles up until the kernel's buffers are full and write() reports backpressure.
    for (let i = 0; i < 20 && !pair.server.destroyed; i++) await pair.transport.send(notification(big)).catch(() => undefined);
    expect(pair.server.isPaused()).toBe(true);
    await eventually(() => pair.server.destroyed, 3000, 'the stalled connection to be closed');
    expect(pair.protocolErrors.join('\n')).toMatch(/stopped reading/); // the stall timer, not the 32 MiB cap
  });

  it('leaves no listener or timer behind after each time output backs up and drains', async () => {
    const pair = await open();
    const before = pair.server.listenerCount('close');
    const big = 'z'.repeat(256 * 1024);
    let backedUp = 0;
    for (let i = 0; i < 200; i++) {
      await pair.transport.send(notification(big));
      if (pair.server.writableNeedDrain) {
        backedUp++;
        await new Promise((r) => pair.server.once('drain', r));
      }
    }
    expect(backedUp).toBeGreaterThan(10);
    expect(pair.server.listenerCount('close') - before).toBeLessThanOrEqual(1);
  });
});

describe('a streamed reply', () => {
  /** A reply whose body gives `pieces` once `go` resolves, counting how often it is closed. */
  function streamedReply(pieces: string[], go: Promise<void>) {
    let closed = 0;
    const reply: StreamedReply = {
      head: '{"text":"',
      body: (async function* () {
        await go;
        for (const p of pieces) yield Buffer.from(p);
      })(),
      tail: '"}',
      logged: () => ({ text: '…' }),
      close: () => closed++,
    };
    return { reply, closed: () => closed };
  }

  it('goes out whole while other replies wait behind it, then those follow in order', async () => {
    const go = deferred<void>();
    const stream = streamedReply(['first ', 'second ', 'third'], go.promise);
    const written: unknown[] = [];
    const pair = await open({
      intercept: (request) => Promise.resolve<InterceptedReply>(request.method === 'test/stream' ? { stream: stream.reply } : { result: { echo: 1 } }),
      observer: { incoming: () => undefined, outgoing: (message) => written.push(message) },
    });
    await pair.write(requestLine('s', 'test/stream'));
    await pair.write(requestLine('e1', 'test/echo') + requestLine('e2', 'test/echo'));
    await turns(10);
    // The echoes were answered, but their replies wait: nothing has been written yet.
    expect(written).toEqual([]);
    go.resolve();
    await eventually(() => pair.client.messages.length === 3, 5000, 'three replies');
    expect(pair.client.messages).toEqual([
      { jsonrpc: '2.0', id: 's', result: { text: 'first second third' } },
      { jsonrpc: '2.0', id: 'e1', result: { echo: 1 } },
      { jsonrpc: '2.0', id: 'e2', result: { echo: 1 } },
    ]);
    expect(stream.closed()).toBe(1);
  });

  it('stops reading the client once more than 1 MiB of replies wait behind it, and reads on after it', async () => {
    const go = deferred<void>();
    const stream = streamedReply(['done'], go.promise);
    const pair = await open({ intercept: () => Promise.resolve<InterceptedReply>({ stream: stream.reply }) });
    await pair.write(requestLine('s', 'test/stream'));
    // 20,000 lines that are not JSON: ~1.5 MB of parse errors, which hold no request slot.
    const bad = 20_000;
    await pair.write('x\n'.repeat(bad));
    await eventually(() => pair.incoming.length > 10_000, 5000, 'lines handled');
    await new Promise((r) => setTimeout(r, 200));
    const handled = pair.incoming.length - 1;
    expect(handled).toBeLessThan(bad);
    go.resolve();
    await eventually(() => pair.client.messages.length === bad + 1, 10_000, `all replies (got ${pair.client.messages.length})`);
    expect(pair.client.messages[0]).toEqual({ jsonrpc: '2.0', id: 's', result: { text: 'done' } });
    expect(pair.client.messages.slice(1).every((m) => m.error?.code === -32700)).toBe(true);
  });
});
