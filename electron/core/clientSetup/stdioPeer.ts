import { type ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

/** A reply held for one request, at most: an image or a page of text fits with room to spare. */
const MAX_LINE_CHARS = 32 * 1024 * 1024;
/** What the child said on stderr, last part kept (for a step's detail). */
const STDERR_KEEP = 4096;

export interface RpcReply {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * An MCP server launched as a client launches it (command, args, env, cwd)
 * and spoken to in newline-delimited JSON-RPC on its stdio, one request at a
 * time, each with its own deadline. It never waits unbounded: a deadline, the
 * process's exit or an over-long line ends a request with an error.
 */
export class StdioPeer {
  private readonly proc: ChildProcess;
  /** The current line's pieces (joined once its end arrives, so a long reply is never rescanned). */
  private pieces: string[] = [];
  private pieceChars = 0;
  private tail = '';
  private nextId = 1;
  private pending: { id: number; resolve: (r: RpcReply) => void; reject: (e: Error) => void } | null = null;
  private ended: Error | null = null;

  constructor(command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }) {
    this.proc = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const utf8 = new StringDecoder('utf8');
    this.proc.stdout?.on('data', (chunk: Buffer) => {
      let text = utf8.write(chunk);
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
        this.pieces.push(text.slice(0, nl));
        const line = this.pieces.join('').trim();
        this.pieces = [];
        this.pieceChars = 0;
        text = text.slice(nl + 1);
        if (line !== '') this.line(line);
      }
      this.pieces.push(text);
      this.pieceChars += text.length;
      if (this.pieceChars > MAX_LINE_CHARS) {
        this.pieces = [];
        this.pieceChars = 0;
        this.end(new Error(`a reply over ${MAX_LINE_CHARS} characters`));
        this.proc.kill('SIGKILL');
      }
    });
    this.proc.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.tail = (this.tail + text).slice(-STDERR_KEEP);
    });
    this.proc.stdin?.on('error', () => undefined); // a child that exits early closes its stdin under us
    this.proc.once('error', (err) => this.end(err));
    this.proc.once('exit', (code, signal) =>
      this.end(new Error(`the command exited (${signal ?? `code ${code}`})${this.tail ? `: ${this.tail.trim().split('\n').pop()}` : ''}`)),
    );
  }

  /** The last lines the command wrote to stderr. */
  get stderr(): string {
    return this.tail.trim();
  }

  private line(line: string): void {
    let message: { id?: unknown; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return this.end(new Error(`not JSON on stdout: ${line.slice(0, 120)}`));
    }
    const waiting = this.pending;
    if (waiting && message.id === waiting.id) {
      this.pending = null;
      waiting.resolve(message as RpcReply);
    }
    // Anything else (a notification, a request from the server) needs no answer for these checks.
  }

  private end(err: Error): void {
    this.ended ??= err;
    const waiting = this.pending;
    this.pending = null;
    waiting?.reject(this.ended);
  }

  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<RpcReply> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise<RpcReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending?.id === id) this.pending = null;
        reject(new Error(`no answer to ${method} within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      const done =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          clearTimeout(timer);
          f(v);
        };
      this.pending = { id, resolve: done(resolve), reject: done(reject) };
      this.proc.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    if (!this.ended) this.proc.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  /** Closes stdin (how clients end a stdio server), then ends the process if it lingers. */
  async close(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.proc.stdin?.end();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
    timer.unref();
    this.proc.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  }
}
