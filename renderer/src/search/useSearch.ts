import { useCallback, useEffect, useState } from 'react';

import type { SearchResults, ShelfApi } from '../../../shared/shelfApi';

/** How far the index has come (null: search is off on this shelf). */
export type Indexing = { indexed: number; pending: number; full: boolean; maxFiles: number } | null;

export interface SearchState {
  query: string;
  setQuery: (q: string) => void;
  folder: string;
  setFolder: (f: string) => void;
  /** Null while nothing is asked (or search is off). */
  results: SearchResults | null;
  busy: boolean;
  /** The next page of hits, added below. */
  more: () => void;
}

/**
 * Content search as the Search tab asks it: debounced while typing, asked
 * again while the index fills (`indexing.pending` moves), 50 hits a page.
 * `onResults` hears of each new first page (the tab resets its cursor).
 */
export function useSearch(api: ShelfApi, indexing: Indexing, fail: (err: unknown) => void, onResults: () => void): SearchState {
  const [query, setQuery] = useState('');
  const [folder, setFolder] = useState('');
  const [results, setResults] = useState<SearchResults | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = indexing?.pending ?? 0;
  const on = indexing !== null;

  useEffect(() => {
    const q = query.trim();
    if (!q || !on) {
      setResults(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      setBusy(true);
      api
        .searchContent(q, { ...(folder ? { folder } : {}), limit: 50 })
        .then((r) => {
          if (!current) return;
          setResults(r);
          onResults();
        }, fail)
        .finally(() => current && setBusy(false));
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `pending` re-runs the search while the index fills.
  }, [api, query, folder, fail, on, pending, onResults]);

  const more = useCallback(() => {
    if (!results?.nextCursor) return;
    api
      .searchContent(query.trim(), { ...(folder ? { folder } : {}), cursor: results.nextCursor, limit: 50 })
      .then((r) => setResults({ ...r, hits: [...results.hits, ...r.hits] }), fail);
  }, [api, query, folder, results, fail]);

  return { query, setQuery, folder, setFolder, results, busy, more };
}
