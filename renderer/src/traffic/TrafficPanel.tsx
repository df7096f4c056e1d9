import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';

import { ERROR_CODE_LEGEND, READ_FAILURES, type ReadFailure } from '../../../shared/readFailure';
import type { ServerStatus, ShelfApi, TrafficRow } from '../../../shared/shelfApi';
import { formatBytes, formatClock } from '../format';
import { CopyButton } from '../ui/CopyButton';
import { partnerOf, type TrafficState } from './useTraffic';
import { type CallRow, useTrafficList } from './useTrafficList';
import { type Payload, useTrafficPayloads } from './useTrafficPayloads';

const ROW_HEIGHT = 28;

function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** What a detail pane shows for a message's JSON while it is fetched, once it is, or when the log let it go. */
const shown = (p: Payload): string => (p === undefined ? 'Loading…' : p === null ? 'No longer in the log (cleared or dropped).' : pretty(p));

function status(e: TrafficRow): { text: string; tone: string } {
  if (e.kind === 'error') return { text: e.errorCode !== null ? String(e.errorCode) : 'error', tone: 'error' };
  if (e.kind === 'response' && e.toolError) return { text: 'failed', tone: 'error' };
  if (e.kind === 'response') return { text: 'ok', tone: 'ok' };
  if (e.kind === 'notification') return { text: 'notify', tone: 'muted' };
  return { text: 'request', tone: 'muted' };
}

/** Every JSON-RPC message, live: filters, pause, clear, export, and request ↔ response detail. */
export function TrafficPanel({
  api,
  traffic,
  log,
  notify,
}: {
  api: ShelfApi;
  traffic: TrafficState;
  /** The host's log: its bounds and how many older messages it dropped. */
  log: ServerStatus['traffic'] | null;
  notify: (message: string) => void;
}) {
  const [selected, setSelected] = useState<number | null>(null);
  const [wrap, setWrap] = useState(true);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const { entries } = traffic;
  const list = useTrafficList(api, entries, log?.maxEntries ?? 10_000);
  const { controls, set, visible, rows, clients, methods, failures } = list;
  const { client, method, errorsOnly, failure, text, calls } = controls;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });

  // Follow the newest entries unless the reader scrolled up.
  useEffect(() => {
    if (stickToBottom.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, virtualizer]);

  const chosen = selected === null ? null : (entries.find((e) => e.seq === selected) ?? null);
  const partner = chosen ? partnerOf(entries, chosen) : null;
  // A notification is neither: it gets one pane of its own, not a copy under Request and Response.
  const notification = chosen && chosen.kind === 'notification' ? chosen : null;
  const request = notification ? null : chosen && chosen.kind === 'request' ? chosen : partner && partner.kind === 'request' ? partner : null;
  const response = notification ? null : chosen && chosen.kind !== 'request' ? chosen : partner && partner.kind !== 'request' ? partner : null;
  // Rows carry no JSON: the opened messages' is fetched (and kept for a few).
  const payloadOf = useTrafficPayloads(
    api,
    [notification, request, response].flatMap((e) => (e ? [e.seq] : [])),
  );
  const copyable = (e: TrafficRow | null) => {
    const p = e ? payloadOf(e.seq) : null;
    return typeof p === 'string' ? pretty(p) : null;
  };
  const requestText = copyable(request);
  const responseText = copyable(response);
  const notificationText = copyable(notification);

  const exportLog = async () => {
    const jsonl = await api.exportTraffic(list.filter);
    const count = jsonl === '' ? 0 : jsonl.split('\n').length - 1;
    const dropped = log?.dropped ?? 0;
    notify(
      dropped > 0
        ? `Exported the last ${count.toLocaleString()} messages; ${dropped.toLocaleString()} older ones were dropped by the log's bound`
        : `Exported ${count.toLocaleString()} messages`,
    );
    const url = URL.createObjectURL(new Blob([jsonl], { type: 'application/x-ndjson' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `mcp-shelf-traffic-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <section className="traffic" aria-label="JSON-RPC traffic">
      <div className="toolbar">
        <select className="input input-small" value={client} onChange={(e) => set('client', e.target.value)} aria-label="Client">
          <option value="">All clients</option>
          {clients.map(([id, name]) => (
            <option key={id} value={id}>
              #{id} {name}
            </option>
          ))}
        </select>
        <select className="input input-small" value={method} onChange={(e) => set('method', e.target.value)} aria-label="Method">
          <option value="">All methods</option>
          {methods.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <label className="check compact">
          <input type="checkbox" checked={errorsOnly} onChange={(e) => set('errorsOnly', e.target.checked)} /> Errors only
        </label>
        <select
          className="input input-small"
          value={failure}
          onChange={(e) => set('failure', e.target.value as '' | ReadFailure)}
          aria-label="Reason"
          disabled={failures.length === 0}
        >
          <option value="">{failures.length === 0 ? 'No failed reads' : 'Any reason'}</option>
          {failures.map((f) => (
            <option key={f} value={f}>
              {READ_FAILURES[f].label}
            </option>
          ))}
        </select>
        <input
          className="input input-small grow"
          type="search"
          placeholder="Search messages"
          value={text}
          onChange={(e) => set('text', e.target.value)}
          aria-label="Search messages"
        />
        <div className="segmented" role="group" aria-label="Rows">
          <button type="button" aria-pressed={calls} onClick={() => set('calls', true)} title="One row per call: the request with its status and duration">
            Calls
          </button>
          <button type="button" aria-pressed={!calls} onClick={() => set('calls', false)} title="Every message on its own row">
            Messages
          </button>
        </div>
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={() => traffic.setPaused(!traffic.paused)} aria-pressed={traffic.paused}>
          {traffic.paused ? `Resume${traffic.held ? ` (${traffic.held} new)` : ''}` : 'Pause'}
        </button>
        <button type="button" className="btn btn-small" onClick={() => void traffic.clear().then(() => setSelected(null))}>
          Clear
        </button>
        <button type="button" className="btn btn-small" onClick={() => void exportLog()}>
          Export JSONL
        </button>
      </div>
      {log && log.dropped > 0 && (
        <p className="traffic-dropped small" data-testid="traffic-dropped">
          Showing the last {entries.length.toLocaleString()} messages: {log.dropped.toLocaleString()} older ones were dropped (the log keeps{' '}
          {log.maxEntries.toLocaleString()} messages or {Math.round(log.maxBytes / 2 ** 20)} MiB).
        </p>
      )}
      {traffic.skipped > 0 && !traffic.paused && (
        <p className="traffic-dropped small" data-testid="traffic-skipped">
          {traffic.skipped.toLocaleString()} messages came faster than the list shows them live; the log has them: Pause shows them all, Export writes them.
        </p>
      )}
      <details className="traffic-legend" data-testid="traffic-legend">
        <summary>Error codes</summary>
        <dl>
          {ERROR_CODE_LEGEND.map(([code, meaning]) => (
            <div key={code} style={{ display: 'contents' }}>
              <dt>{code}</dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
      </details>
      <div className="traffic-head traffic-grid" aria-hidden="true">
        <span>Time</span>
        <span>Client</span>
        <span />
        <span>Method</span>
        <span>Target</span>
        <span className="num">Duration</span>
        <span className="num">Size</span>
        <span>Status</span>
      </div>
      <div
        ref={scrollRef}
        className="traffic-scroll"
        // A grid owns rows only: with none to show it is a plain box holding the message that says why.
        {...(rows.length > 0 ? { role: 'grid', 'aria-label': 'Messages', 'aria-rowcount': rows.length } : {})}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2;
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') return setSelected(null);
          const i = rows.findIndex((x) => x.first.seq === selected || x.answer?.seq === selected);
          const n = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : null;
          if (n === null) return;
          e.preventDefault();
          const to = Math.max(0, Math.min(rows.length - 1, n));
          const target = rows[to];
          if (target) {
            setSelected(target.first.seq);
            virtualizer.scrollToIndex(to);
          }
        }}
      >
        {visible.length === 0 && (
          <div className="empty-small">
            <p>
              {entries.length === 0
                ? 'No messages yet. Connect a client and its requests appear here as they happen.'
                : list.searching
                  ? 'Searching the messages…'
                  : 'No message matches these filters.'}
            </p>
          </div>
        )}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index] as CallRow;
            const e = row.first;
            const shown = row.answer ?? e;
            const s = calls && e.kind === 'request' && !row.answer ? { text: 'waiting', tone: 'muted' } : status(shown);
            const isSelected = selected === e.seq || (row.answer !== null && selected === row.answer.seq);
            return (
              <div
                key={e.seq}
                role="row"
                data-testid="traffic-row"
                data-kind={shown.kind}
                className={`traffic-row traffic-grid${isSelected ? ' selected' : ''}${shown.kind === 'error' ? ' is-error' : ''}`}
                style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
                onClick={() => setSelected(e.seq)}
                aria-selected={isSelected}
              >
                <span role="gridcell" className="mono muted">
                  {formatClock(e.time)}
                </span>
                <span role="gridcell" className="ellipsis" title={e.client ?? undefined}>
                  {e.client ?? `#${e.connectionId}`}
                </span>
                <span
                  role="gridcell"
                  className={`arrow arrow-${e.direction}`}
                  title={row.answer ? 'request and response' : e.direction === 'in' ? 'client → server' : 'server → client'}
                >
                  {row.answer ? '⇄' : e.direction === 'in' ? '→' : '←'}
                </span>
                <span
                  role="gridcell"
                  className="mono ellipsis"
                  title={`${e.client ?? `client #${e.connectionId}`}${e.id !== null ? ` · id ${String(e.id)}` : ''}`}
                >
                  {e.method ?? '—'}
                </span>
                <span
                  role="gridcell"
                  className="target-cell"
                  title={[e.target, shown.detail].filter(Boolean).join(' → ') || undefined}
                  data-testid="traffic-target"
                >
                  {/* Cut at its start: a path's end (the file) is what tells rows apart. */}
                  <span className="mono ellipsis-start target">
                    <bdi>{e.target ? (e.target.startsWith('file://') ? decodeURIComponent(e.target.replace(/^file:\/\//, '')) : e.target) : ''}</bdi>
                  </span>
                  {/* A tool read's answer: which lines, which pages, the image's size. */}
                  {shown.detail && <span className="traffic-answer ellipsis">→ {shown.detail}</span>}
                </span>
                <span role="gridcell" className="num mono">
                  {shown.durationMs !== null ? `${shown.durationMs} ms` : ''}
                </span>
                <span role="gridcell" className="num mono muted">
                  {formatBytes(shown.bytes)}
                </span>
                <span role="gridcell" className="traffic-status">
                  <span className={`status status-${s.tone}`}>{s.text}</span>
                  {shown.failure && (
                    <span className="traffic-reason" data-testid="traffic-reason" title={READ_FAILURES[shown.failure].explain}>
                      {READ_FAILURES[shown.failure].label}
                    </span>
                  )}
                </span>
              </div>
            );
          })}
        </div>
      </div>
      {chosen && (
        <div className={`traffic-detail${wrap ? ' wrap' : ''}`} data-testid="traffic-detail">
          <div className="detail-bar">
            <span className="small muted">
              {chosen.client ?? `client #${chosen.connectionId}`} · {chosen.method ?? 'message'}
              {chosen.id !== null ? ` · id ${String(chosen.id)}` : ''}
              {chosen.target ? ` · ${chosen.target}` : ''}
              {chosen.detail ? ` → ${chosen.detail}` : ''}
            </span>
            <span className="spacer" />
            <label className="check compact">
              <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} /> Wrap
            </label>
            {requestText !== null && <CopyButton text={requestText} label="Copy request" />}
            {responseText !== null && <CopyButton text={responseText} label="Copy response" />}
            {notificationText !== null && <CopyButton text={notificationText} label="Copy notification" />}
            <button type="button" className="btn btn-small" onClick={() => setSelected(null)} aria-label="Close the message detail" title="Close (Esc)">
              ✕
            </button>
          </div>
          {notification ? (
            <div className="detail-pane" data-testid="traffic-notification">
              <h3>
                Notification{' '}
                <span className="muted small">
                  {formatClock(notification.time)} · {notification.direction === 'in' ? 'client → server' : 'server → client'}
                </span>
              </h3>
              <pre className="mono json" tabIndex={0}>
                {shown(payloadOf(notification.seq))}
              </pre>
            </div>
          ) : (
            <>
              <div className="detail-pane">
                <h3>Request {request ? <span className="muted small">{formatClock(request.time)}</span> : null}</h3>
                <pre className="mono json" tabIndex={0}>
                  {request ? shown(payloadOf(request.seq)) : 'Not in the window (cleared or dropped).'}
                </pre>
              </div>
              <div className="detail-pane">
                <h3>
                  Response{' '}
                  {response ? (
                    <span className="muted small">
                      {formatClock(response.time)}
                      {response.durationMs !== null ? ` · ${response.durationMs} ms` : ''}
                      {response.truncated ? ' · long strings cut' : ''}
                    </span>
                  ) : null}
                </h3>
                {response?.failure && (
                  <p className="small traffic-why" data-testid="traffic-why">
                    <strong>{READ_FAILURES[response.failure].label}:</strong> {READ_FAILURES[response.failure].explain}
                  </p>
                )}
                <pre className="mono json" tabIndex={0}>
                  {response ? shown(payloadOf(response.seq)) : 'Waiting for the response…'}
                </pre>
              </div>
            </>
          )}
        </div>
      )}
    </section>
  );
}
