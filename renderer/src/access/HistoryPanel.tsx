import './access.css';

import { useState } from 'react';

import { READ_FAILURE_NAMES, READ_FAILURES, type ReadFailure, type ReadFailureInfo } from '../../../shared/readFailure';
import type { AccessEntry, FolderInfo, HistoryExportFormat, ShelfApi } from '../../../shared/shelfApi';
import { ChangeDetail, ChangeOutcomeCell } from '../changes/HistoryChange';
import { useUndo } from '../changes/useUndo';
import { baseName } from '../folders/FolderList';
import { FolderSelect } from '../folders/FolderSelect';
import { formatBytes, formatStamp, formatWhen } from '../format';
import { type Range, RANGES, useHistory } from './useHistory';

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

const VIA: Record<AccessEntry['via'], string> = { resource: 'resources/read', tool: 'read tool', app: 'in-chat app' };
/** How a read came: resources/read, the read tool or the in-chat app, over which transport, in which revision. */
const how = (e: AccessEntry) =>
  `${e.search ? e.search.tool : e.change ? (e.change.kind === 'edit' ? 'edit_resource' : 'write_resource') : (VIA[e.via] ?? e.via)} · ${e.transport === 'http' ? 'HTTP' : 'socket'} · ${e.protocolVersion ?? '?'}`;

const GROUPS: Array<[ReadFailureInfo['group'], string]> = [
  ['asked', 'Ask before read'],
  ['not-published', 'Not published'],
  ['file', 'The file'],
  ['other', 'Other'],
];

/** What a failed entry's outcome says: its reason (every denied or failed entry has one; entries from before reasons were kept fall back to the error). */
function failureOf(e: AccessEntry): ReadFailure {
  if (e.failure) return e.failure;
  if (e.outcome === 'denied') return e.errorReason === 'timeout' ? 'timeout' : e.errorReason === 'no-window' ? 'no-window' : 'denied';
  return 'error';
}

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
  const history = useHistory(api, changes, initialUri, fail);
  const { filters, setFilter, filtered, page, entries, clients, hasMore, loadOlder } = history;
  const { client, folder, outcome, failure, kind, range, uri } = filters;
  const [confirmClear, setConfirmClear] = useState(false);
  const undo = useUndo(api, entries, notify, fail);

  const exportAs = async (format: HistoryExportFormat) => {
    try {
      const out = await history.exportAs(format);
      download(out.text, format);
      notify(
        out.count < out.matched
          ? `Exported the newest ${out.count.toLocaleString()} of ${out.matched.toLocaleString()} entries`
          : `Exported ${out.count.toLocaleString()} entries`,
      );
    } catch (err) {
      fail(err);
    }
  };

  return (
    <section className="history" aria-label="Access history">
      <div className="toolbar">
        <select className="input input-small" value={client} onChange={(e) => setFilter('client', e.target.value)} aria-label="Client">
          <option value="">All clients</option>
          {clients.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <FolderSelect folders={folders} value={folder} onChange={(f) => setFilter('folder', f)} />
        <select className="input input-small" value={outcome} onChange={(e) => setFilter('outcome', e.target.value as typeof outcome)} aria-label="Outcome">
          <option value="">Any outcome</option>
          <option value="ok">Read</option>
          <option value="denied">Denied</option>
          <option value="error">Failed</option>
        </select>
        <select className="input input-small" value={failure} onChange={(e) => setFilter('failure', e.target.value as typeof failure)} aria-label="Reason">
          <option value="">Any reason</option>
          {GROUPS.map(([group, label]) => (
            <optgroup key={group} label={label}>
              {READ_FAILURE_NAMES.filter((f) => READ_FAILURES[f].group === group).map((f) => (
                <option key={f} value={f}>
                  {READ_FAILURES[f].label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <select className="input input-small" value={kind} onChange={(e) => setFilter('kind', e.target.value as typeof kind)} aria-label="Kind">
          <option value="">All kinds</option>
          <option value="read">Reads</option>
          <option value="search">Searches</option>
          <option value="change">Changes</option>
        </select>
        <select className="input input-small" value={range} onChange={(e) => setFilter('range', e.target.value as Range)} aria-label="Time">
          {RANGES.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
        {uri && (
          <button
            type="button"
            className="chip chip-accent chip-button"
            onClick={() => setFilter('uri', null)}
            title="Show every file"
            data-testid="history-uri-filter"
          >
            {baseName(decodeURIComponent(uri))} ✕
          </button>
        )}
      </div>
      <div className="history-scroll" tabIndex={0} aria-label="Reads, newest first">
        {page && entries.length === 0 ? (
          <div className="empty-small centered" data-testid="history-empty">
            <p>{filtered ? 'No entry matches these filters.' : 'No client has read, searched or changed a file yet.'}</p>
            <p className="muted small">
              Every read and search by an MCP client — resources, the read and search tools, over the socket or HTTP — and every change a model proposed is
              recorded here with why any failed, and kept across restarts.
            </p>
          </div>
        ) : (
          <table className="history-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Client</th>
                <th scope="col">File or search</th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => {
                const why = e.outcome === 'ok' || e.change ? null : READ_FAILURES[failureOf(e)];
                return (
                  <tr
                    key={e.seq}
                    data-testid="history-row"
                    data-outcome={e.outcome}
                    data-kind={e.change ? 'change' : e.search ? 'search' : 'read'}
                    title={how(e)}
                  >
                    <td className="nowrap muted mono" title={new Date(e.time).toString()}>
                      {formatStamp(e.time)}
                    </td>
                    <td className="ellipsis" title={[e.client, e.clientVersion].filter(Boolean).join(' ')}>
                      {e.client ?? <span className="muted">unnamed</span>}
                    </td>
                    <td className="history-file">
                      {e.search ? (
                        <span className="history-search ellipsis" data-testid="history-search" title={`${e.search.tool}: ${e.search.query}`}>
                          <span className="history-via">{e.search.tool === 'grep_resources' ? 'grep' : 'search'}</span>{' '}
                          <span className="mono">{e.search.tool === 'grep_resources' ? `/${e.search.query}/` : `“${e.search.query}”`}</span>{' '}
                          <span className="muted small">
                            {e.search.hits.toLocaleString()}{' '}
                            {e.search.tool === 'grep_resources' ? (e.search.hits === 1 ? 'line' : 'lines') : e.search.hits === 1 ? 'hit' : 'hits'}
                          </span>
                        </span>
                      ) : e.folder ? (
                        <button type="button" className="link mono ellipsis" onClick={() => onOpen(e.uri)} title={e.uri}>
                          {shortPath(e)}
                        </button>
                      ) : (
                        // Not published: the whole path, cut at its start so the file's name shows.
                        <span className="mono ellipsis-start muted" title={e.uri}>
                          <bdi>{shortPath(e)}</bdi>
                        </span>
                      )}
                      {e.via !== 'resource' && !e.search && !e.change && <span className="history-via">{VIA[e.via]}</span>}
                      {e.change && <ChangeDetail change={e.change} />}
                      {e.detail && !e.change && (
                        <span className="history-detail muted small" data-testid="history-detail" title={`What the read gave: ${e.detail}`}>
                          {e.detail}
                        </span>
                      )}
                    </td>
                    <td className="num mono muted">{e.size !== null ? formatBytes(e.size) : ''}</td>
                    <td className="history-outcome">
                      {e.change ? (
                        <ChangeOutcomeCell change={e.change} undo={undo} />
                      ) : why ? (
                        <span
                          className="status status-error"
                          data-testid="history-reason"
                          title={`${why.explain}${e.errorCode !== null ? ` Error ${e.errorCode}: ${e.errorMessage ?? ''}` : ''}`}
                        >
                          {why.label}
                        </span>
                      ) : (
                        <span className="status status-ok">{e.search ? 'searched' : 'read'}</span>
                      )}
                      {e.repeated !== undefined && e.repeated > 1 && (
                        <span
                          className="muted small history-repeated"
                          data-testid="history-repeated"
                          title={`${e.repeated.toLocaleString()} more like this in a row (not found, or refused without asking), kept as one entry`}
                        >
                          ×{e.repeated.toLocaleString(undefined, { notation: 'compact' })}
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
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
        <span className="muted small history-count" data-testid="history-total">
          {!page
            ? 'Loading…'
            : page.counting
              ? 'Counting the reads kept from earlier runs…'
              : `${page.total.toLocaleString()} ${page.total === 1 ? 'entry' : 'entries'} kept${page.oldest ? `, since ${formatWhen(page.oldest)}` : ''}`}
        </span>
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
                void history.clear().then(() => {
                  setConfirmClear(false);
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
        <button type="button" className="btn btn-small" onClick={openRetention} data-testid="history-settings">
          Retention…
        </button>
      </footer>
    </section>
  );
}
