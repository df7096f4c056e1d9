/**
 * The budget for what clients make the server keep while they are connected
 * (the URIs of their subscriptions and listens), per connection and in
 * total. Each connection's first FREE bytes are its own, so a client that
 * keeps a few hundred subscriptions is never refused because others filled
 * the total; past that, holds come from the shared total. With at most 1,024
 * socket connections, 256 HTTP sessions and 256 HTTP listens, the free parts
 * add up to at most 48 MiB beside the 64 MiB total.
 */

export interface HeldLimits {
  perConnection: number;
  total: number;
  free: number;
}

export const HELD_LIMITS: HeldLimits = { perConnection: 4 * 1024 * 1024, total: 64 * 1024 * 1024, free: 32 * 1024 };

/** What keeping one client string costs: two bytes a character (the worst case) and the entry around it. */
export const heldCost = (s: string): number => 2 * s.length + 64;

const size = (n: number) => (n < 1024 * 1024 ? `${Math.ceil(n / 1024)} KiB` : `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`);

export class HeldBytes {
  /** Bytes held beyond the connections' free parts. */
  private shared = 0;
  /** Bytes held by all connections (for status and tests). */
  held = 0;

  constructor(readonly limits: HeldLimits = HELD_LIMITS) {}

  account(): HeldAccount {
    return new HeldAccount(this);
  }

  /** @internal Moves `delta` bytes in or out of an account that held `before`; null when allowed, else why not. */
  move(before: number, delta: number): string | null {
    const { perConnection, total, free } = this.limits;
    const after = before + delta;
    const sharedDelta = Math.max(0, after - free) - Math.max(0, before - free);
    if (delta > 0) {
      if (after > perConnection) {
        return `one connection's subscriptions and listens may keep at most ${size(perConnection)} of URIs; this one keeps ${size(before)} and this would add ${size(delta)} (unsubscribe or end a listen first)`;
      }
      if (this.shared + sharedDelta > total)
        return `all clients' subscriptions and listens together may keep at most ${size(total)} of URIs, and they do; try again when others end theirs`;
    }
    this.shared += sharedDelta;
    this.held += delta;
    return null;
  }
}

/** One connection's (or one HTTP listen's) share of the budget. */
export class HeldAccount {
  private used = 0;
  private closed = false;

  constructor(private readonly budget: HeldBytes) {}

  /** Holds `bytes` more; returns why not (a sentence for the client) when that would pass a bound. */
  hold(bytes: number): string | null {
    if (this.closed) return 'the connection is closing';
    const refused = this.budget.move(this.used, bytes);
    if (refused === null) this.used += bytes;
    return refused;
  }

  release(bytes: number): void {
    if (this.closed) return;
    const n = Math.min(bytes, this.used);
    this.budget.move(this.used, -n);
    this.used -= n;
  }

  /** Gives back everything (the connection is gone); later holds are refused. */
  close(): void {
    this.release(this.used);
    this.closed = true;
  }

  get bytes(): number {
    return this.used;
  }
}
