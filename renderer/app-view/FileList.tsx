import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useState } from 'react';

import { formatBytes } from '../src/format';
import { Marked } from '../src/resources/ResourceTree';
import { Snippet } from '../src/search/Snippet';
import type { Row, ShelfFile } from './useTree';

/** A search hit: a file row with its best line. */
export type HitRow = { type: 'hit'; key: string; level: number; file: ShelfFile; line: number; snippet: string; where: string };
export type ListRow = Row | HitRow;

const HEIGHT = { hit: 50, other: 28 };

/**
 * The list beside the preview — the folder tree, filter matches or search
 * hits — as one keyboard list: ↑/↓, Home/End, PageUp/PageDown, Enter or
 * Space to open, → and ← to open and close a folder (or go to its parent).
 * Only the rows in view are in the DOM.
 */
export function FileList({
  rows,
  role,
  label,
  selectedUri,
  words,
  empty,
  listRef,
  onOpen,
  onToggle,
  onMore,
}: {
  rows: ListRow[];
  role: 'tree' | 'listbox';
  label: string;
  selectedUri: string | null;
  /** Filter words, marked in names. */
  words: readonly string[];
  empty: ReactNode;
  listRef: RefObject<HTMLDivElement | null>;
  onOpen: (file: ShelfFile, at?: { line: number }) => void;
  onToggle: (folder: string, dir: string, open?: boolean) => void;
  onMore: (folder: string, dir: string) => void;
}) {
  const [active, setActive] = useState(0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize: (i) => (rows[i]?.type === 'hit' ? HEIGHT.hit : HEIGHT.other),
    overscan: 10,
  });
  // New rows (another query, a folder opened elsewhere): the cursor stays in range.
  useEffect(() => setActive((a) => Math.min(a, Math.max(0, rows.length - 1))), [rows.length]);
  useEffect(() => virtualizer.measure(), [rows, virtualizer]);

  const activate = (i: number) => {
    const row = rows[i];
    if (!row) return;
    if (row.type === 'file') onOpen(row.file);
    else if (row.type === 'hit') onOpen(row.file, { line: row.line });
    else if (row.type === 'folder') onToggle(row.folder.root, '');
    else if (row.type === 'dir') onToggle(row.folder, row.path);
    else if (row.type === 'more') onMore(row.folder, row.dir);
  };

  const move = (i: number) => {
    const n = Math.max(0, Math.min(rows.length - 1, i));
    setActive(n);
    virtualizer.scrollToIndex(n);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const row = rows[active];
    const parent = () => {
      for (let i = active - 1; i >= 0; i--) if ((rows[i]?.level ?? 0) < (row?.level ?? 0)) return move(i);
    };
    if (e.key === 'ArrowDown') move(active + 1);
    else if (e.key === 'ArrowUp') move(active - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(rows.length - 1);
    else if (e.key === 'PageDown') move(active + 10);
    else if (e.key === 'PageUp') move(active - 10);
    else if (e.key === 'Enter' || e.key === ' ') activate(active);
    else if (e.key === 'ArrowRight' && row && (row.type === 'folder' || row.type === 'dir')) {
      if (!row.expanded) activate(active);
      else move(active + 1);
    } else if (e.key === 'ArrowLeft' && row) {
      if ((row.type === 'folder' || row.type === 'dir') && row.expanded) activate(active);
      else parent();
    } else return;
    e.preventDefault();
  };

  return (
    <div
      ref={listRef}
      className="tree-scroll app-list"
      role={role}
      tabIndex={0}
      aria-label={label}
      aria-activedescendant={rows[active] ? `app-row-${active}` : undefined}
      onKeyDown={onKeyDown}
      data-testid="app-list"
    >
      {rows.length === 0 && <div className="muted tree-empty">{empty}</div>}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index] as ListRow;
          const file = row.type === 'file' || row.type === 'hit' ? row.file : null;
          const selected = file !== null && (file.uri === selectedUri || file.textUri === selectedUri);
          const item = role === 'tree' ? 'treeitem' : 'option';
          const inert = row.type === 'note';
          return (
            <div
              key={row.key}
              id={`app-row-${v.index}`}
              role={inert ? 'none' : item}
              aria-selected={inert ? undefined : selected}
              aria-expanded={row.type === 'folder' || row.type === 'dir' ? row.expanded : undefined}
              aria-level={role === 'tree' && !inert ? row.level : undefined}
              className={`tree-row app-row app-row-${row.type}${selected ? ' selected' : ''}${v.index === active ? ' active' : ''}`}
              style={{ transform: `translateY(${v.start}px)`, height: v.size, paddingLeft: 10 + (role === 'tree' ? (row.level - 1) * 14 : 0) }}
              onClick={() => {
                if (inert) return;
                setActive(v.index);
                activate(v.index);
              }}
              data-testid={file ? 'app-file' : `app-${row.type}`}
              title={file ? `${file.path}` : undefined}
            >
              <RowBody row={row} words={words} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RowBody({ row, words }: { row: ListRow; words: readonly string[] }) {
  switch (row.type) {
    case 'folder':
      return (
        <>
          <span className={`chevron${row.expanded ? ' open' : ''}`} aria-hidden="true" />
          <span className="tree-label tree-folder-root">{row.folder.name}</span>
          {row.folder.asks && (
            <span className="badge badge-ask" title="Each read waits for your answer in the MCP Shelf window">
              asks first
            </span>
          )}
          <span className="tree-count">{row.folder.files.toLocaleString()}</span>
        </>
      );
    case 'dir':
      return (
        <>
          <span className={`chevron${row.expanded ? ' open' : ''}`} aria-hidden="true" />
          <span className="tree-label">{row.name}</span>
        </>
      );
    case 'file':
      return (
        <>
          <span className="tree-icon file-icon" aria-hidden="true" />
          {words.length > 0 ? (
            <span className="tree-label tree-match">
              <span className="tree-name">
                <Marked text={row.file.name} words={words} />
              </span>
              <span className="tree-parent">{`\u200E${row.file.path.slice(0, -row.file.name.length).replace(/\/$/, '')}\u200E`}</span>
            </span>
          ) : (
            <span className="tree-label">{row.file.name}</span>
          )}
          {row.file.size !== undefined && <span className="tree-size">{formatBytes(row.file.size)}</span>}
        </>
      );
    case 'hit':
      return (
        <span className="app-hit">
          <span className="hit-head">
            <span className="hit-name">{row.file.name}</span>
            <span className="tree-parent">{`\u200E${row.where}\u200E`}</span>
          </span>
          <span className="hit-line">
            <span className="hit-lineno muted mono">{row.line}</span>
            <Snippet text={row.snippet} />
          </span>
        </span>
      );
    case 'more':
      return <span className="tree-label link">Show more…</span>;
    case 'note':
      return <span className={`tree-label ${row.error ? 'app-error-text' : 'muted'}`}>{row.text}</span>;
  }
}
