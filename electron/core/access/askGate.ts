import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { AccessAsk, AccessDecision, AccessEntry } from '../../../shared/shelfApi.js';
import { ShelfError } from '../library/shelfError.js';

/** Who is reading: one connection (socket, 2025 HTTP session) or one modern HTTP client (per name and version). */
export interface Requester {
  connectionId: number;
  name: string | null;
  version: string | null;
  protocolVersion: string | null;
  transport: 'socket' | 'http';
}

/** The file a read would open. */
export interface AskTarget {
  uri: string;
  folder: string;
  path: string;
  size: number;
  via?: AccessEntry['via'];
}

export type RefusalReason = 'denied' | 'timeout' | 'no-window' | 'disconnected' | 'busy';

export interface AskGateOptions {
  /** How long an ask waits for an answer. */
  timeoutMs: () => number;
  /** Windows (Electron or browser tabs) that can show an ask; with none, reads are refused at once. */
  windows: () => number;
  /** The waiting list changed (for the window, and the desktop's notification). */
  changed: (asks: AccessAsk[]) => void;
}

/** Asks waiting at once, for all clients together, and per connection: past these a read is refused rather than queued. */
const MAX_WAITING = 64;
const MAX_WAITING_PER_CONNECTION = 8;

const REASONS: Record<RefusalReason, string> = {
  denied: 'the person at MCP Shelf denied it',
  timeout: 'nobody answered in time',
  'no-window': 'no MCP Shelf window is open to ask (open the app, or mcp-shelf serve --ui in a browser)',
  disconnected: 'the client disconnected while it waited',
  busy: 'too many reads are already waiting for an answer',
};

/** The error a refused read gets, in every revision and over every transport. */
export function notAllowed(uri: string, reason: RefusalReason): ShelfError {
  return new ShelfError(ErrorCodes.readNotAllowed, `Read not allowed: this folder asks before each read, and ${REASONS[reason]}`, { uri, reason });
}

interface Waiting {
  ask: AccessAsk;
  settle: (allowed: RefusalReason | null) => void;
  timer: NodeJS.Timeout;
  /** Reads of the same file by the same connection, answered together. */
  promise: Promise<void>;
}

/**
 * Ask-before-read: a read from such a folder waits here until the person
 * allows it once, allows this client (connection) until it disconnects, or
 * denies it; no answer within the timeout is a deny. Waiting holds no file
 * open and no lock, so other reads — other folders, other clients — go on.
 */
export class AskGate {
  private readonly waiting = new Map<number, Waiting>();
  /** connection id → folders it may read without asking, until it disconnects. */
  private readonly grants = new Map<number, Set<string>>();
  private nextId = 1;

  constructor(private readonly options: AskGateOptions) {}

  /** Resolves when the read may go on; rejects with notAllowed otherwise. */
  check(who: Requester, target: AskTarget): Promise<void> {
    if (this.grants.get(who.connectionId)?.has(target.folder)) return Promise.resolve();
    if (this.options.windows() === 0) return Promise.reject(notAllowed(target.uri, 'no-window'));
    for (const w of this.waiting.values()) {
      if (w.ask.connectionId === who.connectionId && w.ask.uri === target.uri) return w.promise;
    }
    const mine = [...this.waiting.values()].filter((w) => w.ask.connectionId === who.connectionId).length;
    if (this.waiting.size >= MAX_WAITING || mine >= MAX_WAITING_PER_CONNECTION) return Promise.reject(notAllowed(target.uri, 'busy'));

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
    this.waiting.set(ask.id, { ask, settle, timer, promise });
    this.changed();
    return promise;
  }

  /** The person's answer; false when the ask is no longer waiting. */
  answer(id: number, decision: AccessDecision): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    if (decision === 'client') {
      let folders = this.grants.get(w.ask.connectionId);
      if (!folders) this.grants.set(w.ask.connectionId, (folders = new Set()));
      folders.add(w.ask.folder);
      // The grant covers this client's other waiting reads from the same folder too.
      for (const other of [...this.waiting.values()]) {
        if (other !== w && other.ask.connectionId === w.ask.connectionId && other.ask.folder === w.ask.folder) this.finish(other.ask.id, null);
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
