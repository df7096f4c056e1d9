import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import type { AccessChange } from '../../../shared/changeTypes.js';
import type { AccessEntry, FileAccess, HistoryExport, HistoryExportFormat, HistoryPage, HistoryQuery } from '../../../shared/shelfApi.js';
import { keptString } from '../clientMemory/keptString.js';
import { addClient, addRead, addReads, fileOf } from './historyCounts.js';
import { historyText } from './historyExport.js';
import { type Collected, collectEntries } from './historyQuery.js';
import { lastSeqOf, lineBytes, readSegment, type Segment, SEGMENT_NAME, segmentName } from './historySegments.js';
import { isNoise } from './noiseFolder.js';

/**
 * The access history on disk: append-only JSON Lines segments in one folder,
 * named by the sequence number of their first entry.
 *
 * - Crash safety: entries are written within FLUSH_MS of being recorded (a
 *   SIGKILL loses at most that), each batch in one write. A segment is never
 *   appended to after a restart — every start opens a new one — so a line
 *   torn by a crash stays the last line of its segment and is skipped when
 *   read; nothing already written is ever rewritten.
 * - Bounds: whole segments are dropped, oldest first, past the byte budget or
 *   the age limit; the per-file counts the window shows are kept in memory and
 *   adjusted by what a dropped segment held (work in proportion to the drop).
 * - Noise (see isNoise: what a client can make at will) may hold at most
 *   NOISE_SHARE of the budget; past it such entries are not kept, so they
 *   can never push real reads (and the files' read counts) out.
 * - Start-up: opening reads only the newest segment's last lines (for the
 *   next sequence number); what earlier runs left is counted in the
 *   background (`counted`), so 64 MiB of history never delays the socket.
 */

export interface HistoryLimits {
  maxBytes: number;
  maxAgeMs: number;
}

/** Recorded entries reach the disk within this long. */
const FLUSH_MS = 250;
/** The newest entries kept in memory, so the window's first page needs no disk read. */
const RECENT = 2000;
/** Entries waiting for the disk beyond this (a stuck disk) are dropped, oldest first, and counted. */
const MAX_PENDING = 20_000;
/** An export holds at most this many entries (the newest that match). */
export const EXPORT_LIMIT = 100_000;
const DEFAULT_PAGE = 200;
/** Client names a page offers to filter by (the rest are still filterable by name through the API). */
const MAX_CLIENTS = 200;
/** Strings a client chose (its name, a URI, an error message) are cut to this before they are stored. */
const MAX_FIELD_CHARS = 2048;

/** The share of the byte budget noise may hold (see isNoise). */
const NOISE_SHARE = 1 / 16;

// A copy of its own (keptString): a slice would keep a client's whole long URI or message alive in every entry.
const cut = (s: string | null): string | null => (s === null ? null : keptString(s, MAX_FIELD_CHARS));

/** A change's record, field by field (what the history keeps is what it names, nothing a caller added). */
function changeOf(c: AccessChange): AccessChange {
  const kept: AccessChange = { kind: c.kind, outcome: c.outcome, added: c.added, removed: c.removed, sizeBefore: c.sizeBefore, sizeAfter: c.sizeAfter };
  if (c.edited) kept.edited = true;
  if (c.undoId !== undefined) kept.undoId = c.undoId.slice(0, 64);
  return kept;
}

export class HistoryStore {
  private readonly segments: Segment[] = [];
  private active: { segment: Segment; handle: FileHandle } | null = null;
  private pending: AccessEntry[] = [];
  private readonly recent: AccessEntry[] = [];
  private readonly perFile = new Map<string, FileAccess>();
  /** Entries per client name (every outcome), for the History tab's client filter. */
  private readonly perClient = new Map<string, number>();
  private nextSeq = 1;
  private flushTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private lastSync = 0;
  private closed = false;
  /** Entries dropped because the disk did not take them (reported once, through `log`). */
  lost = 0;

  private constructor(
    readonly dir: string,
    private limits: HistoryLimits,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Opens (or creates) the history in `dir`. It is ready for new entries and
   * queries at once; the entries earlier runs left are counted in the
   * background (`counted` settles when they are).
   */
  static async open(dir: string, limits: HistoryLimits, log: (message: string) => void = () => undefined): Promise<HistoryStore> {
    const store = new HistoryStore(dir, limits, log);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const names = (await readdir(dir)).filter((n) => SEGMENT_NAME.test(n));
    names.sort((a, b) => Number(SEGMENT_NAME.exec(a)?.[1]) - Number(SEGMENT_NAME.exec(b)?.[1]));
    for (const name of names) {
      const file = path.join(dir, name);
      const st = await stat(file).catch(() => null);
      if (!st?.isFile()) continue;
      const firstSeq = Number(SEGMENT_NAME.exec(name)?.[1]);
      // Until counted, a segment's last write stands for its newest entry (it is never written again).
      store.segments.push({ file, firstSeq, lastSeq: firstSeq, firstTime: 0, lastTime: st.mtimeMs, bytes: st.size, entries: 0, noise: 0, counted: false });
      store.nextSeq = Math.max(store.nextSeq, firstSeq);
    }
    // Sequence numbers go on after the newest entry of the newest segment that holds one.
    for (let i = store.segments.length - 1; i >= 0; i--) {
      const s = store.segments[i] as Segment;
      const last = s.bytes > 0 ? await lastSeqOf(s.file, s.bytes).catch(() => 0) : 0;
      if (last === 0) continue;
      s.lastSeq = last;
      store.nextSeq = Math.max(store.nextSeq, last + 1);
      break;
    }
    await store.prune();
    store.counted = store.countEarlierRuns();
    return store;
  }

  /** Settles when the entries of earlier runs are in the per-file counts and totals. */
  counted: Promise<void> = Promise.resolve();
  /** True until `counted` settles. */
  counting = false;

  /**
   * Counts the segments earlier runs left, oldest first, one at a time
   * (reading yields between chunks, so clients are served meanwhile). A
   * segment pruned or cleared while it was read is not counted.
   */
  private async countEarlierRuns(): Promise<void> {
    const todo = this.segments.filter((s) => !s.counted);
    if (todo.length === 0) return;
    this.counting = true;
    try {
      for (const s of todo) {
        const perFile = new Map<string, FileAccess>();
        const perClient = new Map<string, number>();
        let entries = 0;
        let firstTime = 0;
        let lastTime = 0;
        let lastSeq = s.firstSeq;
        let noise = 0;
        try {
          for await (const e of readSegment(s.file)) {
            if (this.closed) return;
            if (isNoise(e)) noise += lineBytes(e);
            if (entries++ === 0) firstTime = e.time;
            lastTime = Math.max(lastTime, e.time);
            lastSeq = Math.max(lastSeq, e.seq);
            addRead(perFile, e);
            addClient(perClient, e.client, 1);
          }
        } catch {
          continue; // removed while it was read (pruned, cleared)
        }
        if (!this.segments.includes(s)) continue;
        Object.assign(s, { entries, firstTime, lastTime: entries > 0 ? lastTime : s.lastTime, lastSeq, noise, counted: true });
        this.noiseBytes += noise;
        for (const f of perFile.values()) addReads(this.perFile, f.uri, f.reads, f.lastTime, f.lastClient);
        for (const [name, n] of perClient) addClient(this.perClient, name, n);
      }
      // Ages are known now (a file's modification time stood for them).
      await this.enqueue(() => this.prune());
    } finally {
      this.counting = false;
    }
  }

  /** Bytes of noise in the segments and pending (see NOISE_SHARE). */
  private noiseBytes = 0;
  /** Noise entries not kept because noise held its share (reported once a run, through `log`). */
  noiseDropped = 0;

  /** Records one read; it is on disk within FLUSH_MS. Null: noise past its share, not kept. */
  append(entry: Omit<AccessEntry, 'seq'>): AccessEntry | null {
    // Built field by field (not spread): this runs on every client read.
    const e: AccessEntry = {
      seq: this.nextSeq,
      time: entry.time,
      client: cut(entry.client),
      clientVersion: cut(entry.clientVersion),
      protocolVersion: entry.protocolVersion,
      transport: entry.transport,
      via: entry.via,
      uri: cut(entry.uri) ?? '',
      folder: entry.folder,
      size: entry.size,
      outcome: entry.outcome,
      errorCode: entry.errorCode,
      errorMessage: cut(entry.errorMessage),
      detail: cut(entry.detail ?? null),
    };
    // Optional fields assigned in this order (a spread of each would take V8's slow copy).
    if (entry.errorReason !== undefined) e.errorReason = entry.errorReason.slice(0, 64);
    if (entry.repeated !== undefined) e.repeated = entry.repeated;
    if (entry.failure !== undefined) e.failure = entry.failure;
    if (entry.search !== undefined) e.search = { tool: entry.search.tool, query: keptString(entry.search.query, 200), hits: entry.search.hits };
    if (entry.change !== undefined) e.change = changeOf(entry.change);
    if (this.closed) return e;
    if (isNoise(e)) {
      const size = lineBytes(e);
      if (this.noiseBytes + size > this.limits.maxBytes * NOISE_SHARE) {
        if (this.noiseDropped++ === 0)
          this.log(
            'Access history: not-found reads and refusals made without asking hold their share of the history; more of them are not kept until older ones go',
          );
        return null;
      }
      this.noiseBytes += size;
    }
    this.nextSeq++;
    this.pending.push(e);
    if (this.pending.length > MAX_PENDING) {
      const dropped = this.pending.splice(0, this.pending.length - MAX_PENDING);
      this.lost += dropped.length;
      for (const d of dropped) if (isNoise(d)) this.noiseBytes -= lineBytes(d);
    }
    this.count(e, 1);
    this.remember(e);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, FLUSH_MS);
    return e;
  }

  setLimits(limits: HistoryLimits): void {
    this.limits = limits;
    void this.enqueue(() => this.prune());
  }

  /** Writes what is pending (in one write) and prunes past the bounds. */
  flush(): Promise<void> {
    return this.enqueue(async () => {
      if (this.pending.length === 0) return;
      const batch = this.pending;
      this.pending = [];
      // Counted in the total until the segments count it: a page asked for meanwhile shows these rows.
      this.inFlight = batch.length;
      // A burst can exceed a segment: it is split, so no segment outgrows the cap and the bound holds.
      const cap = this.segmentCap();
      let from = 0;
      // A write that fails loses the rest of the batch: it is no longer counted.
      try {
        while (from < batch.length) {
          let text = '';
          let bytes = 0;
          let to = from;
          while (to < batch.length) {
            const line = `${JSON.stringify(batch[to])}\n`;
            const size = Buffer.byteLength(line);
            if (to > from && bytes + size > cap) break;
            text += line;
            bytes += size;
            to++;
          }
          const target = await this.writable(batch[from] as AccessEntry, bytes);
          await target.handle.write(text);
          const s = target.segment;
          s.bytes += bytes;
          for (let i = from; i < to; i++) if (isNoise(batch[i] as AccessEntry)) s.noise += lineBytes(batch[i] as AccessEntry);
          s.entries += to - from;
          this.inFlight -= to - from;
          s.lastSeq = (batch[to - 1] as AccessEntry).seq;
          for (let i = from; i < to; i++) s.lastTime = Math.max(s.lastTime, (batch[i] as AccessEntry).time);
          from = to;
          await this.prune();
        }
      } finally {
        this.inFlight = 0;
      }
      const now = Date.now();
      // Process crashes lose nothing written; an fdatasync at most once a second covers the machine's too, at little cost.
      if (this.active && now - this.lastSync >= 1000) {
        this.lastSync = now;
        // A failed sync loses nothing the process wrote (the kernel has it); it is said, since a crash of the machine could.
        await this.active.handle.datasync().catch((err: Error) => this.log(`Access history: could not sync to disk (${err.message})`));
      }
      if (this.lost > 0) {
        this.log(`Access history: ${this.lost} entries could not be written in time and were dropped`);
        this.lost = 0;
      }
    });
  }

  /** Newest first, `limit` at a time; `nextBeforeSeq` pages on. */
  async query(q: HistoryQuery): Promise<HistoryPage> {
    const limit = Math.max(1, Math.min(q.limit ?? DEFAULT_PAGE, EXPORT_LIMIT));
    const { entries, more } = await this.collect(q, limit);
    const last = entries[entries.length - 1];
    return {
      entries,
      ...(more && last ? { nextBeforeSeq: last.seq } : {}),
      total: this.total(),
      oldest: this.oldest(),
      clients: this.clients(),
      ...(this.counting ? { counting: true } : {}),
    };
  }

  /** The clients the history holds entries of, most entries first (at most MAX_CLIENTS), for filtering by client. */
  clients(): string[] {
    const all = [...this.perClient];
    if (all.length > MAX_CLIENTS) all.sort((a, b) => b[1] - a[1]).length = MAX_CLIENTS;
    return all.map(([name]) => name).sort((a, b) => a.localeCompare(b));
  }

  fileAccess(): FileAccess[] {
    return [...this.perFile.values()];
  }

  /** The newest matching entries (up to EXPORT_LIMIT) as CSV or JSON Lines, oldest first. */
  async export(q: HistoryQuery, format: HistoryExportFormat): Promise<HistoryExport> {
    const { entries, matched } = await this.collect(q, EXPORT_LIMIT, true);
    entries.reverse();
    const text = historyText(entries, format);
    return { text, count: entries.length, matched };
  }

  /** Deletes every entry (sequence numbers go on from where they were). */
  clear(): Promise<void> {
    return this.enqueue(async () => {
      this.pending = [];
      await this.closeActive();
      for (const s of this.segments.splice(0)) await rm(s.file, { force: true });
      this.perFile.clear();
      this.perClient.clear();
      this.recent.length = 0;
      this.noiseBytes = 0;
    });
  }

  /** Writes what is pending and closes the file. */
  async close(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await this.flush();
    this.closed = true;
    await this.enqueue(() => this.closeActive());
  }

  /** Entries of the batch being written that no segment counts yet. */
  private inFlight = 0;

  private total(): number {
    return this.segments.reduce((n, s) => n + s.entries, 0) + this.inFlight + this.pending.length;
  }

  private oldest(): number | null {
    const first = this.segments.find((s) => s.entries > 0 || !s.counted);
    // Not known until the oldest segment is counted (the page says it is counting).
    if (first && !first.counted) return null;
    return first?.firstTime ?? this.pending[0]?.time ?? null;
  }

  /** Matching entries, newest first, up to `limit` (see collectEntries). */
  private collect(q: HistoryQuery, limit: number, all = false): Promise<Collected> {
    return collectEntries({ recent: this.recent, nextSeq: this.nextSeq, segments: this.segments, flush: () => this.flush() }, q, limit, all);
  }

  private remember(e: AccessEntry): void {
    this.recent.push(e);
    // Trimmed in halves, so remembering stays O(1) per entry (it holds RECENT to 2×RECENT).
    if (this.recent.length > 2 * RECENT) this.recent.splice(0, this.recent.length - RECENT);
  }

  /** Adds (+1) or takes back (-1) an entry in the per-file counts; only successful reads count. */
  private count(e: AccessEntry, sign: 1 | -1): void {
    addClient(this.perClient, e.client, sign);
    if (sign === 1) return addRead(this.perFile, e);
    if (e.outcome !== 'ok' || e.search || e.change) return;
    const known = this.perFile.get(fileOf(e));
    if (known && --known.reads <= 0) this.perFile.delete(known.uri);
  }

  /** The segment this run appends to: opened on first write, replaced when full or a day old. */
  /** A segment's size: an eighth of the budget, within 256 KiB…8 MiB (so the bound is the budget plus one segment). */
  private segmentCap(): number {
    return Math.min(8 * 1024 * 1024, Math.max(256 * 1024, Math.floor(this.limits.maxBytes / 8)));
  }

  private async writable(first: AccessEntry, bytes: number): Promise<{ segment: Segment; handle: FileHandle }> {
    const cap = this.segmentCap();
    const current = this.active;
    if (current && current.segment.bytes + bytes <= cap && Date.now() - (current.segment.lastTime || Date.now()) < 86_400_000) return current;
    await this.closeActive();
    const segment: Segment = {
      file: path.join(this.dir, segmentName(first.seq)),
      firstSeq: first.seq,
      lastSeq: first.seq,
      firstTime: first.time,
      lastTime: first.time,
      bytes: 0,
      entries: 0,
      noise: 0,
      counted: true,
    };
    // 'wx': a segment is only ever created, never reopened.
    const handle = await open(segment.file, 'wx', 0o600);
    this.segments.push(segment);
    this.active = { segment, handle };
    return this.active;
  }

  private async closeActive(): Promise<void> {
    const a = this.active;
    this.active = null;
    // Every write was awaited before this: a close that fails loses nothing.
    await a?.handle.close().catch(() => undefined);
  }

  /** Drops whole segments, oldest first, while over the byte budget or older than the age limit (the one being written stays). */
  private async prune(): Promise<void> {
    const cutoff = Date.now() - this.limits.maxAgeMs;
    let bytes = this.segments.reduce((n, s) => n + s.bytes, 0);
    while (this.segments.length > 0) {
      const oldest = this.segments[0] as Segment;
      if (oldest === this.active?.segment) break;
      if (bytes <= this.limits.maxBytes && oldest.lastTime >= cutoff) break;
      if (oldest.counted) for await (const e of readSegment(oldest.file)) this.count(e, -1);
      await rm(oldest.file, { force: true });
      this.segments.shift();
      bytes -= oldest.bytes;
      this.noiseBytes -= oldest.noise;
      const before = this.segments[0]?.firstSeq ?? this.nextSeq;
      while (this.recent.length > 0 && (this.recent[0] as AccessEntry).seq < before) this.recent.shift();
    }
  }

  /** Store operations run one at a time, in order. */
  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.writing.then(op, op);
    this.writing = run.catch((err: Error) => this.log(`Access history: ${err.message}`));
    return run;
  }
}
