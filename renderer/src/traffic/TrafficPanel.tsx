import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';

import type { ServerStatus, ShelfApi, TrafficEntry, TrafficQuery } from '../../../shared/shelfApi';
import { formatBytes, formatClock } from '../format';
import { partnerOf, type TrafficState } from './useTraffic';

const ROW_HEIGHT = 28;

function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function status(e: TrafficEntry): { text: string; tone: string } {
  if (e.kind === 'error') return { text: e.errorCode !== null ? String(e.errorCode) : 'error', tone: 'error' };
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
  const [client, setClient] = useState<string>('');
  const [method, setMethod] = useState<string>('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const { entries } = traffic;

  const clients = useMemo(() => {
    const m = new Map<number, string>();
    for (const e of entries) if (!m.has(e.connectionId) || e.client) m.set(e.connectionId, e.client ?? `connection ${e.connectionId}`);
    return [...m.entries()];
  }, [entries]);
  const methods = useMemo(() => [...new Set(entries.map((e) => e.method).filter((m): m is string => !!m))].sort(), [entries]);

  const query: TrafficQuery = {
    ...(client ? { connectionId: Number(client) } : {}),
    ...(method ? { method } : {}),
    ...(errorsOnly ? { errorsOnly } : {}),
    ...(text.trim() ? { text: text.trim() } : {}),
  };
  const visible = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return entries.filter(
      (e) =>
        (!client || e.connectionId === Number(client)) &&
        (!method || e.method === method) &&
        (!errorsOnly || e.kind === 'error') &&
        (!needle || (e.method ?? '').toLowerCase().includes(needle) || e.payload.toLowerCase().includes(needle)),
    );
  }, [entries, client, method, errorsOnly, text]);

  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });

  // Follow the newest entries unless the reader scrolled up.
  useEffect(() => {
    if (stickToBottom.current && visible.length > 0) virtualizer.scrollToIndex(visible.length - 1, { align: 'end' });
  }, [visible.length, virtualizer]);

  const chosen = selected === null ? null : (entries.find((e) => e.seq === selected) ?? null);
  const partner = chosen ? partnerOf(entries, chosen) : null;
  const request = chosen && chosen.kind === 'request' ? chosen : partner && partner.kind === 'request' ? partner : null;
  const response = chosen && chosen.kind !== 'request' ? chosen : partner && partner.kind !== 'request' ? partner : null;

  const exportLog = async () => {
    const jsonl = await api.exportTraffic(query);
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
        <select className="input input-small" value={client} onChange={(e) => setClient(e.target.value)} aria-label="Client">
          <option value="">All clients</option>
          {clients.map(([id, name]) => (
            <option key={id} value={id}>
              #{id} {name}
            </option>
          ))}
        </select>
        <select className="input input-small" value={method} onChange={(e) => setMethod(e.target.value)} aria-label="Method">
          <option value="">All methods</option>
          {methods.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <label className="check compact">
          <input type="checkbox" checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} /> Errors only
        </label>
        <input className="input input-small grow" type="search" placeholder="Search messages" value={text} onChange={(e) => setText(e.target.value)} aria-label="Search messages" />
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
      <div className="traffic-head traffic-grid" aria-hidden="true">
        <span>Time</span>
        <span>Client</span>
        <span />
        <span>Method</span>
        <span>ID</span>
        <span className="num">Duration</span>
        <span className="num">Size</span>
        <span>Status</span>
      </div>
      <div
        ref={scrollRef}
        className="traffic-scroll"
        role="grid"
        aria-label="Messages"
        aria-rowcount={visible.length}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2;
        }}
        onKeyDown={(e) => {
          const i = visible.findIndex((x) => x.seq === selected);
          const n = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : null;
          if (n === null) return;
          e.preventDefault();
          const target = visible[Math.max(0, Math.min(visible.length - 1, n))];
          if (target) {
            setSelected(target.seq);
            virtualizer.scrollToIndex(visible.indexOf(target));
          }
        }}
      >
        {visible.length === 0 && (
          <div className="empty-small">
            <p>{entries.length === 0 ? 'No messages yet. Connect a client and its requests appear here as they happen.' : 'No message matches these filters.'}</p>
          </div>
        )}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const e = visible[v.index] as TrafficEntry;
            const s = status(e);
            return (
              <div
                key={e.seq}
                role="row"
                data-testid="traffic-row"
                data-kind={e.kind}
                className={`traffic-row traffic-grid${selected === e.seq ? ' selected' : ''}${e.kind === 'error' ? ' is-error' : ''}`}
                style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
                onClick={() => setSelected(e.seq)}
                aria-selected={selected === e.seq}
              >
                <span className="mono muted">{formatClock(e.time)}</span>
                <span className="ellipsis" title={e.client ?? undefined}>
                  {e.client ?? `#${e.connectionId}`}
                </span>
                <span className={`arrow arrow-${e.direction}`} title={e.direction === 'in' ? 'client → server' : 'server → client'}>
                  {e.direction === 'in' ? '→' : '←'}
                </span>
                <span className="mono ellipsis">{e.method ?? '—'}</span>
                <span className="mono muted ellipsis">{e.id ?? ''}</span>
                <span className="num mono">{e.durationMs !== null ? `${e.durationMs} ms` : ''}</span>
                <span className="num mono muted">{formatBytes(e.bytes)}</span>
                <span className={`status status-${s.tone}`}>{s.text}</span>
              </div>
            );
          })}
        </div>
      </div>
      {chosen && (
        <div className="traffic-detail" data-testid="traffic-detail">
          <div className="detail-pane">
            <h3>Request {request ? <span className="muted small">{formatClock(request.time)}</span> : null}</h3>
            <pre className="mono json">{request ? pretty(request.payload) : chosen.kind === 'notification' ? pretty(chosen.payload) : 'Not in the window (cleared or dropped).'}</pre>
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
            <pre className="mono json">{response ? pretty(response.payload) : chosen.kind === 'notification' ? 'Notifications have no response.' : 'Waiting for the response…'}</pre>
          </div>
        </div>
      )}
    </section>
  );
}
