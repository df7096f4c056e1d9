import type { Socket } from 'node:net';

import type { LoggedForm, LoggedText } from '../base/loggedForm.js';
import type { MemoryAccount } from '../clientMemory/memoryBudget.js';
import type { InputGate } from './inputGate.js';

/**
 * Sees every message on the wire, both ways, with its size in bytes and, when
 * the transport has it, its JSON text (so the log need not stringify again).
 */
export interface WireObserver {
  /** `message` is null when the line was not JSON; `text` then holds it. */
  incoming(message: unknown, bytes: number, text?: string): void;
  /** `form` says how `text` stands for the message (see LoggedForm): absent, it is the wire text. */
  outgoing(message: unknown, bytes: number, text?: string, form?: LoggedForm): void;
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

export interface OrderedOutputOptions {
  observer?: WireObserver;
  /** Where the connection's unsent output counts (socket buffer and lines held behind a stream). */
  memory: MemoryAccount;
  /** Unsent output above this means the client stopped reading: the connection is closed. */
  maxPendingWriteBytes: number;
  /** Output stuck this long (the client reads nothing) closes the connection. */
  stallTimeoutMs: number;
  /** Told why a connection was cut (for logs). */
  onProtocolError?: (message: string) => void;
  /** The client took its output after backpressure: queued requests may go on. */
  onDrain: () => void;
  /** Everything held behind streamed replies went out (see `idle`). */
  onIdle?: () => void;
}

/**
 * Output held behind a streamed reply past this stops the connection's input
 * until the reply is out: replies to a flood of bad lines (which hold no
 * request slot) must not pile up, nor their parsing starve other clients.
 */
const HELD_PAUSE_BYTES = 1024 * 1024;
/** Held lines written in one turn of the event loop. */
const LINES_PER_TURN = 256;

type Held = { line: unknown; json: string; logged?: (() => LoggedText | undefined) | undefined } | { startStream: () => void };

/**
 * One connection's output, in order: whole lines, and streamed replies whose
 * long string is written piece by piece with backpressure while everything
 * else waits behind them (lines never interleave). A client that stops
 * reading pauses its own input, and is cut off past a bound or a stall.
 */
export class OrderedOutput {
  /** While a streamed reply is being written, other output waits in `held`. */
  private streaming = false;
  private readonly held: Held[] = [];
  private heldAt = 0;
  /** Bytes of the lines in `held`. */
  private heldBytes = 0;
  /** While the socket waits for a drain: its entry among the budget's stalled outputs. */
  private stalled: (() => void) | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly gate: InputGate,
    private readonly options: OrderedOutputOptions,
  ) {}

  /** Nothing is held back: every reply given to this output is on the socket (or gone with it). */
  get idle(): boolean {
    return !this.streaming && this.heldAt === this.held.length;
  }

  private get live(): boolean {
    return !this.socket.destroyed && this.socket.writable;
  }

  private cut(reason: string): void {
    this.options.onProtocolError?.(`${reason}; connection closed`);
    this.socket.destroy();
    this.moving();
    this.countOutput();
  }

  /** The socket stopped taking output: the budget may cut it off when others need the memory (memoryBudget.ts, Reclaimable). */
  private stalling(): void {
    if (this.stalled || this.socket.destroyed) return;
    const memory = this.options.memory;
    this.stalled = memory.budget.stalledOutput({
      stalledSince: performance.now(),
      get bytes() {
        return memory.of('output');
      },
      reclaim: () => this.cut('client is not reading its responses while others need the memory'),
    });
  }

  private moving(): void {
    this.stalled?.();
    this.stalled = null;
  }

  /** Unsent output counts in the memory budget: what the socket buffers and what waits behind a streamed reply. */
  private countOutput(): void {
    this.options.memory.set('output', this.socket.destroyed ? 0 : this.socket.writableLength + this.heldBytes);
  }

  /**
   * Writes one message as a line; `json` is its text when already made, and
   * `logged` makes the text the traffic log keeps instead, when a long
   * string in it is cut (undefined when nothing is). False when the
   * connection is gone.
   */
  writeLine(message: unknown, json = JSON.stringify(message), logged?: () => LoggedText | undefined): boolean {
    if (!this.live) return false;
    if (this.streaming) {
      this.held.push({ line: message, json, logged });
      this.heldBytes += json.length;
      if (this.heldBytes > this.options.maxPendingWriteBytes) {
        this.cut('client is not reading its responses');
        return false;
      }
      if (this.heldBytes > HELD_PAUSE_BYTES) this.gate.pause('held');
      this.countOutput();
      return true;
    }
    const line = `${json}\n`;
    const observer = this.options.observer;
    if (observer) {
      const kept = logged?.();
      observer.outgoing(message, Buffer.byteLength(line), kept?.text ?? json, kept?.form);
    }
    const backlog = this.socket.writableLength;
    const ok = this.socket.write(line);
    // Output the client has not taken yet, before this message: a client that
    // stopped reading is cut off; one large reply alone never is (and large
    // file reads are streamed one at a time, so a client that asks for many
    // never piles them up).
    if (backlog > this.options.maxPendingWriteBytes) {
      this.cut('client is not reading its responses');
      return false;
    }
    if (!ok && !this.gate.has('backpressure')) this.awaitDrain();
    if (!ok || backlog > 0) this.countOutput();
    return true;
  }

  /**
   * Backpressure: no new requests are taken until the client reads what it
   * has; a client that reads nothing for the stall timeout is cut off.
   */
  private awaitDrain(): void {
    this.gate.pause('backpressure');
    this.stalling();
    const stall = setTimeout(() => this.cut('client stopped reading its responses'), this.options.stallTimeoutMs);
    stall.unref();
    // Both listeners go once either fires: a close listener left behind per
    // drain held its timer and closure until the connection ended (a leak
    // of ~200 timers a second under the soak's load).
    const onClose = () => {
      clearTimeout(stall);
      this.moving();
      this.countOutput();
    };
    this.socket.once('close', onClose);
    this.socket.once('drain', () => {
      clearTimeout(stall);
      this.moving();
      this.countOutput();
      this.socket.off('close', onClose);
      this.gate.resume('backpressure');
      this.options.onDrain();
    });
  }

  /**
   * Writes one reply whose long string arrives in pieces, waiting for the
   * socket to drain between them, so memory holds a chunk, not the file.
   * `prefix` opens the JSON-RPC envelope up to the result.
   */
  async writeStreamed(prefix: string, reply: StreamedReply, logged: (result: unknown) => unknown): Promise<void> {
    if (this.streaming) await new Promise<void>((startStream) => this.held.push({ startStream }));
    this.streaming = true; // set before any await, so other output queues behind this line
    let bytes = 0;
    const put = async (chunk: Buffer) => {
      if (!this.live) throw new Error('Connection closed');
      bytes += chunk.length;
      if (!this.socket.write(chunk)) {
        this.countOutput();
        this.stalling();
        try {
          await this.drained();
        } finally {
          this.moving();
        }
        this.countOutput();
      }
    };
    try {
      await put(Buffer.from(`${prefix}${reply.head}`));
      for await (const piece of reply.body) await put(piece);
      await put(Buffer.from(`${reply.tail}}\n`));
      const message = logged(reply.logged());
      this.options.observer?.outgoing(message, bytes, JSON.stringify(message), 'preview');
    } catch (err) {
      // Half a line is on the wire and cannot be taken back: the connection ends.
      if (!this.socket.destroyed) this.cut((err as Error).message);
    } finally {
      reply.close();
      this.releaseHeld();
      this.countOutput();
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
      const stall = setTimeout(() => done(new Error('client stopped reading its responses')), this.options.stallTimeoutMs);
      stall.unref();
      this.socket.on('drain', onDrain);
      this.socket.on('close', onClose);
    });
  }

  /** After a streamed reply: writes what waited, up to the next streamed reply, which then takes over. */
  private releaseHeld(): void {
    this.streaming = false;
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
        this.writeLine(next.line, next.json, next.logged);
        continue;
      }
      this.streaming = true;
      this.compactHeld();
      next.startStream();
      return;
    }
    this.compactHeld();
    this.countOutput();
    this.options.onIdle?.();
  }

  /** Drops what was written from `held` (an index, not shift(): thousands of held lines must not cost a copy each). */
  private compactHeld(): void {
    if (this.heldAt > 0) {
      this.held.splice(0, this.heldAt);
      this.heldAt = 0;
    }
    if (this.heldBytes <= HELD_PAUSE_BYTES && this.gate.has('held')) {
      this.gate.resume('held');
      this.options.onDrain();
    }
  }
}
