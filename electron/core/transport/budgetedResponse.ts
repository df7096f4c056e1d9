import http from 'node:http';

import type { MemoryAccount } from '../clientMemory/memoryBudget.js';

/**
 * An HTTP response whose unsent output counts in the memory budget for
 * clients, from the moment it is written (every write and end, whoever
 * writes: our replies or the SDK's session transport) until the client has
 * taken it. A response the client stops taking may be cut off when others
 * need the memory (memoryBudget.ts, Reclaimable). The server is made with
 * this class (`http.createServer({ ServerResponse })`), so no object is
 * patched.
 */
export class BudgetedResponse extends http.ServerResponse {
  private account: MemoryAccount | null = null;
  private stalled: (() => void) | null = null;

  /** Counts this response's unsent output in `account`, which is closed with the response. */
  countIn(account: MemoryAccount): void {
    this.account = account;
    const done = () => {
      this.moving();
      account.close();
    };
    this.once('close', done);
    this.once('finish', done);
    this.on('drain', () => {
      this.moving();
      this.count();
    });
  }

  override write(chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean {
    const ok = (super.write as (...args: unknown[]) => boolean).call(this, chunk, encodingOrCallback, callback);
    this.count();
    if (!ok) this.stalling();
    return ok;
  }

  override end(chunk?: unknown, encodingOrCallback?: unknown, callback?: unknown): this {
    (super.end as (...args: unknown[]) => unknown).call(this, chunk, encodingOrCallback, callback);
    this.count();
    if (!this.writableFinished && this.writableLength > 0) this.stalling();
    return this;
  }

  private count(): void {
    this.account?.set('output', this.writableFinished || this.destroyed ? 0 : this.writableLength);
  }

  private stalling(): void {
    const account = this.account;
    if (!account || this.stalled || this.destroyed) return;
    this.stalled = account.budget.stalledOutput({
      stalledSince: performance.now(),
      get bytes() {
        return account.of('output');
      },
      reclaim: () => {
        this.destroy();
        this.moving();
        account.set('output', 0);
      },
    });
  }

  private moving(): void {
    this.stalled?.();
    this.stalled = null;
  }
}
