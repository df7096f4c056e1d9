import { useEffect, useMemo, useRef, useState } from 'react';

import { READ_FAILURE_NAMES, type ReadFailure } from '../../../shared/readFailure';
import type { ShelfApi, TrafficRow } from '../../../shared/shelfApi';
import { matchesTrafficFields, needleOf, type TrafficFilter, trafficFilter } from '../../../shared/trafficFilter';

/** One row of the Calls view: a request with its answer (when it came), or a message without a pair. */
export interface CallRow {
  first: TrafficRow;
  answer: TrafficRow | null;
}

/** Pairs each request with its response in one pass (requests by connection, direction and id). */
export function toCalls(entries: readonly TrafficRow[]): CallRow[] {
  const rows: CallRow[] = [];
  const open = new Map<string, CallRow>();
  for (const e of entries) {
    if (e.kind === 'request' && e.id !== null) {
      const row = { first: e, answer: null };
      open.set(`${e.connectionId}:${e.direction}:${String(e.id)}`, row);
      rows.push(row);
      continue;
    }
    if ((e.kind === 'response' || e.kind === 'error') && e.id !== null) {
      const key = `${e.connectionId}:${e.direction === 'in' ? 'out' : 'in'}:${String(e.id)}`;
      const row = open.get(key);
      if (row) {
        row.answer = e;
        open.delete(key);
        continue;
      }
    }
    rows.push({ first: e, answer: null });
  }
  return rows;
}

/** The Traffic panel's controls, as the person set them. */
export interface TrafficControls {
  client: string;
  method: string;
  errorsOnly: boolean;
  failure: '' | ReadFailure;
  text: string;
  calls: boolean;
}

export interface TrafficList {
  controls: TrafficControls;
  set: <K extends keyof TrafficControls>(key: K, value: TrafficControls[K]) => void;
  /** The filter as a query (export writes what the list shows). */
  filter: TrafficFilter;
  /** The rows passing the filter, and grouped into calls when `controls.calls`. */
  visible: readonly TrafficRow[];
  rows: CallRow[];
  /** What the choosers offer: the connections and methods seen, the failure reasons present. */
  clients: [number, string][];
  methods: string[];
  failures: ReadFailure[];
  /** A text search is waiting for the host's first answer. */
  searching: boolean;
}

/**
 * The Traffic list's data: its controls, the choosers' options, and the
 * rows that pass the shared filter (shared/trafficFilter.ts). The rows carry
 * no payloads, so the text part is asked of the host, which holds them:
 * once for a new text, then for the rows that came since.
 */
export function useTrafficList(api: ShelfApi, entries: readonly TrafficRow[], keep: number): TrafficList {
  const [controls, setControls] = useState<TrafficControls>({ client: '', method: '', errorsOnly: false, failure: '', text: '', calls: true });
  const set = <K extends keyof TrafficControls>(key: K, value: TrafficControls[K]) => setControls((c) => ({ ...c, [key]: value }));
  const filter = trafficFilter({ ...controls, connectionId: controls.client ? Number(controls.client) : null });
  const matches = useTextMatches(api, entries, useSettled(needleOf(filter.text)), keep);

  const clients = useMemo(() => {
    const m = new Map<number, string>();
    for (const e of entries) if (!m.has(e.connectionId) || e.client) m.set(e.connectionId, e.client ?? `connection ${e.connectionId}`);
    return [...m.entries()];
  }, [entries]);
  const methods = useMemo(() => [...new Set(entries.map((e) => e.method).filter((m): m is string => !!m))].sort(), [entries]);
  const failures = useMemo(() => READ_FAILURE_NAMES.filter((f) => f === controls.failure || entries.some((e) => e.failure === f)), [entries, controls.failure]);

  const { connectionId, method, errorsOnly, failure } = filter;
  const visible = useMemo(() => {
    const fields = { connectionId, method, errorsOnly, failure };
    return entries.filter((e) => matchesTrafficFields(e, fields) && (matches.seqs === null || matches.seqs.has(e.seq)));
  }, [entries, connectionId, method, errorsOnly, failure, matches.seqs]);
  const rows = useMemo(() => (controls.calls ? toCalls(visible) : visible.map((e) => ({ first: e, answer: null }))), [visible, controls.calls]);

  return { controls, set, filter, visible, rows, clients, methods, failures, searching: matches.searching };
}

const NONE: ReadonlySet<number> = new Set();

/** Typing pauses this long before the host is asked (each new text scans its log). */
const TYPING_MS = 150;

/** `value` once it has stayed the same for TYPING_MS ('' at once: clearing the box shows everything without waiting). */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === '') return setSettled('');
    const t = setTimeout(() => setSettled(value), TYPING_MS);
    return () => clearTimeout(t);
  }, [value]);
  return value === '' ? '' : settled;
}

interface Matches {
  needle: string;
  seqs: ReadonlySet<number>;
  /** Every message up to this seq has been looked at. */
  upTo: number;
}

/**
 * The seqs of the messages whose method or JSON contain `needle` (null: no
 * text filter), from the host's log: one query in flight at a time, each
 * new one only for rows after those already looked at.
 */
function useTextMatches(api: ShelfApi, entries: readonly TrafficRow[], needle: string, keep: number): { seqs: ReadonlySet<number> | null; searching: boolean } {
  const [matches, setMatches] = useState<Matches | null>(null);
  const [answered, setAnswered] = useState(0);
  const busy = useRef(false);
  const needleRef = useRef(needle);
  needleRef.current = needle;
  const firstSeq = entries[0]?.seq ?? 0;
  const lastSeq = entries.at(-1)?.seq ?? 0;

  useEffect(() => {
    if (needle === '' || busy.current) return;
    const current = matches?.needle === needle ? matches : null;
    if (current && current.upTo >= lastSeq) return;
    busy.current = true;
    const upTo = lastSeq;
    const take = (found: readonly TrafficRow[]) =>
      setMatches((prev) => {
        if (needleRef.current !== needle) return prev; // the text changed meanwhile: the next query starts afresh
        const seqs = new Set(prev?.needle === needle ? prev.seqs : []);
        for (const r of found) seqs.add(r.seq);
        // Bounded: seqs of rows the list no longer holds go once they outnumber it.
        if (seqs.size > 2 * keep) for (const s of seqs) if (s < firstSeq) seqs.delete(s);
        return { needle, seqs, upTo: Math.max(upTo, found.at(-1)?.seq ?? 0) };
      });
    // A failed query (the host gone) counts as looked at: asked again when new rows come, not in a loop.
    api
      .trafficRows({ text: needle, limit: keep, ...(current ? { afterSeq: current.upTo } : {}) })
      .then(take, () => take([]))
      .finally(() => {
        busy.current = false;
        setAnswered((n) => n + 1); // look again: rows may have come while this one was out
      });
  }, [api, needle, lastSeq, firstSeq, matches, keep, answered]);

  if (needle === '') return { seqs: null, searching: false };
  // Until the host answers a new text, the last answer stands (none yet: nothing matches).
  return { seqs: matches?.seqs ?? NONE, searching: matches?.needle !== needle };
}
