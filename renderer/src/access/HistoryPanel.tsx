import { useCallback, useEffect, useMemo, useState } from 'react';

import type { AccessEntry, FolderInfo, HistoryExportFormat, HistoryPage, HistoryQuery, ShelfApi } from '../../../shared/shelfApi';
import { baseName } from '../folders/FolderList';
import { FolderSelect } from '../folders/FolderSelect';
import { formatBytes, formatWhen } from '../format';

const PAGE = 200;
const RANGES = [
  { id: 'all', label: 'All time', ms: null },
  { id: 'hour', label: 'Last hour', ms: 3_600_000 },
  { id: 'day', label: 'Last 24 hours', ms: 86_400_000 },
  { id: 'week', label: 'Last 7 days', ms: 7 * 86_400_000 },
] as const;
type Range = (typeof RANGES)[number]['id'];

/** A URI as a person reads it: the path inside its folder. */
function shortPath(e: AccessEntry): string {
  if (e.folder) {
    const prefix = encodeURI(`file://${e.folder.startsWith('/') ? '' : '/'}${e.folder.replace(/\\/g, '/')}/`);
    if (e.uri.startsWith(prefix)) return decodeURIComponent(e.uri.slice(prefix.length));
  }
  try {
    return decodeURIComponent(e.uri.replace(/^file:\/\//, ''));
  } catch {
    return e.uri;
  }
}


function download(text: string, format: HistoryExportFormat): void {
  const url = URL.createObjectURL(new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `mcp-shelf-history-${new Date().toISOString().replace(/[:.]/g, '-')}.${format}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const VIA: Record<AccessEntry['via'], string> = { resource: 'resource', tool: 'read tool', app: 'in-chat app' };
/** How a read came: resources/read, the read tool or the in-chat app, over which transport, in which revision. */
const how = (e: AccessEntry) => `${VIA[e.via] ?? e.via} · ${e.transport === 'http' ? 'HTTP' : 'socket'} · ${e.protocolVersion ?? '?'}`;

/**
 * Every read a client made, kept across restarts: filters by client,
 * folder, outcome and time; older pages on demand; export as CSV or JSON
 * Lines; retention and the ask timeout.
 */
export function HistoryPanel({
  api,
  folders,
  changes,
  onOpen,
  notify,
  fail,
  initialUri,
  openRetention,
}: {
  api: ShelfApi;
  folders: FolderInfo[];
  /** Moves on whenever the history does (new reads, earlier runs counted). */
  changes: number;
  onOpen: (uri: string) => void;
  notify: (message: string) => void;
  fail: (err: unknown) => void;
  initialUri: string | null;
  /** Opens the settings sheet at the history's bounds (one place edits them). */
  openRetention: () => void;
}) {
  const [client, setClient] = useState('');
  const [folder, setFolder] = useState('');
  const [outcome, setOutcome] = useState<'' | AccessEntry['outcome']>('');
  const [range, setRange] = useState<Range>('all');
  const [uri, setUri] = useState<string | null>(initialUri);
  const [page, setPage] = useState<HistoryPage | null>(null);
  /** Pages loaded below the newest one, and whether more follow. */
  const [older, setOlder] = useState<{ entries: AccessEntry[]; more: boolean } | null>(null);
  const [clients, setClients] = useState<string[]>([]);
  const [confirmClear, setConfirmClear] = useState(false);

  useEffect(() => setUri(initialUri), [initialUri]);

  const query = useMemo((): HistoryQuery => {
    const ms = RANGES.find((r) => r.id === range)?.ms ?? null;
    return {
      ...(client ? { client } : {}),
      ...(folder ? { folder } : {}),
      ...(outcome ? { outcome } : {}),
      ...(uri ? { uri } : {}),
      ...(ms !== null ? { since: Date.now() - ms } : {}),
    };
    // changes: the newest page follows the history, and "last hour" moves on with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, folder, outcome, range, uri, changes]);

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
  useEffect(() => setOlder(null), [client, folder, outcome, range, uri]);

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

  const exportAs = async (format: HistoryExportFormat) => {
    try {
      const out = await api.exportHistory(query, format);
      download(out.text, format);
      notify(out.count < out.matched ? `Exported the newest ${out.count.toLocaleString()} of ${out.matched.toLocaleString()} entries` : `Exported ${out.count.toLocaleString()} entries`);
    } catch (err) {
      fail(err);
    }
  };

  const filtered = !!(client || folder || outcome || uri || range !== 'all');

  return (
    <section className="history" aria-label="Access history">
      <div className="toolbar">
        <select className="input input-small" value={client} onChange={(e) => setClient(e.target.value)} aria-label="Client">
          <option value="">All clients</option>
          {clients.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <FolderSelect folders={folders} value={folder} onChange={setFolder} />
        <select className="input input-small" value={outcome} onChange={(e) => setOutcome(e.target.value as typeof outcome)} aria-label="Outcome">
          <option value="">Any outcome</option>
          <option value="ok">Read</option>
          <option value="denied">Denied</option>
          <option value="error">Failed</option>
        </select>
        <select className="input input-small" value={range} onChange={(e) => setRange(e.target.value as Range)} aria-label="Time">
          {RANGES.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
        {uri && (
          <button type="button" className="chip chip-accent chip-button" onClick={() => setUri(null)} title="Show every file" data-testid="history-uri-filter">
            {baseName(decodeURIComponent(uri))} ✕
          </button>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={() => void exportAs('csv')} disabled={entries.length === 0}>
          Export CSV
        </button>
        <button type="button" className="btn btn-small" onClick={() => void exportAs('jsonl')} disabled={entries.length === 0}>
          Export JSONL
        </button>
        {confirmClear ? (
          <span className="confirm" role="group" aria-label="Confirm clearing the history">
            <span className="small">Delete all {page?.total.toLocaleString()} entries?</span>
            <button
              type="button"
              className="btn btn-small btn-danger"
              onClick={() =>
                void api.clearHistory().then(() => {
                  setConfirmClear(false);
                  setOlder(null);
                  setPage({ entries: [], total: 0, oldest: null, clients: [] });
                  notify('Access history cleared');
                }, fail)
              }
            >
              Delete
            </button>
            <button type="button" className="btn btn-small" onClick={() => setConfirmClear(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" className="btn btn-small" onClick={() => setConfirmClear(true)} disabled={!page || page.total === 0}>
            Clear…
          </button>
        )}
      </div>
      <div className="history-scroll" tabIndex={0} aria-label="Reads, newest first">
        {page && entries.length === 0 ? (
          <div className="empty-small centered" data-testid="history-empty">
            <p>{filtered ? 'No read matches these filters.' : 'No client has read a file yet.'}</p>
            <p className="muted small">Every read by an MCP client — resources and the read tool, over the socket or HTTP — is recorded here and kept across restarts.</p>
          </div>
        ) : (
          <table className="history-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Client</th>
                <th scope="col">File</th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">How</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.seq} data-testid="history-row" data-outcome={e.outcome}>
                  <td className="nowrap muted">{formatWhen(e.time)}</td>
                  <td className="ellipsis" title={[e.client, e.clientVersion].filter(Boolean).join(' ')}>
                    {e.client ?? <span className="muted">unnamed</span>}
                  </td>
                  <td className="history-file">
                    {e.folder ? (
                      <button type="button" className="link mono ellipsis" onClick={() => onOpen(e.uri)} title={e.uri}>
                        {shortPath(e)}
                      </button>
                    ) : (
                      <span className="mono ellipsis muted" title={e.uri}>
                        {shortPath(e)}
                      </span>
                    )}
                    {e.detail && (
                      <span className="history-detail muted small" data-testid="history-detail" title={`What the read gave: ${e.detail}`}>
                        {e.detail}
                      </span>
                    )}
                  </td>
                  <td className="num mono muted">{e.size !== null ? formatBytes(e.size) : ''}</td>
                  <td className="muted small nowrap" title={how(e)}>
                    {how(e)}
                  </td>
                  <td>
                    <span className={`status status-${e.outcome === 'ok' ? 'ok' : 'error'}`} title={e.errorCode !== null ? `Error ${e.errorCode}: ${e.errorMessage ?? ''}` : undefined}>
                      {e.outcome === 'ok' ? 'read' : e.outcome === 'denied' ? 'denied' : 'failed'}
                    </span>
                    {e.repeated !== undefined && (
                      <span className="muted small history-repeated" data-testid="history-repeated" title={`${e.repeated.toLocaleString()} more like this in a row (not found, or refused without asking), kept as one entry`}>
                        ×{e.repeated.toLocaleString(undefined, { notation: 'compact' })}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {hasMore && (
          <div className="load-more">
            <button type="button" className="btn btn-small" onClick={loadOlder}>
              Load older reads
            </button>
          </div>
        )}
      </div>
      <footer className="history-foot">
        <span className="muted small" data-testid="history-total">
          {!page ? 'Loading…' : page.counting ? 'Counting the reads kept from earlier runs…' : `${page.total.toLocaleString()} reads kept${page.oldest ? `, since ${formatWhen(page.oldest)}` : ''}`}
        </span>
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={openRetention} data-testid="history-settings">
          Retention…
        </button>
      </footer>
    </section>
  );
}
