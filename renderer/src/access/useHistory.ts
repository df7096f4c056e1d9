import { useCallback, useEffect, useMemo, useState } from 'react';

import type { ReadFailure } from '../../../shared/readFailure';
import type { AccessEntry, HistoryExport, HistoryExportFormat, HistoryPage, HistoryQuery, ShelfApi } from '../../../shared/shelfApi';

const PAGE = 200;
export const RANGES = [
  { id: 'all', label: 'All time', ms: null },
  { id: 'hour', label: 'Last hour', ms: 3_600_000 },
  { id: 'day', label: 'Last 24 hours', ms: 86_400_000 },
  { id: 'week', label: 'Last 7 days', ms: 7 * 86_400_000 },
] as const;
export type Range = (typeof RANGES)[number]['id'];

export interface HistoryFilters {
  client: string;
  folder: string;
  outcome: '' | AccessEntry['outcome'];
  failure: '' | ReadFailure;
  kind: '' | 'read' | 'search' | 'change';
  range: Range;
  /** One file's entries (null: every file). */
  uri: string | null;
}

const NO_FILTERS: Omit<HistoryFilters, 'uri'> = { client: '', folder: '', outcome: '', failure: '', kind: '', range: 'all' };

export interface HistoryState {
  filters: HistoryFilters;
  setFilter: <K extends keyof HistoryFilters>(key: K, value: HistoryFilters[K]) => void;
  /** True when any filter narrows the list. */
  filtered: boolean;
  /** The newest page (null until it comes): the count kept, since when, the clients known. */
  page: HistoryPage | null;
  /** The newest page's entries, then the older pages loaded. */
  entries: AccessEntry[];
  /** Every client the history holds, for the filter. */
  clients: string[];
  hasMore: boolean;
  loadOlder: () => void;
  exportAs: (format: HistoryExportFormat) => Promise<HistoryExport>;
  clear: () => Promise<void>;
}

/**
 * The access history as the History tab shows it: filters, the newest page
 * (fetched again whenever the history moves on: `changes`), older pages on
 * demand, export and clearing.
 */
export function useHistory(api: ShelfApi, changes: number, initialUri: string | null, fail: (err: unknown) => void): HistoryState {
  const [filters, setFilters] = useState<HistoryFilters>({ ...NO_FILTERS, uri: initialUri });
  const [page, setPage] = useState<HistoryPage | null>(null);
  /** Pages loaded below the newest one, and whether more follow. */
  const [older, setOlder] = useState<{ entries: AccessEntry[]; more: boolean } | null>(null);
  const [clients, setClients] = useState<string[]>([]);

  useEffect(() => setFilters((f) => (f.uri === initialUri ? f : { ...f, uri: initialUri })), [initialUri]);
  const setFilter = useCallback(
    <K extends keyof HistoryFilters>(key: K, value: HistoryFilters[K]) => setFilters((f) => (f[key] === value ? f : { ...f, [key]: value })),
    [],
  );

  const query = useMemo((): HistoryQuery => {
    const { client, folder, outcome, failure, kind, uri, range } = filters;
    const ms = RANGES.find((r) => r.id === range)?.ms ?? null;
    return {
      ...(client ? { client } : {}),
      ...(folder ? { folder } : {}),
      ...(outcome ? { outcome } : {}),
      ...(failure ? { failure } : {}),
      ...(kind ? { kind } : {}),
      ...(uri ? { uri } : {}),
      ...(ms !== null ? { since: Date.now() - ms } : {}),
    };
    // changes: the newest page follows the history, and "last hour" moves on with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters, changes]);

  // The newest page follows new reads as they come; older pages stay as loaded.
  useEffect(() => {
    let current = true;
    api.queryHistory({ ...query, limit: PAGE }).then((p) => {
      if (!current) return;
      setPage(p);
      // Every client the history holds (the store keeps the list), and the one chosen even once its entries are gone.
      setClients((known) => [...new Set([...p.clients, ...known.filter((c) => c === query.client)])].sort((a, b) => a.localeCompare(b)));
    }, fail);
    return () => {
      current = false;
    };
  }, [api, query, fail]);
  useEffect(() => setOlder(null), [filters]);

  const entries = useMemo(() => {
    const first = page?.entries ?? [];
    const floor = first[first.length - 1]?.seq ?? Infinity;
    return [...first, ...(older?.entries ?? []).filter((e) => e.seq < floor)];
  }, [page, older]);
  const nextBefore = older ? (older.entries[older.entries.length - 1]?.seq ?? null) : (page?.nextBeforeSeq ?? null);
  const hasMore = older ? older.more : page?.nextBeforeSeq !== undefined;

  const loadOlder = useCallback(() => {
    if (nextBefore === null) return;
    api.queryHistory({ ...query, beforeSeq: nextBefore, limit: PAGE }).then((p) => {
      setOlder((o) => ({ entries: [...(o?.entries ?? []), ...p.entries], more: p.nextBeforeSeq !== undefined }));
    }, fail);
  }, [api, query, nextBefore, fail]);

  const exportAs = useCallback((format: HistoryExportFormat) => api.exportHistory(query, format), [api, query]);
  const clear = useCallback(async () => {
    await api.clearHistory();
    setOlder(null);
    setPage({ entries: [], total: 0, oldest: null, clients: [] });
  }, [api]);

  const { client, folder, outcome, failure, kind, uri, range } = filters;
  const filtered = !!(client || folder || outcome || failure || kind || uri || range !== 'all');
  return { filters, setFilter, filtered, page, entries, clients, hasMore, loadOlder, exportAs, clear };
}
