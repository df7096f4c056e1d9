import { mkdtemp, rm } from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach } from 'vitest';

import { type ListeningSocket, listenSocket } from '../../electron/core/transport/socketServer.js';
import { type InterceptedReply, type Interceptor, SocketTransport, type SocketTransportOptions } from '../../electron/core/transport/socketTransport.js';
import { eventually } from './fixtures.js';
import { RawClient } from './rawClient.js';

/** A promise and its resolve, for replies a test decides when to give. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * One SocketTransport on the server's end of a real Unix socket, accepted by
 * the product's own listener (listenSocket: same half-open and permission
 * settings as `mcp-shelf serve`), and a bare newline-JSON client on the other
 * end, all in this process. The transport's onmessage (what the SDK would
 * get) is recorded; nothing answers unless the test does (transport.send or
 * an `intercept` option).
 */
export class TransportPair {
  /** Messages handed on to the SDK, in order. */
  readonly received: JSONRPCMessage[] = [];
  readonly errors: Error[] = [];
  /** How often onclose was called. */
  closes = 0;

  private constructor(
    readonly transport: SocketTransport,
    /** The server's end of the socket, which the transport owns. */
    readonly server: net.Socket,
    readonly client: RawClient,
    /** Lines the transport read, as its wire observer saw them (message null: not JSON). */
    readonly incoming: Array<{ message: unknown; text: string | undefined }>,
    /** Why the transport cut the connection (onProtocolError). */
    readonly protocolErrors: string[],
    private readonly listening: ListeningSocket,
    private readonly dir: string,
  ) {}

  static async open(options: SocketTransportOptions = {}): Promise<TransportPair> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'transport-'));
    const incoming: Array<{ message: unknown; text: string | undefined }> = [];
    const protocolErrors: string[] = [];
    const accepted = deferred<{ transport: SocketTransport; socket: net.Socket }>();
    const listening = await listenSocket(path.join(dir, 's.sock'), (socket) => {
      const transport = new SocketTransport(socket, {
        ...options,
        observer: {
          incoming: (message, bytes, text) => {
            incoming.push({ message, text });
            options.observer?.incoming(message, bytes, text);
          },
          outgoing: (message, bytes, text, preview) => options.observer?.outgoing(message, bytes, text, preview),
        },
        onProtocolError: (message) => {
          protocolErrors.push(message);
          options.onProtocolError?.(message);
        },
      });
      accepted.resolve({ transport, socket });
    });
    const client = await RawClient.connect(listening.path);
    const { transport, socket } = await accepted.promise;
    const pair = new TransportPair(transport, socket, client, incoming, protocolErrors, listening, dir);
    transport.onmessage = (message) => pair.received.push(message);
    transport.onclose = () => pair.closes++;
    transport.onerror = (err) => pair.errors.push(err);
    await transport.start();
    return pair;
  }

  /** Writes raw bytes from the client and waits until the server has read them all (so the next write is a chunk of its own). */
  async write(data: string | Buffer): Promise<void> {
    const target = this.server.bytesRead + Buffer.byteLength(data);
    this.client.socket.write(data);
    await eventually(() => this.server.bytesRead >= target, 5000, `the server to read ${target} bytes`);
  }

  /** Waits until the transport has handed `n` messages on. */
  async receivedCount(n: number): Promise<void> {
    await eventually(() => this.received.length >= n, 5000, `${n} messages handed on (got ${this.received.length})`);
  }

  async close(): Promise<void> {
    this.client.close();
    this.server.destroy();
    await this.listening.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A request line as a client sends it. */
export const requestLine = (id: number | string, method: string, params?: unknown): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`;

export interface HeldCall {
  id: unknown;
  method: string;
  reply: Deferred<InterceptedReply>;
  /** Set when the transport tells the work its client cancelled it. */
  cancelled: boolean;
}

/** An interceptor that takes every request and answers each when the test resolves its `reply`. */
export function heldReplies(): { intercept: Interceptor; calls: HeldCall[] } {
  const calls: HeldCall[] = [];
  return {
    calls,
    intercept: (request, cancel) => {
      const reply = deferred<InterceptedReply>();
      const call: HeldCall = { id: (request as { id?: unknown }).id, method: request.method, reply, cancelled: false };
      cancel.onCancel(() => (call.cancelled = true));
      calls.push(call);
      return reply.promise;
    },
  };
}

/** `open` for a suite (`defaults` under each test's options): each pair it opens is closed after the test that opened it. */
export function pairsClosedAfterEach(defaults: SocketTransportOptions = {}): (options?: SocketTransportOptions) => Promise<TransportPair> {
  const pairs: TransportPair[] = [];
  afterEach(async () => {
    for (const pair of pairs.splice(0)) await pair.close();
  });
  return async (options = {}) => {
    const pair = await TransportPair.open({ ...defaults, ...options });
    pairs.push(pair);
    return pair;
  };
}
