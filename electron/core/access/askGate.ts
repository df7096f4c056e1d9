import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { AccessAsk, AccessDecision, AccessEntry } from '../../../shared/shelfApi.js';
import type { CancelHook } from '../base/requestCancel.js';
import { ShelfError } from '../base/shelfError.js';
import type { MemoryAccount } from '../clientMemory/memoryBudget.js';

/** Who is reading: one connection (socket, 2025 HTTP session) or one modern HTTP client (per name and version). */
export interface Requester {
  connectionId: number;
  /** Its connection's share of the memory budget for clients: the replies it asks for are reserved there. */
  memory: MemoryAccount;
  /** The name and version the client gives itself: shown, never trusted. */
  name: string | null;
  version: string | null;
  protocolVersion: string | null;
  transport: 'socket' | 'http';
  /** When its connection began (a modern HTTP client: its first request under this name). */
  connectedAt: number;
  /**
   * Whether "Allow this client" can be tied to it: true for a socket
   * connection or a 2025 HTTP session, which no other program can use;
   * false for a 2026-07-28 HTTP request, which stands alone and whose name
   * any program holding the token can send.
   */
  grantable: boolean;
}

/** The file a read would open. */
export interface AskTarget {
  uri: string;
  folder: string;
  path: string;
  size: number;
  via?: AccessEntry['via'];
}

export type RefusalReason = 'denied' | 'timeout' | 'no-window' | 'disconnected' | 'busy' | 'cancelled';

export interface AskGateOptions {
  /** How long an ask waits for an answer. */
  timeoutMs: () => number;
  /** Windows (Electron or browser tabs) that can show an ask; with none, reads are refused at once. */
  windows: () => number;
  /** The waiting list changed (for the window, and the desktop's notification). */
  changed: (asks: AccessAsk[]) => void;
}

/** Asks waiting at once, for all clients together, per party and per connection: past these a read is refused rather than queued. */
const MAX_WAITING = 64;
const MAX_WAITING_PER_PARTY = 16;
const MAX_WAITING_PER_CONNECTION = 8;

/**
 * Who counts as one party for sharing what waits in turn (asks, changes,
 * the image and document workers): what the prompt shows as one client
 * (its name on its transport), or the connection when it gives no name.
 * One party spreading over many connections gets one party's share, not a
 * share per connection; many names get many shares, and the totals still
 * bound them.
 */
export const partyOf = (who: Requester): string => (who.name === null ? `#${who.connectionId}` : `${who.transport}\u0000${who.name}`);

const REASONS: Record<RefusalReason, string> = {
  denied: 'the person at MCP Shelf denied it',
  timeout: 'nobody answered in time',
  'no-window': 'no MCP Shelf window is open to ask (open the app, or mcp-shelf serve --ui in a browser)',
  disconnected: 'the client disconnected while it waited',
  busy: 'too many reads are already waiting for an answer',
  cancelled: 'the client cancelled the read while it waited',
};

/** The error a refused read gets, in every revision and over every transport. */
export function notAllowed(uri: string, reason: RefusalReason): ShelfError {
  return new ShelfError(ErrorCodes.readNotAllowed, `Read not allowed: this folder asks before each read, and ${REASONS[reason]}`, { uri, reason });
}

interface Waiting {
  ask: AccessAsk;
  party: string;
  settle: (allowed: RefusalReason | null) => void;
  timer: NodeJS.Timeout;
  /** Reads of the same file by the same connection, answered together. */
  promise: Promise<void>;
  /** How many of those reads still want the answer: when the last is cancelled, the ask is withdrawn. */
  waiters: number;
}

/** An ask its client cancelled: gone from the list, still counted against its connection until its deadline. */
interface Withdrawn {
  connectionId: number;
  deadline: number;
}

/**
 * Ask-before-read: a read from such a folder waits here until the person
 * allows it once, allows this client (connection) until it disconnects, or
 * denies it; no answer within the timeout is a deny. Waiting holds no file
 * open and no lock, so other reads — other folders, other clients — go on.
 *
 * Consent is tied to what a client cannot copy: a grant belongs to one
 * socket connection or 2025 HTTP session, never to a name. A 2026-07-28
 * HTTP request has neither, so it can only be allowed once, and each such
 * request is asked about on its own.
 */
export class AskGate {
  private readonly waiting = new Map<number, Waiting>();
  /** connection id → folders it may read without asking, until it disconnects. */
  private readonly grants = new Map<number, Set<string>>();
  /**
   * Asks withdrawn because their client cancelled, by ask id, until their
   * deadline. Each new ask reaches the person (the window's list, a system
   * notification, the desktop raising its window), so a read-cancel loop
   * would raise one after another; counted as if still waiting, a connection
   * gets no more than its share per ask timeout, as when asks stayed until
   * answered. Per connection only, so no other connection is kept out.
   * Bounded: a connection holds at most MAX_WAITING_PER_CONNECTION of these and waiting asks together.
   */
  private readonly withdrawn = new Map<number, Withdrawn>();
  private nextId = 1;

  constructor(private readonly options: AskGateOptions) {}

  /**
   * Resolves when the read may go on; rejects with notAllowed otherwise.
   * `cancel`: the client cancelled the read; once every read waiting on an
   * ask is cancelled, the prompt is withdrawn (nobody answers a dead read).
   */
  check(who: Requester, target: AskTarget, cancel?: CancelHook): Promise<void> {
    if (who.grantable && this.grants.get(who.connectionId)?.has(target.folder)) return Promise.resolve();
    if (this.options.windows() === 0) return Promise.reject(notAllowed(target.uri, 'no-window'));
    // Cancelled before it got here (while the file was looked up, or in the same packet): nobody is asked.
    if (cancel?.cancelled) return Promise.reject(notAllowed(target.uri, 'cancelled'));
    if (who.grantable) {
      for (const w of this.waiting.values()) {
        if (w.ask.allowClient && w.ask.connectionId === who.connectionId && w.ask.uri === target.uri) return this.join(w, cancel);
      }
    }
    const party = partyOf(who);
    let mine = this.withdrawnBy(who.connectionId); // this connection's asks waiting, and withdrawn ones still counted
    let ours = 0; // its party's
    for (const w of this.waiting.values()) {
      if (w.ask.connectionId === who.connectionId) mine++;
      if (w.party === party) ours++;
    }
    // Full: room is made by the largest share (connections within the party, then parties), never taken from a smaller one.
    const busy = () => Promise.reject(notAllowed(target.uri, 'busy'));
    if (mine >= MAX_WAITING_PER_CONNECTION) return busy();
    if (ours >= MAX_WAITING_PER_PARTY) {
      if (
        !this.displace(
          (w) => w.party === party,
          (w) => String(w.ask.connectionId),
          mine,
        )
      )
        return busy();
      ours--;
    }
    if (
      this.waiting.size >= MAX_WAITING &&
      !this.displace(
        () => true,
        (w) => w.party,
        ours,
      )
    )
      return busy();

    const now = Date.now();
    const timeout = this.options.timeoutMs();
    const ask: AccessAsk = {
      id: this.nextId++,
      time: now,
      deadline: now + timeout,
      client: who.name,
      clientVersion: who.version,
      connectionId: who.connectionId,
      transport: who.transport,
      protocolVersion: who.protocolVersion,
      connectedAt: who.connectedAt,
      allowClient: who.grantable,
      uri: target.uri,
      path: target.path,
      folder: target.folder,
      size: target.size,
      ...(target.via ? { via: target.via } : {}),
    };
    let settle!: (refusal: RefusalReason | null) => void;
    const promise = new Promise<void>((resolve, reject) => {
      settle = (refusal) => (refusal === null ? resolve() : reject(notAllowed(target.uri, refusal)));
    });
    const timer = setTimeout(() => this.finish(ask.id, 'timeout'), timeout);
    const waiting: Waiting = { ask, party, settle, timer, promise, waiters: 0 };
    this.waiting.set(ask.id, waiting);
    this.changed();
    return this.join(waiting, cancel);
  }

  /** One more read waits on this ask; its cancel takes it off, and the last one's withdraws the ask. */
  private join(w: Waiting, cancel: CancelHook | undefined): Promise<void> {
    w.waiters++;
    cancel?.onCancel(() => {
      if (this.waiting.get(w.ask.id) !== w) return; // answered meanwhile
      if (--w.waiters > 0) return;
      this.withdrawn.set(w.ask.id, { connectionId: w.ask.connectionId, deadline: w.ask.deadline });
      this.finish(w.ask.id, 'cancelled');
    });
    return w.promise;
  }

  /** A connection's withdrawn asks still counted (dropping those past their deadline). */
  private withdrawnBy(connectionId: number): number {
    const now = Date.now();
    let n = 0;
    for (const [id, x] of this.withdrawn) {
      if (x.deadline <= now) this.withdrawn.delete(id);
      else if (x.connectionId === connectionId) n++;
    }
    return n;
  }

  /**
   * Makes room among the asks `among` takes, grouped by `groupOf`: a
   * newcomer whose group holds `mine` takes the place of the newest ask of
   * the largest group, if that group holds more than one more than it would
   * (refused as busy). So no party, however many connections it opens, and
   * no connection within a party (whose name anyone can give), keeps the
   * others out; a newcomer never displaces a group no larger than its own.
   */
  private displace(among: (w: Waiting) => boolean, groupOf: (w: Waiting) => string, mine: number): boolean {
    const counts = new Map<string, number>();
    for (const w of this.waiting.values()) if (among(w)) counts.set(groupOf(w), (counts.get(groupOf(w)) ?? 0) + 1);
    let largest: string | null = null;
    for (const [group, n] of counts) if (largest === null || n > (counts.get(largest) ?? 0)) largest = group;
    if (largest === null || (counts.get(largest) ?? 0) <= mine + 1) return false;
    let newest: Waiting | null = null;
    for (const w of this.waiting.values()) if (among(w) && groupOf(w) === largest && (!newest || w.ask.id > newest.ask.id)) newest = w;
    if (newest) this.finish(newest.ask.id, 'busy');
    return newest !== null;
  }

  /** The person's answer; false when the ask is no longer waiting. */
  answer(id: number, decision: AccessDecision): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    // Where no grant can be tied to the client, "this client" allows this read only.
    if (decision === 'client' && w.ask.allowClient) {
      let folders = this.grants.get(w.ask.connectionId);
      if (!folders) this.grants.set(w.ask.connectionId, (folders = new Set()));
      folders.add(w.ask.folder);
      // The grant covers this client's other waiting reads from the same folder too.
      for (const other of [...this.waiting.values()]) {
        if (other !== w && other.ask.allowClient && other.ask.connectionId === w.ask.connectionId && other.ask.folder === w.ask.folder)
          this.finish(other.ask.id, null);
      }
    }
    this.finish(id, decision === 'deny' ? 'denied' : null);
    return true;
  }

  pending(): AccessAsk[] {
    return [...this.waiting.values()].map((w) => w.ask);
  }

  /** A connection ended: its grants end, and its waiting reads are refused. */
  connectionClosed(connectionId: number): void {
    this.grants.delete(connectionId);
    for (const [id, x] of this.withdrawn) if (x.connectionId === connectionId) this.withdrawn.delete(id);
    for (const w of [...this.waiting.values()]) if (w.ask.connectionId === connectionId) this.finish(w.ask.id, 'disconnected');
  }

  /** The last window closed: nobody can answer, so waiting reads are refused now rather than at their timeout. */
  windowsChanged(): void {
    if (this.options.windows() > 0) return;
    for (const w of [...this.waiting.values()]) this.finish(w.ask.id, 'no-window');
  }

  /** A folder stopped asking (option off, removed): its waiting reads go on as any other read would. */
  folderChanged(folder: string, asks: boolean): void {
    for (const grants of this.grants.values()) grants.delete(folder);
    if (asks) return;
    for (const w of [...this.waiting.values()]) if (w.ask.folder === folder) this.finish(w.ask.id, null);
  }

  close(): void {
    for (const w of [...this.waiting.values()]) this.finish(w.ask.id, 'no-window');
    this.grants.clear();
    this.withdrawn.clear();
  }

  private finish(id: number, refusal: RefusalReason | null): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    w.settle(refusal);
    this.changed();
  }

  private changed(): void {
    this.options.changed(this.pending());
  }
}
