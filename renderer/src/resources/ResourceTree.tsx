import './resources.css';

import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';

import type { FileAccess, FolderInfo, ResourceInfo } from '../../../shared/shelfApi';
import { describeAccess } from '../access/useAccess';
import { baseName } from '../folders/FolderList';
import { formatBytes, formatWhen } from '../format';
import { buildTree, filterRows, flattenTree, type Row } from './buildTree';

const ROW_HEIGHT = 26;

/**
 * Every published file as a tree per folder. Only expanded folders produce
 * rows and only visible rows are in the DOM, so 100,000 files scroll freely.
 */
export function ResourceTree({
  folders,
  resources,
  selectedUri,
  onSelect,
  filterRef,
  access,
}: {
  folders: FolderInfo[];
  /** Read counts per URI: read files get a mark. */
  access?: ReadonlyMap<string, FileAccess>;
  resources: ReadonlyMap<string, ResourceInfo[]>;
  selectedUri: string | null;
  onSelect: (resource: ResourceInfo) => void;
  filterRef?: React.RefObject<HTMLInputElement | null>;
}) {
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);

  // A newly published folder starts open.
  useEffect(() => {
    setExpanded((prev) => {
      const next = new Set(prev);
      let changed = false;
      for (const f of folders) {
        const k = `${f.path}\u0000`;
        if (!prev.has(`seen:${k}`)) {
          next.add(k);
          next.add(`seen:${k}`);
          changed = true;
        }
      }
      return changed ? next : prev;
    });
  }, [folders]);

  const trees = useMemo(() => new Map(folders.map((f) => [f.path, buildTree(resources.get(f.path) ?? [])])), [folders, resources]);

  const rows: Row[] = useMemo(() => {
    const out: Row[] = [];
    for (const f of folders) {
      if (f.state === 'disabled') continue;
      if (filter.trim()) {
        const matches = filterRows(f.path, resources.get(f.path) ?? [], filter);
        // A folder with no match is left out while filtering.
        if (matches.length === 0) continue;
        out.push({ type: 'folder-root', key: `${f.path}\u0000`, folder: f.path, depth: 0, label: baseName(f.path), count: matches.length, expanded: true });
        out.push(...matches);
      } else {
        out.push(...flattenTree(f.path, baseName(f.path), trees.get(f.path) ?? buildTree([]), expanded));
      }
    }
    return out;
  }, [folders, resources, trees, expanded, filter]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  const toggle = (key: string, open?: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (open ?? !next.has(key)) next.add(key);
      else next.delete(key);
      return next;
    });

  const activate = (i: number) => {
    const row = rows[i];
    if (!row) return;
    if (row.type === 'file') onSelect(row.resource);
    else if (!filter.trim()) toggle(row.key);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const row = rows[active];
    const move = (i: number) => {
      const n = Math.max(0, Math.min(rows.length - 1, i));
      setActive(n);
      virtualizer.scrollToIndex(n);
    };
    if (e.key === 'ArrowDown') move(active + 1);
    else if (e.key === 'ArrowUp') move(active - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(rows.length - 1);
    else if (e.key === 'PageDown') move(active + 15);
    else if (e.key === 'PageUp') move(active - 15);
    else if (e.key === 'Enter' || e.key === ' ') activate(active);
    else if (e.key === 'ArrowRight' && row && row.type !== 'file' && !row.expanded) toggle(row.key, true);
    else if (e.key === 'ArrowLeft' && row && row.type !== 'file' && row.expanded) toggle(row.key, false);
    else return;
    e.preventDefault();
  };

  const total = folders.reduce((n, f) => n + (resources.get(f.path)?.length ?? 0), 0);
  const filterWords = filter.toLowerCase().split(/\s+/).filter(Boolean);

  return (
    <section className="resource-tree" aria-label="Published files">
      <div className="tree-toolbar">
        <input
          ref={filterRef}
          className="input input-small"
          type="search"
          placeholder={`Filter ${total.toLocaleString()} files  ( / )`}
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            // ↓ goes into the results, Enter opens the first match, Escape clears.
            const first = rows.findIndex((r) => r.type === 'file');
            if (e.key === 'ArrowDown' && rows.length > 0) {
              e.preventDefault();
              setActive(Math.max(0, first));
              scrollRef.current?.focus();
            } else if (e.key === 'Enter' && first >= 0) {
              e.preventDefault();
              setActive(first);
              activate(first);
            } else if (e.key === 'Escape' && filter) {
              e.preventDefault();
              setFilter('');
            }
          }}
          aria-label="Filter files"
          spellCheck={false}
        />
      </div>
      <div
        ref={scrollRef}
        className="tree-scroll"
        // A tree must hold tree items: with none (a filter that matches nothing) it is a plain group.
        role={rows.length > 0 ? 'tree' : 'group'}
        tabIndex={0}
        aria-label="Files"
        aria-activedescendant={rows[active] ? `row-${active}` : undefined}
        onKeyDown={onKeyDown}
      >
        {rows.length === 0 && <p className="muted tree-empty">{filter ? 'No file matches the filter.' : 'No published files yet.'}</p>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index] as Row;
            const selected = row.type === 'file' && row.resource.uri === selectedUri;
            const read = row.type === 'file' ? access?.get(row.resource.uri) : undefined;
            return (
              <div
                key={row.key}
                id={`row-${v.index}`}
                role="treeitem"
                aria-selected={selected}
                aria-expanded={row.type === 'file' ? undefined : row.expanded}
                aria-level={row.depth + 1}
                className={`tree-row tree-${row.type}${selected ? ' selected' : ''}${v.index === active ? ' active' : ''}`}
                style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT, paddingLeft: 8 + row.depth * 14 }}
                onClick={() => {
                  setActive(v.index);
                  activate(v.index);
                }}
                data-testid={row.type === 'file' ? 'file-row' : undefined}
                title={row.type === 'file' ? row.resource.name : undefined}
              >
                {row.type === 'file' ? (
                  <>
                    <span className="tree-icon file-icon" aria-hidden="true" />
                    {filter.trim() ? (
                      <span className="tree-label tree-match">
                        <span className="tree-name">
                          <Marked text={row.resource.title} words={filterWords} />
                        </span>
                        <span className="tree-parent">{`\u200E${row.resource.name.slice(0, -row.resource.title.length).replace(/\/$/, '')}\u200E`}</span>
                      </span>
                    ) : (
                      <span className="tree-label">{row.label}</span>
                    )}
                    {read && (
                      <span className="read-mark" title={describeAccess(read, formatWhen)} data-testid="read-mark">
                        <span className="visually-hidden">{describeAccess(read, formatWhen)}</span>
                        <span aria-hidden="true">{read.reads > 99 ? '99+' : read.reads}</span>
                      </span>
                    )}
                    <span className="tree-size">{formatBytes(row.resource.size)}</span>
                  </>
                ) : (
                  <>
                    <span className={`chevron${row.expanded ? ' open' : ''}`} aria-hidden="true" />
                    <span className="tree-label">{row.label}</span>
                    <span className="tree-count">{row.count.toLocaleString()}</span>
                  </>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

/** `text` with each filter word's occurrences marked. */
export function Marked({ text, words }: { text: string; words: readonly string[] }) {
  if (words.length === 0) return <>{text}</>;
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  return <>{text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>))}</>;
}
