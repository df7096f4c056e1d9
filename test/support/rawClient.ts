import net from 'node:net';

import { MIN_DEADLINE_MS } from './fixtures.js';

type Message = Record<string, unknown> & { id?: unknown; method?: string; error?: { code: number; message: string; data?: unknown } };

/** A bare newline-JSON client on the socket, for what an SDK client would never send. */
export class RawClient {
  readonly messages: Message[] = [];
  closed = false;
  /** The bytes of an unfinished line, as they came. */
  private pending: Buffer[] = [];
  private waiters: Array<() => void> = [];
  private nextId = 1000;

  private constructor(readonly socket: net.Socket) {
    // Each chunk is searched for its own newlines only, and a line is decoded once it is whole: searching a
    // growing string on every chunk was quadratic, and a 14 MB reply on a busy machine took more than 20 s.
    socket.on('data', (chunk: Buffer) => {
      let start = 0;
      let nl: number;
      while ((nl = chunk.indexOf(10, start)) >= 0) {
        const line = Buffer.concat([...this.pending, chunk.subarray(start, nl)]).toString('utf8');
        this.pending = [];
        start = nl + 1;
        if (line.trim()) this.messages.push(JSON.parse(line) as Message);
      }
      if (start < chunk.length) this.pending.push(chunk.subarray(start));
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static connect(socketPath: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      socket.once('connect', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Connects and completes the initialize handshake. */
  static async initialized(socketPath: string, name = 'raw'): Promise<RawClient> {
    const c = await RawClient.connect(socketPath);
    const res = await c.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name, version: '1' },
    });
    if (res.error) throw new Error(`initialize failed: ${JSON.stringify(res.error)}`);
    c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return c;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  send(message: unknown): void {
    this.socket.write(typeof message === 'string' ? message : `${JSON.stringify(message)}\n`);
  }

  /**
   * Waits for the first message (from `from` on) that matches. The deadline
   * only decides when to call it a failure: at least MIN_DEADLINE_MS, as in
   * `eventually` (a 10 MB reply on a busy machine took longer than the 5 s
   * this used to allow, and a retried request never got through).
   */
  async waitFor(match: (m: Message) => boolean, timeoutMs = 5000, from = 0): Promise<Message> {
    const deadline = Date.now() + Math.max(timeoutMs, MIN_DEADLINE_MS);
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      if (this.closed) throw new Error('connection closed while waiting');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${JSON.stringify(this.messages.slice(from)).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** `timeoutMs` only says when to call it a failure (see waitFor). */
  async request(method: string, params?: unknown, timeoutMs = 5000): Promise<Message> {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return this.waitFor((m) => m.id === id && ('result' in m || 'error' in m), timeoutMs);
  }

  waitClosed(timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => false, timeoutMs).then(
      () => undefined,
      (err: Error) => {
        if (!this.closed) throw err;
      },
    );
  }

  close(): void {
    this.socket.destroy();
  }
}
