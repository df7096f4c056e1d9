import type { ReadFailure } from '../../../shared/readFailure.js';
import type { TrafficEntry, TrafficKind, TrafficQuery, TrafficRow } from '../../../shared/shelfApi.js';
import { matchesTraffic } from '../../../shared/trafficFilter.js';
import type { LoggedForm } from '../base/loggedForm.js';
import { keptString } from '../clientMemory/keptString.js';
import { MAX_LOGGED_STRING, truncateForLog } from './truncate.js';

export interface TrafficLogOptions {
  maxEntries: number;
  maxBytes: number;
  /** Subscribers get new entries in one batch per interval (default 200 ms), not one call per message. */
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
/**
 * Rows a live batch carries at most: the newest of its interval. A flood
 * costs the windows a bounded number of rows a second; what a batch leaves
 * out stays in the log (the window sees the gap in `seq`).
 */
export const LIVE_BATCH_ROWS = 1000;
/** A payload handed out on demand is cut past this many characters (the ring bounds it too; this bounds one answer). */
export const MAX_PAYLOAD_CHARS = 1024 * 1024;

/** A message without its JSON: what the live batches and the window's list carry. */
export function rowOf(e: TrafficEntry): TrafficRow {
  const { payload: _payload, ...row } = e;
  return row;
}

/** What the log keeps of a JSON-RPC message: its wire text when short, else a truncated copy. */
function logPayload(m: Message, text: string | undefined, form: LoggedForm | undefined): { payload: string; truncated: boolean } {
  if (text !== undefined && (form === 'cut' || form === 'verbatim')) return { payload: text, truncated: form === 'cut' };
  const preview = form === 'preview';
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
  /** Each entry's cost in the byte bound, beside it (worked out once: trimming reads it back). */
  private costs: number[] = [];
  private head = 0; // entries before head are dropped, compacted lazily
  private bytes = 0;
  private seq = 0;
  private readonly pending = new Map<number, OpenRequests>();
  private readonly clients = new Map<number, string>();
  /** Each subscriber, and whether it wants batches now (the service asks its own listeners: no window, no batch). */
  private readonly listeners = new Map<(batch: TrafficRow[]) => void, () => boolean>();
  /** The live batch: a ring of the newest LIVE_BATCH_ROWS entries since the last one went out, `batched` of them seen. */
  private batch: TrafficEntry[] = [];
  private batched = 0;
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

  subscribe(listener: (batch: TrafficRow[]) => void, active: () => boolean = () => true): () => void {
    this.listeners.set(listener, active);
    return () => this.listeners.delete(listener);
  }

  /**
   * Records one message. `text` is its JSON as on the wire, when known; for a
   * line that was not JSON `message` is null and `text` holds the line.
   * `form` says how `text` stands for the message (see LoggedForm).
   */
  record(connectionId: number, direction: 'in' | 'out', message: unknown, bytes: number, text?: string, form?: LoggedForm): TrafficEntry {
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
    // A tool that failed answers with a result (isError), not a JSON-RPC error: a denied or timed-out read showed as "ok".
    const toolResult =
      kind === 'response' && method === 'tools/call' ? (m?.result as { isError?: unknown; content?: Array<{ text?: unknown }> } | undefined) : undefined;
    if (toolResult?.isError === true) {
      const said = toolResult.content?.[0]?.text;
      errorMessage = typeof said === 'string' ? keptString(said, MAX_LOGGED_STRING, '…') : null;
    }
    const kept =
      m === null ? { payload: keptString(text ?? '', MAX_LOGGED_STRING), truncated: (text ?? '').length > MAX_LOGGED_STRING } : logPayload(m, text, form);
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
    if (toolResult?.isError === true) entry.toolError = true;
    const cost = entryCost(entry);
    this.entries.push(entry);
    this.costs.push(cost);
    this.bytes += cost;
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
    const out: TrafficEntry[] = [];
    for (let i = this.entries.length - 1; i >= this.head && out.length < limit; i--) {
      const e = this.entries[i] as TrafficEntry;
      if (q.afterSeq !== undefined && e.seq <= q.afterSeq) break;
      if (matchesTraffic(e, q)) out.push(e);
    }
    return out.reverse();
  }

  /** The matching entries without their JSON, oldest first (the window's list). */
  rows(q: TrafficQuery = {}): TrafficRow[] {
    return this.query(q).map(rowOf);
  }

  /** The JSON of the entry `seq` (cut past MAX_PAYLOAD_CHARS), or null when the log no longer holds it. */
  payload(seq: number): string | null {
    // Entries are in seq order: a binary search over what the ring holds.
    let lo = this.head;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.entries[mid] as TrafficEntry;
      if (e.seq === seq) return e.payload.length <= MAX_PAYLOAD_CHARS ? e.payload : `${e.payload.slice(0, MAX_PAYLOAD_CHARS)}… [${e.payload.length} chars]`;
      if (e.seq < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  /** The matching entries as JSON Lines, oldest first. */
  exportJsonLines(q: TrafficQuery = {}): string {
    const lines = this.query({ ...q, limit: q.limit ?? Number.MAX_SAFE_INTEGER }).map((e) => JSON.stringify(e));
    return lines.length > 0 ? `${lines.join('\n')}\n` : '';
  }

  clear(): void {
    this.entries = [];
    this.costs = [];
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
      this.bytes -= this.costs[this.head] as number;
      this.head++;
      this.dropped++;
    }
    // Compact when the dropped prefix dominates, so trimming stays O(1) amortised.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.costs = this.costs.slice(this.head);
      this.head = 0;
    }
  }

  private enqueue(entry: TrafficEntry): void {
    if (!this.wanted()) return;
    // A ring: past LIVE_BATCH_ROWS the newest overwrites the oldest, so a flood holds no more than that until the batch goes.
    this.batch[this.batched++ % LIVE_BATCH_ROWS] = entry;
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.options.batchMs ?? 200);
  }

  /** Sends the live batch: its rows oldest first, without payloads (the window fetches one when it is opened). */
  private flush(): void {
    this.timer = null;
    const from = this.batched > LIVE_BATCH_ROWS ? this.batched % LIVE_BATCH_ROWS : 0;
    const kept = this.batch.length;
    const rows: TrafficRow[] = [];
    for (let i = 0; i < kept; i++) rows.push(rowOf(this.batch[(from + i) % kept] as TrafficEntry));
    this.batch = [];
    this.batched = 0;
    for (const l of this.listeners.keys()) l(rows);
  }

  private wanted(): boolean {
    for (const active of this.listeners.values()) if (active()) return true;
    return false;
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
