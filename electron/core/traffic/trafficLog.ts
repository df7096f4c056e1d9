import type { ReadFailure } from '../../../shared/readFailure.js';
import type { TrafficEntry, TrafficKind, TrafficQuery } from '../../../shared/shelfApi.js';
import { keptString } from '../clientMemory/keptString.js';
import { MAX_LOGGED_STRING, truncateForLog } from './truncate.js';

export interface TrafficLogOptions {
  maxEntries: number;
  maxBytes: number;
  /** Subscribers get new entries in one batch per interval, not one call per message. */
  batchMs?: number;
  /** Why an error reply to a read failed, for the owner (the client's "not found" may be outside, hidden, ignored…). */
  explain?: (uri: string, code: number | null, reason: unknown) => ReadFailure;
}

type Message = Record<string, unknown>;

interface PendingRequest {
  time: number;
  method: string | null;
  target: string | null;
}

/**
 * Messages whose wire JSON is at most this long are kept verbatim: no string
 * in them can be longer than the log keeps, so no walk and second stringify
 * is needed (requests mostly). Longer ones are cut as truncateForLog says.
 */
const VERBATIM_CHARS = MAX_LOGGED_STRING;
/**
 * A text given as already cut (`preview`: a streamed reply's, or a cached
 * reply's cut form, made once per file version) is kept as given up to this
 * length; past it (a long URI, say) it is cut again from the message.
 */
const PREVIEW_CHARS = 16 * 1024;
/** Requests awaiting their reply, per connection and direction, kept for pairing. */
const MAX_PENDING = 1024;

/** A connection's requests awaiting their reply, by direction, keyed by id (1 and "1" stay apart). */
interface OpenRequests {
  in: Map<string | number, PendingRequest>;
  out: Map<string | number, PendingRequest>;
}
/** Request ids and method names longer than this are kept cut. */
const MAX_ID_CHARS = 200;

/** What the log keeps of a JSON-RPC message: its wire text when short, else a truncated copy. */
function logPayload(m: Message, text: string | undefined, preview: boolean): { payload: string; truncated: boolean } {
  if (text !== undefined && text.length <= (preview ? PREVIEW_CHARS : VERBATIM_CHARS)) return { payload: text, truncated: preview };
  const cut = truncateForLog(m);
  return { payload: JSON.stringify(cut.value), truncated: cut.truncated };
}

const length = (s: string | number | null) => (typeof s === 'string' ? s.length : 0);
/** Cost of an entry in the ring's byte bound: its kept strings plus a fixed overhead. */
const entryCost = (e: TrafficEntry) =>
  (e.payload.length + length(e.client) + length(e.method) + length(e.target) + length(e.id) + length(e.errorMessage)) * 2 + 200;

/**
 * Every JSON-RPC message on every connection, in a ring bounded by count and
 * bytes. Requests and responses are paired per connection for durations;
 * subscribers receive batches, so a flood of traffic is a few calls a second.
 */
export class TrafficLog {
  private entries: TrafficEntry[] = [];
  private head = 0; // entries before head are dropped, compacted lazily
  private bytes = 0;
  private seq = 0;
  private readonly pending = new Map<number, OpenRequests>();
  private readonly clients = new Map<number, string>();
  private readonly listeners = new Set<(batch: TrafficEntry[]) => void>();
  private batch: TrafficEntry[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private options: TrafficLogOptions) {}

  setLimits(maxEntries: number, maxBytes: number): void {
    this.options = { ...this.options, maxEntries, maxBytes };
    this.trim();
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** Messages dropped by the bounds since the start (or the last clear): the log is a window, and says how much it lost. */
  dropped = 0;

  get byteSize(): number {
    return this.bytes;
  }

  subscribe(listener: (batch: TrafficEntry[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Records one message. `text` is its JSON as on the wire, when known; for a
   * line that was not JSON `message` is null and `text` holds the line.
   * `preview` marks `text` as already cut down from a larger message.
   */
  record(connectionId: number, direction: 'in' | 'out', message: unknown, bytes: number, text?: string, preview = false): TrafficEntry {
    const now = Date.now();
    const m = (message && typeof message === 'object' && !Array.isArray(message) ? message : null) as Message | null;
    const hasId = m !== null && 'id' in m && (typeof m.id === 'string' || typeof m.id === 'number');
    // A client picks its ids and method names: long ones are kept cut, as copies of their own (keptString).
    const id = hasId ? (typeof m.id === 'string' ? keptString(m.id, MAX_ID_CHARS, '…') : (m.id as number)) : null;
    let method = m && typeof m.method === 'string' ? keptString(m.method, MAX_ID_CHARS, '…') : null;
    let kind: TrafficKind;
    let errorCode: number | null = null;
    let errorMessage: string | null = null;
    let durationMs: number | null = null;
    let failure: ReadFailure | null = null;

    if (m === null) {
      kind = 'error';
      errorMessage = message === null ? 'Not JSON' : 'Not a JSON-RPC object';
    } else if (m.error && typeof m.error === 'object') {
      kind = 'error';
      const err = m.error as { code?: unknown; message?: unknown; data?: { uri?: unknown; reason?: unknown } };
      errorCode = typeof err.code === 'number' ? err.code : null;
      errorMessage = typeof err.message === 'string' ? keptString(err.message, MAX_LOGGED_STRING, '…') : null;
      // Only errors we sent about a file (they name its URI) get a reason; errors are few, so this costs nothing on reads that work.
      const uri = err.data?.uri;
      if (direction === 'out' && typeof uri === 'string' && uri.length <= 8192 && this.options.explain)
        failure = this.options.explain(uri, errorCode, err.data?.reason);
    } else if ('result' in m) {
      kind = 'response';
    } else if (method !== null && hasId) {
      kind = 'request';
    } else {
      kind = 'notification';
    }

    // What the message is about: the URI read or subscribed, the tool called (responses inherit their request's).
    let target = kind === 'request' || kind === 'notification' ? targetOf(m) : null;
    if (kind === 'request') {
      let open = this.pending.get(connectionId);
      if (!open) this.pending.set(connectionId, (open = { in: new Map(), out: new Map() }));
      const side = open[direction];
      // Bounded: a request never answered (a listen, a vanished client) must not stay forever.
      if (side.size >= MAX_PENDING) side.delete(side.keys().next().value as string | number);
      side.set(id as string | number, { time: now, method, target });
    } else if ((kind === 'response' || kind === 'error') && id !== null) {
      const side = this.pending.get(connectionId)?.[direction === 'out' ? 'in' : 'out'];
      const req = side?.get(id);
      if (req) {
        side?.delete(id);
        durationMs = now - req.time;
        method = req.method;
        target = req.target;
      }
    }

    // A tool read says what it gave in its result's _meta (a string the server made: a page, an image's size).
    const detail = kind === 'response' && method === 'tools/call' && direction === 'out' ? readDetailOf(m) : null;
    const kept =
      m === null ? { payload: keptString(text ?? '', MAX_LOGGED_STRING), truncated: (text ?? '').length > MAX_LOGGED_STRING } : logPayload(m, text, preview);
    // Built in one literal (no spreads): this runs for every message.
    const entry: TrafficEntry = {
      seq: ++this.seq,
      time: now,
      connectionId,
      client: this.clients.get(connectionId) ?? null,
      direction,
      kind,
      method,
      target,
      id,
      durationMs,
      bytes,
      errorCode,
      errorMessage,
      payload: kept.payload,
      truncated: kept.truncated,
    };
    if (detail) entry.detail = detail;
    if (failure) entry.failure = failure;
    this.entries.push(entry);
    this.bytes += entryCost(entry);
    this.trim();
    this.enqueue(entry);
    return entry;
  }

  /** Names the client of a connection in its entries from now on (null: unnamed). */
  setClient(connectionId: number, label: string | null): void {
    if (label === null) this.clients.delete(connectionId);
    else this.clients.set(connectionId, label);
  }

  /** Forgets per-connection state once a connection is gone. */
  connectionClosed(connectionId: number): void {
    this.pending.delete(connectionId);
    this.clients.delete(connectionId);
  }

  query(q: TrafficQuery = {}): TrafficEntry[] {
    const limit = q.limit ?? 1000;
    const text = q.text?.toLowerCase();
    const out: TrafficEntry[] = [];
    for (let i = this.entries.length - 1; i >= this.head && out.length < limit; i--) {
      const e = this.entries[i] as TrafficEntry;
      if (q.afterSeq !== undefined && e.seq <= q.afterSeq) break;
      if (q.connectionId !== undefined && e.connectionId !== q.connectionId) continue;
      if (q.method !== undefined && e.method !== q.method) continue;
      if (q.errorsOnly && e.kind !== 'error') continue;
      if (q.failure !== undefined && e.failure !== q.failure) continue;
      if (text && !(e.method ?? '').toLowerCase().includes(text) && !e.payload.toLowerCase().includes(text)) continue;
      out.push(e);
    }
    return out.reverse();
  }

  /** The matching entries as JSON Lines, oldest first. */
  exportJsonLines(q: TrafficQuery = {}): string {
    const lines = this.query({ ...q, limit: q.limit ?? Number.MAX_SAFE_INTEGER }).map((e) => JSON.stringify(e));
    return lines.length > 0 ? `${lines.join('\n')}\n` : '';
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    this.dropped = 0;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }

  private trim(): void {
    while (this.size > 0 && (this.size > this.options.maxEntries || this.bytes > this.options.maxBytes)) {
      this.bytes -= entryCost(this.entries[this.head] as TrafficEntry);
      this.head++;
      this.dropped++;
    }
    // Compact when the dropped prefix dominates, so trimming stays O(1) amortised.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  private enqueue(entry: TrafficEntry): void {
    if (this.listeners.size === 0) return;
    this.batch.push(entry);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = this.batch;
      this.batch = [];
      for (const l of this.listeners) l(batch);
    }, this.options.batchMs ?? 50);
  }
}

/** Client-chosen strings shown as a target are cut to this. */
const MAX_TARGET_CHARS = 300;

/** Which part of a file a read_resource call asks for: " offset 2001 limit 2000", " pages 3-5" (a whole read: nothing). */
function partOf(args: Record<string, unknown>): string {
  return ['offset', 'limit', 'column', 'pages']
    .filter((k) => typeof args[k] === 'number' || typeof args[k] === 'string')
    .map((k) => ` ${k} ${String(args[k]).slice(0, 40)}`)
    .join('');
}

/** What a read_resource result says it gave (`_meta["dev.mcpshelf/read"].detail`), or null. */
function readDetailOf(m: Message | null): string | null {
  const detail = (m?.result as { _meta?: Record<string, { detail?: unknown } | undefined> } | undefined)?._meta?.['dev.mcpshelf/read']?.detail;
  return typeof detail === 'string' ? detail.slice(0, 200) : null;
}

/** The URI or tool name a request (or notification) is about, or null. */
function targetOf(m: Message | null): string | null {
  const params = m?.params as Record<string, unknown> | undefined;
  if (!params || typeof params !== 'object') return null;
  const args = params.arguments as Record<string, unknown> | undefined;
  const raw =
    m?.method === 'tools/call' && typeof params.name === 'string'
      ? typeof args?.uri === 'string'
        ? `${params.name} ${args.uri}${partOf(args)}`
        : typeof args?.query === 'string'
          ? `${params.name} "${args.query}"`
          : typeof args?.pattern === 'string'
            ? `${params.name} /${args.pattern}/${args.ignoreCase === true ? 'i' : ''}`
            : params.name
      : typeof params.uri === 'string'
        ? params.uri
        : null;
  return raw === null ? null : keptString(raw, MAX_TARGET_CHARS, '…');
}
