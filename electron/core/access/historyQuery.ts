import type { AccessEntry, HistoryQuery } from '../../../shared/shelfApi.js';
import { readSegment, type Segment } from './historySegments.js';

/** What a query reads: the newest entries in memory, then the segments on disk. */
export interface HistorySource {
  /** The newest entries, oldest first; every entry from its first seq on (flushed or not). */
  recent: readonly AccessEntry[];
  nextSeq: number;
  segments: readonly Segment[];
  /** Writes what is pending, so the segments hold everything older than `recent`. */
  flush(): Promise<void>;
}

export interface Collected {
  entries: AccessEntry[];
  more: boolean;
  matched: number;
}

const kindOf = (e: AccessEntry): 'read' | 'search' | 'change' => (e.search ? 'search' : e.change ? 'change' : 'read');

function matches(e: AccessEntry, q: HistoryQuery): boolean {
  return (
    (q.beforeSeq === undefined || e.seq < q.beforeSeq) &&
    (q.client === undefined || e.client === q.client) &&
    (q.folder === undefined || e.folder === q.folder) &&
    (q.uri === undefined || e.uri === q.uri) &&
    (q.outcome === undefined || e.outcome === q.outcome) &&
    (q.failure === undefined || e.failure === q.failure) &&
    (q.kind === undefined || q.kind === kindOf(e)) &&
    (q.since === undefined || e.time >= q.since) &&
    (q.until === undefined || e.time <= q.until)
  );
}

/**
 * Matching entries, newest first, up to `limit`: from memory while the
 * recent ones suffice, then segment by segment from the newest. `all`
 * also counts matches past the limit (for export).
 */
export async function collectEntries(source: HistorySource, q: HistoryQuery, limit: number, all = false): Promise<Collected> {
  const entries: AccessEntry[] = [];
  let matched = 0;
  const take = (e: AccessEntry): boolean => {
    if (!matches(e, q)) return true;
    matched++;
    if (entries.length < limit) entries.push(e);
    // One match past the limit says there is more; an export counts them all.
    return all || matched <= limit;
  };
  // The recent ring covers every entry from its first seq on (flushed or not).
  const recentFrom = source.recent[0]?.seq ?? source.nextSeq;
  for (let i = source.recent.length - 1; i >= 0; i--) {
    if (!take(source.recent[i] as AccessEntry)) return { entries, more: true, matched };
  }
  if (recentFrom > 1) {
    await source.flush();
    for (let i = source.segments.length - 1; i >= 0; i--) {
      const s = source.segments[i] as Segment;
      if (
        s.firstSeq >= recentFrom ||
        (q.beforeSeq !== undefined && s.firstSeq >= q.beforeSeq) ||
        (q.since !== undefined && s.entries > 0 && s.lastTime < q.since)
      )
        continue;
      const older: AccessEntry[] = [];
      for await (const e of readSegment(s.file)) if (e.seq < recentFrom) older.push(e);
      for (let j = older.length - 1; j >= 0; j--) if (!take(older[j] as AccessEntry)) return { entries, more: true, matched };
    }
  }
  return { entries, more: matched > entries.length, matched };
}
