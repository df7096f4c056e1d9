import { ErrorCodes } from '../../../shared/errorCodes.js';
import { ShelfError } from '../base/shelfError.js';

/**
 * One budget for the memory the server holds for clients, per connection
 * and in total, across transports: lines read but not yet handled, replies
 * being built, output the client has not taken, the URIs of subscriptions
 * and listens. Bounded per connection alone, 64 connections that never read
 * grew the server by 2.6 GB.
 *
 * Each account (a socket connection, a 2025 HTTP session, a modern HTTP
 * client, an HTTP request's body) has its first `free` bytes to itself, so
 * a modest client is never refused because others filled the total; past
 * them, bytes come from the shared `total`. Two ways to charge:
 * - `reserve` (replies about to be built): refused when the total is spent,
 *   before the bytes exist, with a clear error the client can act on;
 * - `add`/`set` (bytes that already exist: input read, output written):
 *   always counted, and their owner slows down (pauses reading) while its
 *   account or the total is over.
 */

export interface MemoryLimits {
  /** Bytes all accounts may hold together beyond their free parts. */
  total: number;
  /** Each account's first bytes, its own. */
  free: number;
  /**
   * The URIs of subscriptions and listens, within the rest: one account's at
   * most, and all accounts' beyond their first `free` bytes of URIs, so
   * subscriptions alone cannot take the memory replies need.
   */
  uris: { perAccount: number; total: number; free: number };
}

const MiB = 1024 * 1024;

export const MEMORY_LIMITS: MemoryLimits = { total: 256 * MiB, free: 128 * 1024, uris: { perAccount: 4 * MiB, total: 64 * MiB, free: 32 * 1024 } };

/**
 * Output a client has stopped taking, which the budget may take back: a
 * reservation that finds the total spent first cuts off the clients whose
 * output has not moved for RECLAIM_AFTER_MS, the largest first (a client
 * that reads nothing must not hold the memory others' replies need until
 * its stall timeout).
 */
export interface Reclaimable {
  /** performance.now() when its output stopped moving. */
  readonly stalledSince: number;
  /** Bytes it would give back. */
  readonly bytes: number;
  /** Cuts it off (its output is dropped at once). */
  reclaim(): void;
}

export const RECLAIM_AFTER_MS = 2000;

/** What the budget holds, by what it is for. */
export type MemoryKind = 'uris' | 'input' | 'replies' | 'output';

/** What keeping one client string costs: two bytes a character (the worst case) and the entry around it. */
export const heldCost = (s: string): number => 2 * s.length + 64;

export const formatMemory = (n: number): string => (n < MiB ? `${Math.ceil(n / 1024)} KiB` : `${Math.round((n / MiB) * 10) / 10} MiB`);

export class MemoryBudget {
  /** Bytes held beyond the accounts' free parts. */
  private shared = 0;
  /** URI bytes held beyond the accounts' free parts of URIs. */
  private sharedUris = 0;
  /** Bytes held by all accounts (for status, the bench and tests). */
  held = 0;
  private readonly roomListeners = new Set<() => void>();
  private wasSpent = false;
  private readonly stalled = new Set<Reclaimable>();
  /** Bytes of replies given back since the garbage hook last ran (what they left is garbage now). */
  private released = 0;

  /**
   * `garbage` runs once replies of `garbageBytes` in all were given back:
   * a whole reply leaves copies of its file behind (text, JSON, the line
   * written), in strings V8 collects late, so a server answering clients
   * that never read held a GiB of garbage within its budget.
   */
  constructor(
    readonly limits: MemoryLimits = MEMORY_LIMITS,
    private readonly garbage: { run: () => void; bytes: number } | null = null,
  ) {}

  /** @internal A reply's reservation went back: its copies are garbage. */
  replyReleased(bytes: number): void {
    if (!this.garbage) return;
    this.released += bytes;
    if (this.released >= this.garbage.bytes) {
      this.released = 0;
      this.garbage.run();
    }
  }

  account(): MemoryAccount {
    return new MemoryAccount(this);
  }

  /** The shared part is used up: reservations beyond an account's free part are refused, and readers pause. */
  get spent(): boolean {
    return this.shared >= this.limits.total;
  }

  /** `listener` runs whenever the shared part has room again after being spent (paused readers go on). */
  onRoom(listener: () => void): () => void {
    this.roomListeners.add(listener);
    return () => this.roomListeners.delete(listener);
  }

  /** Output that stopped moving; call the returned function once it moves again or is gone. */
  stalledOutput(output: Reclaimable): () => void {
    this.stalled.add(output);
    return () => this.stalled.delete(output);
  }

  /** @internal Cuts off stalled outputs, the largest first, until `needed` more shared bytes fit (or none is left). */
  reclaim(needed: number): void {
    const now = performance.now();
    const candidates = [...this.stalled].filter((o) => now - o.stalledSince >= RECLAIM_AFTER_MS).sort((a, b) => b.bytes - a.bytes);
    for (const output of candidates) {
      if (this.shared + needed <= this.limits.total) return;
      this.stalled.delete(output);
      output.reclaim();
    }
  }

  /** @internal Moves `delta` bytes of URIs in or out of an account that held `before` of them; false when refused. */
  moveUris(before: number, delta: number): boolean {
    const { free, total } = this.limits.uris;
    const sharedDelta = Math.max(0, before + delta - free) - Math.max(0, before - free);
    if (delta > 0 && sharedDelta > 0 && this.sharedUris + sharedDelta > total) return false;
    this.sharedUris += sharedDelta;
    return true;
  }

  /** @internal Moves `delta` bytes in or out of an account that held `before`; `hard`: refused (false) past the total. */
  move(before: number, delta: number, hard: boolean): boolean {
    const { free, total } = this.limits;
    const sharedDelta = Math.max(0, before + delta - free) - Math.max(0, before - free);
    if (hard && delta > 0 && sharedDelta > 0 && this.shared + sharedDelta > total) return false;
    this.shared += sharedDelta;
    this.held += delta;
    if (this.shared >= total) this.wasSpent = true;
    else if (this.wasSpent) {
      this.wasSpent = false;
      for (const l of [...this.roomListeners]) l();
    }
    return true;
  }
}

/** A reservation for a reply being built: give it back once the bytes are gone (sent, or dropped). */
export interface MemoryLease {
  readonly bytes: number;
  release(): void;
}

const NO_LEASE: MemoryLease = { bytes: 0, release: () => undefined };

/** One connection's (or one HTTP listen's, or one request body's) share of the budget. */
export class MemoryAccount {
  private used = 0;
  private readonly kinds: Record<MemoryKind, number> = { uris: 0, input: 0, replies: 0, output: 0 };
  private closed = false;

  constructor(readonly budget: MemoryBudget) {}

  /** Bytes this account holds in all. */
  get bytes(): number {
    return this.used;
  }

  of(kind: MemoryKind): number {
    return this.kinds[kind];
  }

  /** Beyond its free part while the total is spent: its owner should take no more input. */
  get over(): boolean {
    return this.used > this.budget.limits.free && this.budget.spent;
  }

  /**
   * Keeps `bytes` more URIs of subscriptions and listens; returns why not
   * (a sentence for the client) when that would pass a bound.
   */
  holdUris(bytes: number): string | null {
    if (this.closed) return 'the connection is closing';
    const { uris, total } = this.budget.limits;
    if (this.kinds.uris + bytes > uris.perAccount)
      return `one connection's subscriptions and listens may keep at most ${formatMemory(uris.perAccount)} of URIs; this one keeps ${formatMemory(this.kinds.uris)} and this would add ${formatMemory(bytes)} (unsubscribe or end a listen first)`;
    if (!this.budget.moveUris(this.kinds.uris, bytes))
      return `all clients' subscriptions and listens together may keep at most ${formatMemory(uris.total)} of URIs, and they do; try again when others end theirs`;
    if (!this.charge('uris', bytes, true)) {
      this.budget.moveUris(this.kinds.uris + bytes, -bytes);
      return `the memory kept for all clients together (${formatMemory(total)}) is in use; try again when others end their subscriptions or reads`;
    }
    return null;
  }

  releaseUris(bytes: number): void {
    if (this.closed) return;
    const n = Math.min(bytes, this.kinds.uris);
    this.budget.moveUris(this.kinds.uris, -n);
    this.change('uris', -n);
  }

  /**
   * Reserves `bytes` for a reply about to be built, or throws the error a
   * client gets when the memory kept for clients is in use (before any of
   * the bytes exist). `what` names the work in the message.
   */
  reserve(bytes: number, what: string): MemoryLease {
    if (bytes <= 0) return NO_LEASE;
    // Spent: clients that stopped taking their output give it back first, then it is tried once more.
    const held = !this.closed && (this.charge('replies', bytes, true) || (this.budget.reclaim(bytes), this.charge('replies', bytes, true)));
    if (held) return this.lease(bytes);
    throw new ShelfError(
      ErrorCodes.serverBusy,
      `The server is busy: the memory it keeps for clients' replies (${formatMemory(this.budget.limits.total)}) is in use, so ${what} (about ${formatMemory(bytes)}) was not started; try again shortly`,
      { reason: 'memory' },
    );
  }

  private lease(bytes: number): MemoryLease {
    let held = true;
    return {
      bytes,
      release: () => {
        if (!held) return;
        held = false;
        this.change('replies', -bytes);
        this.budget.replyReleased(bytes);
      },
    };
  }

  /** Sets what this account holds of a kind that already exists (input waiting, output unsent): always counted. */
  set(kind: 'input' | 'output', bytes: number): void {
    const delta = bytes - this.kinds[kind];
    if (delta !== 0) this.change(kind, delta);
  }

  /** Gives back everything (the connection is gone); later reservations are refused. */
  close(): void {
    if (this.closed) return;
    this.releaseUris(this.kinds.uris);
    for (const kind of Object.keys(this.kinds) as MemoryKind[]) if (this.kinds[kind] > 0) this.change(kind, -this.kinds[kind]);
    this.closed = true;
  }

  private charge(kind: MemoryKind, bytes: number, hard: boolean): boolean {
    if (!this.budget.move(this.used, bytes, hard)) return false;
    this.used += bytes;
    this.kinds[kind] += bytes;
    return true;
  }

  /** A soft change (or a release): after close, nothing is held any more, so nothing moves. */
  private change(kind: MemoryKind, delta: number): void {
    if (this.closed) return;
    this.charge(kind, delta, false);
  }
}

/** A reservation made while a reply is built (safeRead, the read tool): refused by throwing the busy error. */
export type ReplyCharge = (bytes: number, what: string) => void;

/**
 * The reservations one request makes while its reply is built, given back
 * together: when the request ends (its reply is then output, counted as
 * such), or handed on as one lease with a reply that is written later.
 */
export class RequestMemory {
  private leases: MemoryLease[] = [];

  constructor(private readonly account: MemoryAccount) {}

  readonly charge: ReplyCharge = (bytes, what) => {
    this.leases.push(this.account.reserve(bytes, what));
  };

  release(): void {
    const leases = this.leases;
    this.leases = [];
    for (const l of leases) l.release();
  }

  /** What is reserved now, as one lease (for a reply written after the request's work is done). */
  lease(): MemoryLease | undefined {
    if (this.leases.length === 0) return undefined;
    const leases = this.leases;
    this.leases = [];
    return leases.length === 1 ? leases[0] : { bytes: leases.reduce((n, l) => n + l.bytes, 0), release: () => leases.forEach((l) => l.release()) };
  }
}

/** What building a reply of a file of `size` bytes may hold at once: its bytes, its text or base64, their JSON and the line written (about five copies). */
export const replyCost = (size: number): number => 5 * size + 4096;
