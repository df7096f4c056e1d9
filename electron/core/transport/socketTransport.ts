import type { Socket } from 'node:net';

import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';

import { ErrorCodes, MAX_LINE_BYTES } from '../../../shared/errorCodes.js';
import { LineFramer } from './lineFramer.js';

/**
 * Sees every message on the wire, both ways, with its size in bytes and, when
 * the transport has it, its JSON text (so the log need not stringify again).
 */
export interface WireObserver {
  /** `message` is null when the line was not JSON; `text` then holds it. */
  incoming(message: unknown, bytes: number, text?: string): void;
  /** `preview` says `text` already stands for a message too large to keep (a streamed reply). */
  outgoing(message: unknown, bytes: number, text?: string, preview?: boolean): void;
}

/** A reply whose one long string (a file's text or base64) is written piece by piece. */
export interface StreamedReply {
  /** The result's JSON up to and including the long string's opening quote. */
  head: string;
  /** The string's content as UTF-8 bytes, JSON-escaped, in order. */
  body: AsyncIterable<Buffer>;
  /** From the string's closing quote to the end of the result. */
  tail: string;
  /** The result as the traffic log keeps it (with a preview of the string), once it is sent. */
  logged(): unknown;
  /** Releases what the body holds; called whether or not it was sent. */
  close(): void;
}

export type FastReply =
  /** `resultJson`, when given, is JSON.stringify(result) made earlier (a cached reply). */
  | { result: unknown; resultJson?: string }
  | { error: { code: number; message: string; data?: unknown } }
  | { stream: StreamedReply };

/**
 * Answers some requests without the SDK's Server: returns null for those it
 * does not take. The socket's hot path (`resources/read`) goes through here
 * so a large file can be streamed rather than built into one JSON text.
 */
export type FastPath = (request: { method: string; params?: unknown }) => Promise<FastReply> | null;

/** Returns the error for a request that cannot be served as sent (bad envelope or params), else null. */
export type RequestScreen = (request: { method: string; params?: unknown }) => { code: number; message: string; data?: unknown } | null;

export interface SocketTransportOptions {
  observer?: WireObserver;
  fastPath?: FastPath;
  screen?: RequestScreen;
  maxLineBytes?: number;
  /** Unsent output above this means the client stopped reading: the connection is closed. */
  maxPendingWriteBytes?: number;
  /** Told why a connection was cut (for logs). */
  onProtocolError?: (message: string) => void;
  /** Output stuck this long (the client reads nothing) closes the connection. */
  stallTimeoutMs?: number;
}

const DEFAULT_MAX_PENDING_WRITE = 32 * 1024 * 1024;
/**
 * Requests of one connection being worked on at once. Past this, further
 * lines wait (and past QUEUE_PAUSE of them the socket stops being read), so
 * a client pipelining thousands of large reads cannot make the server hold
 * thousands of replies in memory.
 */
const MAX_IN_FLIGHT = 16;
const DEFAULT_STALL_TIMEOUT_MS = 30_000;
const QUEUE_PAUSE = 256;
/**
 * Output held behind a streamed reply past this stops the connection's input
 * until the reply is out: replies to a flood of bad lines (which hold no
 * request slot) must not pile up, nor their parsing starve other clients.
 */
const HELD_PAUSE_BYTES = 1024 * 1024;
const EMPTY = Buffer.alloc(0);
/** Lines one connection gets handled (or held output written) in one turn of the event loop. */
const LINES_PER_TURN = 256;

function requestIdOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

type Held = { line: unknown; json: string } | { startStream: () => void };

/**
 * MCP over one stream socket: newline-delimited JSON-RPC, the stdio framing.
 * Malformed input is answered here (-32700, -32600) and never reaches the SDK;
 * the connection keeps working, except for an oversized line, which closes it.
 */
export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly framer: LineFramer;
  private closed = false;
  private inputPaused = false;
  private readonly queue: Buffer[] = [];
  private queueAt = 0;
  private pumpScheduled = false;
  private readonly inFlight = new Map<string, number>();
  private inFlightCount = 0;
  private queuePaused = false;
  private corked = false;
  /** While a streamed reply is being written, other output waits here so lines never interleave. */
  private streaming = false;
  private readonly held: Held[] = [];
  /** Requests answered on the fast path that are still being worked on, by id key: true once cancelled. */
  private readonly fast = new Map<string, boolean>();
  /** Bytes of the lines in `held`: a client that stops reading during a streamed reply is cut off, not buffered for. */
  private heldBytes = 0;
  private heldAt = 0;
  private heldPaused = false;

  constructor(
    private readonly socket: Socket,
    private readonly options: SocketTransportOptions = {},
  ) {
    this.framer = new LineFramer(
      options.maxLineBytes ?? MAX_LINE_BYTES,
      (line) => this.enqueue(line),
      (size) => {
        this.options.onProtocolError?.(`message over ${options.maxLineBytes ?? MAX_LINE_BYTES} bytes (${size}+); connection closed`);
        this.writeRaw({
          jsonrpc: '2.0',
          id: null,
          error: { code: ErrorCodes.invalidRequest, message: 'Message too large; closing the connection' },
        });
        // Stop reading, flush the error, then drop the connection: a half-close
        // would wait for a client still busy sending the rest of its line.
        this.socket.pause();
        this.socket.end(() => this.socket.destroy());
      },
    );
  }

  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => {
      // Replies to the lines of one chunk go out in one write, after the
      // promise jobs that produce them (32 in flight: one syscall, not 32).
      if (!this.corked) {
        this.corked = true;
        this.socket.cork();
        setImmediate(() => {
          this.corked = false;
          this.socket.uncork();
        });
      }
      this.framer.push(chunk);
    });
    this.socket.on('error', (err) => this.onerror?.(err));
    this.socket.on('close', () => this.finish());
  }

  private enqueue(line: Buffer): void {
    this.queue.push(line);
    this.pump();
  }

  /**
   * Hands queued lines on while fewer than MAX_IN_FLIGHT requests are open and
   * the client is taking its replies: under output backpressure queued lines
   * wait too, not just the socket (reads are fast enough to fill the backlog
   * from the queue alone).
   */
  private pump(): void {
    let budget = LINES_PER_TURN;
    while (this.queueAt < this.queue.length && this.inFlightCount < MAX_IN_FLIGHT && !this.closed && !this.inputPaused && !this.heldPaused) {
      if (budget-- === 0) {
        // A connection handles this many lines a turn; the rest wait (input paused) so others get theirs in between.
        if (!this.pumpScheduled) {
          this.pumpScheduled = true;
          setImmediate(() => {
            this.pumpScheduled = false;
            this.pump();
          });
        }
        break;
      }
      const line = this.queue[this.queueAt] as Buffer;
      this.queue[this.queueAt++] = EMPTY; // let the line go
      this.onLine(line);
    }
    // An index, not shift(): one chunk can hold 30,000 short lines, and shifting each would be quadratic.
    if (this.queueAt === this.queue.length) {
      this.queue.length = 0;
      this.queueAt = 0;
    } else if (this.queueAt > 1024 && this.queueAt * 2 > this.queue.length) {
      this.queue.splice(0, this.queueAt);
      this.queueAt = 0;
    }
    const full = this.queue.length - this.queueAt >= QUEUE_PAUSE || this.pumpScheduled;
    if (full && !this.queuePaused) {
      this.queuePaused = true;
      this.socket.pause();
    } else if (!full && this.queuePaused) {
      this.queuePaused = false;
      if (!this.inputPaused && !this.heldPaused) this.socket.resume();
    }
  }

  private trackRequest(id: unknown, open: boolean): void {
    const key = JSON.stringify(id);
    const n = this.inFlight.get(key) ?? 0;
    if (open) {
      this.inFlight.set(key, n + 1);
      this.inFlightCount++;
    } else if (n > 0) {
      if (n === 1) this.inFlight.delete(key);
      else this.inFlight.set(key, n - 1);
      this.inFlightCount--;
      this.pump();
    }
  }

  private onLine(line: Buffer): void {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.options.observer?.incoming(null, line.length, text);
      this.writeRaw({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.parseError, message: 'Parse error' } });
      return;
    }
    this.options.observer?.incoming(value, line.length, text);
    if (Array.isArray(value)) {
      // JSON-RPC batches were removed from MCP in 2025-06-18.
      this.writeRaw({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request: batches are not supported' },
      });
      return;
    }
    const parsed = value;
    const request = isJSONRPCRequest(parsed);
    if (!request && !isJSONRPCNotification(parsed) && !isJSONRPCResultResponse(value) && !isJSONRPCErrorResponse(value)) {
      const id = requestIdOf(value);
      // A malformed notification (no id) and a stray response get no answer from the spec's point of view,
      // but an unparseable message still deserves one so the client can tell.
      this.writeRaw({ jsonrpc: '2.0', id, error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request' } });
      return;
    }
    const msg = value as JSONRPCMessage & { method?: string; id?: string | number; params?: { requestId?: unknown } };
    if (request) {
      const problem = this.options.screen?.(parsed);
      if (problem) {
        this.writeRaw({ jsonrpc: '2.0', id: parsed.id, error: problem });
        return;
      }
      if (this.takeFast(parsed)) return;
      // A listen stays open until the client cancels it: it holds no slot (the SDK bounds listens per connection).
      if (parsed.method !== 'subscriptions/listen') this.trackRequest(parsed.id, true);
    }
    // A cancelled request gets no reply from the SDK: free its slot here.
    if (msg.method === 'notifications/cancelled' && msg.params?.requestId !== undefined) {
      const key = JSON.stringify(msg.params.requestId);
      if (this.fast.get(key) === false) this.fast.set(key, true);
      this.trackRequest(msg.params.requestId, false);
    }
    this.onmessage?.(msg);
  }

  /** A well-formed request the fast path takes is answered here, never seen by the SDK. */
  private takeFast(request: { id: string | number; method: string; params?: unknown }): boolean {
    const pending = this.options.fastPath?.(request);
    if (!pending) return false;
    const { id } = request;
    const key = JSON.stringify(id);
    if (this.fast.has(key)) {
      this.writeRaw({ jsonrpc: '2.0', id, error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request: id already in use' } });
      return true;
    }
    this.fast.set(key, false);
    this.trackRequest(id, true);
    void this.replyFast(id, key, pending);
    return true;
  }

  private async replyFast(id: string | number, key: string, pending: Promise<FastReply>): Promise<void> {
    let reply: FastReply;
    try {
      reply = await pending;
    } catch (err) {
      reply = { error: { code: ErrorCodes.internalError, message: (err as Error).message || 'Internal error' } };
    }
    const cancelled = this.fast.get(key) === true;
    this.fast.delete(key);
    // A cancelled request gets no reply (its slot was freed when the cancel came).
    if (cancelled || this.closed) {
      if ('stream' in reply) reply.stream.close();
      return;
    }
    if ('stream' in reply) await this.writeStreamed(id, reply.stream);
    else if ('result' in reply) {
      const message = { jsonrpc: '2.0', id, result: reply.result };
      this.writeRaw(message, reply.resultJson === undefined ? undefined : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${reply.resultJson}}`);
    } else this.writeRaw({ jsonrpc: '2.0', id, error: reply.error });
    this.trackRequest(id, false);
  }

  /**
   * Writes one reply whose long string arrives in pieces, waiting for the
   * socket to drain between them, so memory holds a chunk, not the file.
   */
  private async writeStreamed(id: string | number, reply: StreamedReply): Promise<void> {
    if (this.streaming) await new Promise<void>((startStream) => this.held.push({ startStream }));
    this.streaming = true; // set before any await, so other output queues behind this line
    let bytes = 0;
    const put = async (chunk: Buffer) => {
      if (this.closed || this.socket.destroyed) throw new Error('Connection closed');
      bytes += chunk.length;
      if (!this.socket.write(chunk)) await this.drained();
    };
    try {
      await put(Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${reply.head}`));
      for await (const piece of reply.body) await put(piece);
      await put(Buffer.from(`${reply.tail}}\n`));
      const logged = { jsonrpc: '2.0', id, result: reply.logged() };
      this.options.observer?.outgoing(logged, bytes, JSON.stringify(logged), true);
    } catch (err) {
      // Half a line is on the wire and cannot be taken back: the connection ends.
      if (!this.closed && !this.socket.destroyed) {
        this.options.onProtocolError?.(`${(err as Error).message}; connection closed`);
        this.socket.destroy();
      }
    } finally {
      reply.close();
      this.releaseHeld();
    }
  }

  /** Resolves once the socket drained; fails if it closes or the client reads nothing for the stall timeout. */
  private drained(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(stall);
        this.socket.off('drain', onDrain);
        this.socket.off('close', onClose);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(new Error('Connection closed'));
      const stall = setTimeout(
        () => done(new Error('client stopped reading its responses')),
        this.options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
      );
      stall.unref();
      this.socket.on('drain', onDrain);
      this.socket.on('close', onClose);
    });
  }

  /** After a streamed reply: writes what waited, up to the next streamed reply, which then takes over. */
  private releaseHeld(): void {
    this.streaming = false;
    // An index, not shift(): thousands of held lines must not cost a copy each.
    let budget = LINES_PER_TURN;
    while (this.heldAt < this.held.length) {
      if (budget-- === 0) {
        // The rest in a later turn, so other connections are served meanwhile; output stays held (in order) till then.
        this.streaming = true;
        this.compactHeld();
        setImmediate(() => this.releaseHeld());
        return;
      }
      const next = this.held[this.heldAt++] as Held;
      if ('line' in next) {
        this.heldBytes -= next.json.length;
        this.streaming = false;
        this.writeRaw(next.line, next.json);
        continue;
      }
      this.streaming = true;
      this.compactHeld();
      next.startStream();
      return;
    }
    this.compactHeld();
  }

  private compactHeld(): void {
    if (this.heldAt > 0) {
      this.held.splice(0, this.heldAt);
      this.heldAt = 0;
    }
    if (this.heldPaused && this.heldBytes <= HELD_PAUSE_BYTES) {
      this.heldPaused = false;
      if (!this.inputPaused && !this.queuePaused) this.socket.resume();
      queueMicrotask(() => this.pump()); // lines that waited in the queue
    }
  }

  /** Writes one message as a line; `json` is its text when already made. */
  private writeRaw(message: unknown, json = JSON.stringify(message)): boolean {
    if (this.closed || this.socket.destroyed || !this.socket.writable) return false;
    if (this.streaming) {
      this.held.push({ line: message, json });
      this.heldBytes += json.length;
      if (this.heldBytes > (this.options.maxPendingWriteBytes ?? DEFAULT_MAX_PENDING_WRITE)) {
        this.options.onProtocolError?.('client is not reading its responses; connection closed');
        this.socket.destroy();
        return false;
      }
      if (this.heldBytes > HELD_PAUSE_BYTES && !this.heldPaused) {
        this.heldPaused = true;
        this.socket.pause();
      }
      return true;
    }
    const line = `${json}\n`;
    const bytes = Buffer.byteLength(line);
    this.options.observer?.outgoing(message, bytes, json);
    const backlog = this.socket.writableLength;
    const ok = this.socket.write(line);
    // Output the client has not taken yet, before this message: a client that
    // stopped reading is cut off; one large reply alone never is (and large
    // file reads, resources/read and the read_resource tool, are streamed
    // one at a time, so a client that asks for many never piles them up).
    if (backlog > (this.options.maxPendingWriteBytes ?? DEFAULT_MAX_PENDING_WRITE)) {
      this.options.onProtocolError?.('client is not reading its responses; connection closed');
      this.socket.destroy();
      return false;
    }
    if (!ok && !this.inputPaused) {
      // Backpressure: take no new requests until the client reads what it has;
      // a client that reads nothing for the stall timeout is cut off.
      this.inputPaused = true;
      this.socket.pause();
      const stall = setTimeout(() => {
        this.options.onProtocolError?.('client stopped reading its responses; connection closed');
        this.socket.destroy();
      }, this.options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS);
      stall.unref();
      // Both listeners go once either fires: a close listener left behind per
      // drain held its timer and closure until the connection ended (a leak
      // of ~200 timers a second under the soak's load).
      const onClose = () => clearTimeout(stall);
      this.socket.once('close', onClose);
      this.socket.once('drain', () => {
        clearTimeout(stall);
        this.socket.off('close', onClose);
        this.inputPaused = false;
        if (!this.queuePaused && !this.heldPaused) this.socket.resume();
        this.pump();
      });
    }
    return true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: unknown; method?: unknown };
    const sent = this.writeRaw(message);
    if (m.method === undefined && m.id !== undefined) this.trackRequest(m.id, false); // a reply closes its request
    if (!sent && (this.closed || this.socket.destroyed)) throw new Error('Connection closed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.socket.end();
    this.socket.destroySoon?.();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
