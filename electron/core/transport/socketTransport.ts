import type { Socket } from 'node:net';

import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
} from '@modelcontextprotocol/server';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import { MAX_LINE_BYTES } from '../../../shared/limits.js';
import type { LoggedText } from '../base/loggedForm.js';
import { type CancelHook, RequestCancel } from '../base/requestCancel.js';
import { type MemoryAccount, MemoryBudget, type MemoryLease } from '../clientMemory/memoryBudget.js';
import { cancelledRequestId } from './cancelled.js';
import { InputGate } from './inputGate.js';
import { LineFramer } from './lineFramer.js';
import { OrderedOutput, type StreamedReply, type WireObserver } from './orderedOutput.js';

export type { StreamedReply, WireObserver } from './orderedOutput.js';

/** A reply made outside the SDK, for the transport to write. */
export type InterceptedReply = (
  | /**
     * `resultJson`, when given, is JSON.stringify(result) made earlier (a
     * cached reply); `loggedJson` makes the result's JSON as the traffic log
     * keeps it and says how it stands for it (LoggedForm), else undefined
     * (the log then cuts the wire text from `result`, which must be whole).
     */
    { result: unknown; resultJson?: string; loggedJson?: () => LoggedText | undefined }
  | { error: { code: number; message: string; data?: unknown } }
  | { stream: StreamedReply }
) & {
  /** The memory reserved while the reply was built: given back once it is written (then it counts as output). */
  lease?: MemoryLease;
};

/**
 * Takes some requests away from the SDK and answers them (the MCP layer's
 * read fast path): returns null for those it leaves to the SDK. It sees only
 * requests the screen let through.
 */
/** Takes a request (a promise of its reply) or leaves it to the SDK (null); `cancel` tells when the client cancels it. */
export type Interceptor = (request: { method: string; params?: unknown }, cancel: CancelHook) => Promise<InterceptedReply> | null;

/** Returns the error for a request that cannot be served as sent (bad envelope or params), else null. */
export type RequestScreen = (request: { method: string; params?: unknown }) => { code: number; message: string; data?: unknown } | null;

export interface SocketTransportOptions {
  observer?: WireObserver;
  intercept?: Interceptor;
  screen?: RequestScreen;
  maxLineBytes?: number;
  /** Unsent output above this means the client stopped reading: the connection is closed. */
  maxPendingWriteBytes?: number;
  /** Told why a connection was cut (for logs). */
  onProtocolError?: (message: string) => void;
  /** Output stuck this long (the client reads nothing) closes the connection. */
  stallTimeoutMs?: number;
  /** The connection's share of the memory budget for clients: its input waiting and its unsent output count there. */
  memory?: MemoryAccount;
}

const DEFAULT_MAX_PENDING_WRITE = 32 * 1024 * 1024;
/**
 * Requests of one connection being worked on at once. Past this, further
 * lines wait (and past QUEUE_PAUSE of them the socket stops being read), so
 * a client pipelining thousands of large reads cannot make the server hold
 * thousands of replies in memory. (Both exported for the transport's unit tests.)
 */
export const MAX_IN_FLIGHT = 16;
const DEFAULT_STALL_TIMEOUT_MS = 30_000;
export const QUEUE_PAUSE = 256;
/** Bytes of lines waiting for a slot past which the socket stops being read (lines may be 4 MiB each). */
export const QUEUE_PAUSE_BYTES = 4 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);
/**
 * Lines, and bytes of lines, one connection gets handled in one turn of the
 * event loop, so others get theirs in between. Counted across the turn: a
 * reply frees a slot and pumps again within the same turn (in a promise
 * job), and a budget begun afresh at each pump let 32 connections of 24 KB
 * subscribes hold the thread for seconds.
 */
const LINES_PER_TURN = 64;
const BYTES_PER_TURN = 256 * 1024;

const CANCELLED = Buffer.from('"notifications/cancelled"');

/** The request id a line (one that names the method somewhere) cancels, if it is a cancel notification. */
function cancelledIdOf(line: Buffer): string | number | undefined {
  try {
    return cancelledRequestId(JSON.parse(line.toString('utf8')));
  } catch {
    return undefined;
  }
}

function requestIdOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * What the SDK's isJSONRPCRequest accepts, told without its Zod parse (which
 * copies the message) for the usual request: only the keys jsonrpc "2.0", a
 * string or safe-integer id, a string method, and params, when present, an
 * object without `_meta`. Any other shape is left to the SDK's check, so the
 * verdict is always the SDK's.
 */
export function plainRequest(value: unknown): value is JSONRPCRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  for (const key in m) if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string' || !(typeof m.id === 'string' || Number.isSafeInteger(m.id))) return false;
  const { params } = m;
  return params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params) && !('_meta' in params));
}

/**
 * MCP over one stream socket: newline-delimited JSON-RPC, the stdio framing.
 * It frames lines, answers malformed input (-32700, -32600, and -32602 from
 * the screen) without the SDK, limits the requests worked on at once, and
 * writes replies in order (OrderedOutput). The connection keeps working after
 * bad input, except for an oversized line, which closes it.
 */
export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly framer: LineFramer;
  private readonly gate: InputGate;
  private readonly output: OrderedOutput;
  private closed = false;
  private readonly queue: Buffer[] = [];
  private queueAt = 0;
  /** Bytes of the lines in `queue` from `queueAt` on. */
  private queueBytes = 0;
  private readonly memory: MemoryAccount;
  private readonly stopWatchingRoom: () => void;
  /** This turn's lines and bytes handed on; the turn's end (setImmediate) starts them afresh and pumps again. */
  private turnLines = 0;
  private turnBytes = 0;
  private turnEnds = false;
  /** The turn's budget ran out with lines waiting. */
  private pumpScheduled = false;
  /**
   * Requests open, by id. Keyed by the id itself (a JSON-RPC id is a string
   * or a number, and 1 and "1" stay apart as Map keys), not its JSON.
   */
  private readonly inFlight = new Map<unknown, number>();
  private inFlightCount = 0;
  private corked = false;
  /** The client ended its side (a half-close): this side ends once every request it sent is answered. */
  private peerEnded = false;
  /** Intercepted requests still being worked on, by id, with their cancel. */
  private readonly intercepted = new Map<string | number, RequestCancel>();
  /** Lines the client has sent (any, valid or not): a connection that never sends one is no client. */
  messagesIn = 0;

  constructor(
    private readonly socket: Socket,
    private readonly options: SocketTransportOptions = {},
  ) {
    this.gate = new InputGate(socket);
    // A transport made on its own (tests of framing) has a budget of its own.
    this.memory = options.memory ?? new MemoryBudget().account();
    this.stopWatchingRoom = this.memory.budget.onRoom(() => this.pump());
    this.output = new OrderedOutput(socket, this.gate, {
      memory: this.memory,
      observer: options.observer,
      maxPendingWriteBytes: options.maxPendingWriteBytes ?? DEFAULT_MAX_PENDING_WRITE,
      stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
      onProtocolError: options.onProtocolError,
      onDrain: () => this.pump(),
      onIdle: () => this.endIfDone(),
    });
    this.framer = new LineFramer(
      options.maxLineBytes ?? MAX_LINE_BYTES,
      (line) => this.enqueue(line),
      (size) => {
        this.options.onProtocolError?.(`message over ${options.maxLineBytes ?? MAX_LINE_BYTES} bytes (${size}+); connection closed`);
        this.output.writeLine({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.invalidRequest, message: 'Message too large; closing the connection' } });
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
      // A chunk of one line has one reply: it goes out at once (the turn to
      // the uncork cost a sequential client ~20% of its rate).
      if (!this.corked && chunk.indexOf(10) !== chunk.length - 1) {
        this.corked = true;
        this.socket.cork();
        setImmediate(() => {
          this.corked = false;
          this.socket.uncork();
        });
      }
      this.framer.push(chunk);
      this.countInput();
    });
    this.socket.on('end', () => {
      this.peerEnded = true;
      this.endIfDone();
    });
    this.socket.on('error', (err) => this.onerror?.(err));
    this.socket.on('close', () => this.finish());
  }

  private enqueue(line: Buffer): void {
    // A cancel of a request being worked on goes past the lines waiting for a
    // slot: it is what frees one (a client whose 16 requests wait on
    // ask-before-read could not cancel them). Any other cancel keeps its place:
    // one naming a request still in the queue must come after it, or the
    // request would run (and be answered) as if never cancelled.
    if (this.queueAt < this.queue.length && line.includes(CANCELLED) && this.inFlight.has(cancelledIdOf(line))) {
      this.onLine(line);
      this.pump();
      return;
    }
    this.queue.push(line);
    this.queueBytes += line.length;
    this.pump();
  }

  /** What waits to be handled (an unfinished line, queued lines) counts in the memory budget; past the bounds, reading pauses. */
  private countInput(): void {
    this.memory.set('input', this.framer.buffered + this.queueBytes);
    if (this.memory.over && !this.closed) this.gate.pause('memory');
    else this.gate.resume('memory');
  }

  /**
   * Hands queued lines on while fewer than MAX_IN_FLIGHT requests are open and
   * the client is taking its replies: under output backpressure queued lines
   * wait too, not just the socket (reads are fast enough to fill the backlog
   * from the queue alone).
   */
  private pump(): void {
    while (this.queueAt < this.queue.length && this.inFlightCount < MAX_IN_FLIGHT && !this.closed && !this.gate.has('backpressure') && !this.gate.has('held')) {
      if (this.turnLines >= LINES_PER_TURN || this.turnBytes >= BYTES_PER_TURN) {
        this.pumpScheduled = true;
        break;
      }
      if (!this.turnEnds) {
        this.turnEnds = true;
        setImmediate(() => {
          this.turnEnds = false;
          this.turnLines = 0;
          this.turnBytes = 0;
          this.pumpScheduled = false;
          this.pump();
        });
      }
      const line = this.queue[this.queueAt] as Buffer;
      this.turnLines++;
      this.turnBytes += line.length;
      this.queue[this.queueAt++] = EMPTY; // let the line go
      this.queueBytes -= line.length;
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
    if (this.queue.length - this.queueAt >= QUEUE_PAUSE || this.queueBytes >= QUEUE_PAUSE_BYTES || this.pumpScheduled) this.gate.pause('queue');
    else this.gate.resume('queue');
    this.countInput();
    this.endIfDone();
  }

  /**
   * A client that half-closed (`echo … | mcp-shelf connect`: the bridge ends
   * its side when stdin ends) still gets every reply: the connection ends
   * once its lines are handled, its requests answered and the output sent.
   * A listen holds no slot, so one left open does not keep it.
   */
  private endIfDone(): void {
    if (this.peerEnded && !this.closed && this.queueAt === this.queue.length && this.inFlightCount === 0 && this.output.idle && this.socket.writable)
      this.socket.end();
  }

  private trackRequest(id: unknown, open: boolean): void {
    const n = this.inFlight.get(id) ?? 0;
    if (open) {
      this.inFlight.set(id, n + 1);
      this.inFlightCount++;
    } else if (n > 0) {
      if (n === 1) this.inFlight.delete(id);
      else this.inFlight.set(id, n - 1);
      this.inFlightCount--;
      this.pump();
    }
  }

  /** Nothing in flight, nothing waiting, nothing unsent: closing it now loses no reply. */
  get idle(): boolean {
    return this.inFlightCount === 0 && this.queueAt === this.queue.length && this.output.idle && this.framer.buffered === 0;
  }

  private onLine(line: Buffer): void {
    this.messagesIn++;
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.options.observer?.incoming(null, line.length, text);
      this.output.writeLine({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.parseError, message: 'Parse error' } });
      return;
    }
    this.options.observer?.incoming(value, line.length, text);
    if (Array.isArray(value)) {
      // JSON-RPC batches were removed from MCP in 2025-06-18.
      this.output.writeLine({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request: batches are not supported' } });
      return;
    }
    const parsed = value;
    const request = plainRequest(parsed) || isJSONRPCRequest(parsed);
    if (!request && !isJSONRPCNotification(parsed) && !isJSONRPCResultResponse(value) && !isJSONRPCErrorResponse(value)) {
      // A malformed notification (no id) and a stray response get no answer from the spec's point of view,
      // but an unparseable message still deserves one so the client can tell.
      this.output.writeLine({ jsonrpc: '2.0', id: requestIdOf(value), error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request' } });
      return;
    }
    const msg = value as JSONRPCMessage & { method?: string; id?: string | number; params?: { requestId?: unknown } };
    if (request) {
      let problem: ReturnType<RequestScreen>;
      try {
        problem = this.options.screen?.(parsed) ?? null;
      } catch {
        // The screen must never take the process down with it (a message nested too deep, say).
        problem = { code: ErrorCodes.internalError, message: 'Internal error: the request could not be examined' };
      }
      if (problem) {
        this.output.writeLine({ jsonrpc: '2.0', id: parsed.id, error: problem });
        return;
      }
      if (this.intercept(parsed)) return;
      // A listen stays open until the client cancels it: it holds no slot (the SDK bounds listens per connection).
      if (parsed.method !== 'subscriptions/listen') this.trackRequest(parsed.id, true);
    }
    // A cancelled request gets no reply: free its slot here. Only a notification
    // cancels: a request naming the method (it has an id) is answered by the SDK
    // as an unknown method, and freeing a slot for it let a client run any number
    // of requests at once (a read, then a "cancel" request naming it, and again).
    const cancelled = cancelledRequestId(parsed);
    if (cancelled !== undefined) {
      this.intercepted.get(cancelled)?.cancel();
      this.trackRequest(cancelled, false);
    }
    this.onmessage?.(msg);
  }

  /** A request the interceptor takes is answered from it, never seen by the SDK. */
  private intercept(request: { id: string | number; method: string; params?: unknown }): boolean {
    const intercept = this.options.intercept;
    if (!intercept) return false;
    const cancel = new RequestCancel();
    const pending = intercept(request, cancel);
    if (!pending) return false;
    const { id } = request;
    if (this.intercepted.has(id)) {
      cancel.cancel(); // its work started: what it waits on (an ask) is withdrawn, its reply dropped
      this.output.writeLine({ jsonrpc: '2.0', id, error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request: id already in use' } });
      return true;
    }
    this.intercepted.set(id, cancel);
    this.trackRequest(id, true);
    void this.replyIntercepted(id, pending);
    return true;
  }

  private async replyIntercepted(id: string | number, pending: Promise<InterceptedReply>): Promise<void> {
    let reply: InterceptedReply;
    try {
      reply = await pending;
    } catch (err) {
      reply = { error: { code: ErrorCodes.internalError, message: (err as Error).message || 'Internal error' } };
    }
    const cancelled = this.intercepted.get(id)?.cancelled === true;
    this.intercepted.delete(id);
    // A cancelled request gets no reply (its slot was freed when the cancel came).
    if (cancelled || this.closed) {
      if ('stream' in reply) reply.stream.close();
      reply.lease?.release();
      return;
    }
    const idJson = JSON.stringify(id);
    if ('stream' in reply) {
      await this.output.writeStreamed(`{"jsonrpc":"2.0","id":${idJson},"result":`, reply.stream, (result) => ({ jsonrpc: '2.0', id, result }));
    } else if ('result' in reply) {
      const message = { jsonrpc: '2.0', id, result: reply.result };
      const { loggedJson } = reply;
      const logged =
        loggedJson &&
        ((): LoggedText | undefined => {
          const result = loggedJson();
          return result === undefined ? undefined : { text: `{"jsonrpc":"2.0","id":${idJson},"result":${result.text}}`, form: result.form };
        });
      this.output.writeLine(message, reply.resultJson === undefined ? undefined : `{"jsonrpc":"2.0","id":${idJson},"result":${reply.resultJson}}`, logged);
    } else this.output.writeLine({ jsonrpc: '2.0', id, error: reply.error });
    // Written: its bytes are the output's now (counted as unsent output until the client takes them).
    reply.lease?.release();
    this.trackRequest(id, false);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: unknown; method?: unknown };
    const sent = !this.closed && this.output.writeLine(message);
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
    this.stopWatchingRoom();
    this.queue.length = 0;
    this.queueAt = 0;
    this.queueBytes = 0;
    this.memory.set('input', 0);
    this.onclose?.();
  }
}
