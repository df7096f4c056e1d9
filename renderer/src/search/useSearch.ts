import { useCallback, useEffect, useRef, useState } from 'react';

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
  /** The results are of the query and folder as they are now (not of what was typed before: Enter waits for these). */
  current: boolean;
  /** The next page of hits, added below. */
  more: () => void;
}

/**
 * What the Search tab shows, kept by the window while the tab is away (a
 * hit opened in Preview and back finds its query, its results and the hit
 * it was on).
 */
export interface SearchDraft {
  query: string;
  setQuery: (q: string) => void;
  folder: string;
  setFolder: (f: string) => void;
  results: SearchResults | null;
  setResults: (r: SearchResults | null) => void;
  /** The folder and query the results are of. */
  resultsFor: string | null;
  setResultsFor: (key: string | null) => void;
  /** The hit the keyboard is on. */
  active: number;
  setActive: (i: number | ((i: number) => number)) => void;
}

export function useSearchDraft(): SearchDraft {
  const [query, setQuery] = useState('');
  const [folder, setFolder] = useState('');
  const [results, setResults] = useState<SearchResults | null>(null);
  const [resultsFor, setResultsFor] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  return { query, setQuery, folder, setFolder, results, setResults, resultsFor, setResultsFor, active, setActive };
}

/**
 * Content search as the Search tab asks it: debounced while typing, asked
 * again while the index fills (`indexing.pending` moves), 50 hits a page.
 * The keyboard's hit goes back to the first when the query or folder
 * changes, not when the same search is asked again (the tab shown anew,
 * the index grown).
 */
export function useSearch(api: ShelfApi, indexing: Indexing, fail: (err: unknown) => void, draft: SearchDraft): SearchState {
  const { query, setQuery, folder, setFolder, results, setResults, resultsFor, setResultsFor, setActive } = draft;
  const [busy, setBusy] = useState(false);
  const asked = useRef<string | null>(results ? `${folder}\u0000${query.trim()}` : null);
  const pending = indexing?.pending ?? 0;
  const on = indexing !== null;

  useEffect(() => {
    const q = query.trim();
    if (!q || !on) {
      setResults(null);
      asked.current = null;
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      setBusy(true);
      api
        .searchContent(q, { ...(folder ? { folder } : {}), limit: 50 })
        .then((r) => {
          if (!current) return;
          const key = `${folder}\u0000${q}`;
          setResults(r);
          setResultsFor(key);
          if (asked.current !== key) setActive(0);
          asked.current = key;
        }, fail)
        .finally(() => current && setBusy(false));
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `pending` re-runs the search while the index fills.
  }, [api, query, folder, fail, on, pending, setResults, setResultsFor, setActive]);

  const more = useCallback(() => {
    if (!results?.nextCursor) return;
    api
      .searchContent(query.trim(), { ...(folder ? { folder } : {}), cursor: results.nextCursor, limit: 50 })
      .then((r) => setResults({ ...r, hits: [...results.hits, ...r.hits] }), fail);
  }, [api, query, folder, results, fail, setResults]);

  const current = results !== null && resultsFor === `${folder}\u0000${query.trim()}`;
  return { query, setQuery, folder, setFolder, results, busy, current, more };
}
