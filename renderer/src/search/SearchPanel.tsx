import './search.css';

import { type KeyboardEvent, useEffect, useRef, useState } from 'react';

import type { FolderInfo, SearchHit, ShelfApi } from '../../../shared/shelfApi';
import { baseName } from '../folders/FolderList';
import { FolderSelect } from '../folders/FolderSelect';
import { NotIndexed } from './NotIndexed';
import { Snippet } from './Snippet';
import { type Indexing, type SearchDraft, useSearch } from './useSearch';

/**
 * Content search over every published file and document text, ranked, as
 * the search_resources tool answers it: type to search (debounced), ↓/↑
 * and Enter to open a result at its line.
 */
export function SearchPanel({
  api,
  folders,
  onOpen,
  fail,
  indexing,
  draft,
}: {
  api: ShelfApi;
  folders: FolderInfo[];
  onOpen: (hit: SearchHit) => void;
  fail: (err: unknown) => void;
  indexing: Indexing;
  /** The query, results and hit, kept by the window while the tab is away. */
  draft: SearchDraft;
}) {
  const { active, setActive } = draft;
  const { query, setQuery, folder, setFolder, results, busy, current, more } = useSearch(api, indexing, fail, draft);
  const inputRef = useRef<HTMLInputElement>(null);
  /** Enter came before the results of what was typed: the hit opens when they do. */
  const [enterWaiting, setEnterWaiting] = useState(false);
  useEffect(() => setEnterWaiting(false), [query, folder]);
  useEffect(() => {
    if (!enterWaiting || !current) return;
    setEnterWaiting(false);
    const hit = results?.hits[active];
    if (hit) onOpen(hit);
  }, [enterWaiting, current, results, active, onOpen]);
  const pending = indexing?.pending ?? 0;

  useEffect(() => inputRef.current?.focus(), []);

  const onKey = (e: KeyboardEvent) => {
    const hits = results?.hits ?? [];
    if (e.key === 'ArrowDown') setActive((a) => Math.min(hits.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter' && !current && query.trim()) setEnterWaiting(true);
    else if (e.key === 'Enter' && hits[active]) onOpen(hits[active]);
    else return;
    e.preventDefault();
  };

  const hits = results?.hits ?? [];
  return (
    <section className="search-panel" aria-label="Content search" onKeyDown={onKey}>
      <div className="toolbar">
        <input
          ref={inputRef}
          className="input grow"
          type="search"
          placeholder='Search file contents and documents — words, "a phrase", prefix*'
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-label="Search file contents"
          aria-controls={hits.length > 0 ? 'search-results' : undefined}
          aria-activedescendant={hits[active] ? `hit-${active}` : undefined}
          spellCheck={false}
          disabled={!indexing}
        />
        <FolderSelect folders={folders} value={folder} onChange={setFolder} />
      </div>
      <p className="search-status small muted" data-testid="search-status" aria-live="polite">
        {!indexing
          ? 'Full-text search is off on this shelf (the searchIndex setting).'
          : [
              results ? `${results.total.toLocaleString()} ${results.total === 1 ? 'file matches' : 'files match'}` : busy ? 'Searching…' : null,
              pending > 0
                ? `Indexing: ${indexing.indexed.toLocaleString()} ${indexing.indexed === 1 ? 'file' : 'files'} done, ${pending.toLocaleString()} to go — results may be incomplete`
                : `${indexing.indexed.toLocaleString()} ${indexing.indexed === 1 ? 'file' : 'files'} indexed`,
              results && results.notSearched.length > 0 ? `Not searched (asks before each read): ${results.notSearched.map(baseName).join(', ')}` : null,
              indexing.full ? `The index is full (${indexing.maxFiles.toLocaleString()} files at most): some files are not searched` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
      </p>
      <div className="search-results" data-testid="search-results">
        {/* The listbox holds the hits only: messages and the More button sit beside it (a listbox may own options alone). */}
        {!query.trim() && indexing && (
          <div className="empty-small centered">
            <p>Search inside every published text file and the text of documents: PDF, Office, OpenDocument, EPUB, RTF, web pages, notebooks and mail.</p>
            <p className="muted small">Best matches first — the same results a client gets from the search_resources tool.</p>
          </div>
        )}
        {results && hits.length === 0 && (
          <p className="empty-small" data-testid="search-empty">
            No file matches “{query.trim()}”.
          </p>
        )}
        {query.trim() && indexing && <NotIndexed api={api} folder={folder} query={query} indexing={indexing} onOpen={onOpen} fail={fail} />}
        {hits.length > 0 && (
          <div id="search-results" role="listbox" aria-label="Results">
            {hits.map((h, i) => (
              <div
                key={`${h.uri}-${i}`}
                id={`hit-${i}`}
                role="option"
                aria-selected={i === active}
                className={`search-hit${i === active ? ' active' : ''}`}
                onClick={() => {
                  setActive(i);
                  onOpen(h);
                }}
                data-testid="search-hit"
              >
                <div className="hit-head">
                  <span className="hit-name">{baseName(h.path)}</span>
                  <span className="muted small ellipsis">
                    {baseName(h.folder)}/{h.path}
                  </span>
                  {h.uri !== h.fileUri && <span className="hit-kind small">document text</span>}
                  <span className="spacer" />
                  <span className="muted small mono" title="Relevance (BM25): higher is a better match">
                    <span className="visually-hidden">relevance </span>
                    {h.score.toFixed(1)}
                  </span>
                </div>
                <div className="hit-line">
                  <span className="hit-lineno mono muted">
                    <span className="visually-hidden">line </span>
                    {h.line}
                  </span>
                  <Snippet text={h.snippet} />
                </div>
              </div>
            ))}
          </div>
        )}
        {results?.nextCursor && (
          <div className="load-more">
            <button type="button" className="btn btn-small" onClick={more}>
              More results
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
