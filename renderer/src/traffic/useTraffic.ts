import { useCallback, useEffect, useRef, useState } from 'react';

import type { ShelfApi, TrafficRow } from '../../../shared/shelfApi';

/** Entries the window keeps before the host says its own bound (which the window then follows). */
const DEFAULT_KEEP = 10_000;

export interface TrafficState {
  /** The list's rows, oldest first: no payloads (useTrafficMessage fetches one when a row is opened). */
  entries: readonly TrafficRow[];
  paused: boolean;
  held: number;
  /** Messages that came faster than the live batches carry them (gaps in `seq`): in the log, not in the list until a pause loads it whole. */
  skipped: number;
  setPaused: (p: boolean) => void;
  clear: () => Promise<void>;
}

/**
 * The live log: the host's rows first, then its batched events. While
 * paused, new rows are held back (and counted) so the view stays still; a
 * pause after skipped messages loads the log's rows whole instead.
 */
export function useTraffic(api: ShelfApi, live: boolean, keep = DEFAULT_KEEP): TrafficState {
  // The window keeps what the host's log keeps, no more: what it shows is what an export writes.
  const keepRef = useRef(keep);
  keepRef.current = keep;
  const [entries, setEntries] = useState<readonly TrafficRow[]>([]);
  const [paused, setPausedState] = useState(false);
  const [held, setHeld] = useState(0);
  const [skipped, setSkipped] = useState(0);
  const heldRef = useRef<TrafficRow[]>([]);
  const pausedRef = useRef(false);
  const lastSeq = useRef(0);

  /** Appends rows newer than the list's last; `live`: a gap before them is messages the batches left out. */
  const append = useCallback((batch: readonly TrafficRow[], live: boolean) => {
    const fresh = batch.filter((e) => e.seq > lastSeq.current);
    if (fresh.length === 0) return;
    const first = (fresh[0] as TrafficRow).seq;
    if (live && lastSeq.current > 0 && first > lastSeq.current + 1) {
      const gap = first - lastSeq.current - 1;
      setSkipped((n) => n + gap);
    }
    lastSeq.current = (fresh[fresh.length - 1] as TrafficRow).seq;
    setEntries((prev) => {
      const next = prev.concat(fresh);
      return next.length > keepRef.current ? next.slice(next.length - keepRef.current) : next;
    });
  }, []);

  /** Replaces the list with every row the host's log holds (up to the bound). */
  const loadWhole = useCallback(
    () =>
      api.trafficRows({ limit: keepRef.current }).then((rows) => {
        lastSeq.current = rows.at(-1)?.seq ?? lastSeq.current;
        setEntries(rows);
        setSkipped(0);
      }),
    [api],
  );

  useEffect(() => {
    // Loaded again when the connection opens again (what came meanwhile is in the host's log; seen entries are skipped).
    if (!live) return;
    let alive = true;
    // Batches that come before the log's rows wait for them (bounded: the list keeps no more anyway).
    let early: TrafficRow[] | null = [];
    const take = (batch: readonly TrafficRow[]) => {
      if (pausedRef.current) {
        heldRef.current.push(...batch);
        if (heldRef.current.length > keepRef.current) heldRef.current.splice(0, heldRef.current.length - keepRef.current);
        setHeld(heldRef.current.length);
      } else append(batch, true);
    };
    const off = api.on('traffic', (batch) => {
      if (early === null) return take(batch);
      early.push(...batch);
      if (early.length > keepRef.current) early.splice(0, early.length - keepRef.current);
    });
    // All the host still holds, so a reload shows what was there before it.
    void api.trafficRows({ limit: keepRef.current }).then((history) => {
      if (!alive) return;
      append(history, false);
      const waiting = early ?? [];
      early = null;
      take(waiting);
    });
    return () => {
      alive = false;
      off();
    };
  }, [api, live, append]);

  const skippedRef = useRef(0);
  skippedRef.current = skipped;
  const setPaused = useCallback(
    (p: boolean) => {
      pausedRef.current = p;
      setPausedState(p);
      if (p) {
        // The list left messages out: a still view can show them all.
        if (skippedRef.current > 0) void loadWhole();
        return;
      }
      append(heldRef.current, true);
      heldRef.current = [];
      setHeld(0);
    },
    [append, loadWhole],
  );

  const clear = useCallback(async () => {
    await api.clearTraffic();
    heldRef.current = [];
    setHeld(0);
    setSkipped(0);
    setEntries([]);
  }, [api]);

  return { entries, paused, held, skipped, setPaused, clear };
}

/** The other half of a request/response pair, if the window still has it. */
export function partnerOf(entries: readonly TrafficRow[], e: TrafficRow): TrafficRow | null {
  if (e.id === null) return null;
  const isRequest = e.kind === 'request';
  if (!isRequest && e.kind !== 'response' && e.kind !== 'error') return null;
  for (const x of entries) {
    if (x === e || x.connectionId !== e.connectionId || x.id !== e.id || x.direction === e.direction) continue;
    if (isRequest ? x.kind !== 'request' && x.seq > e.seq : x.kind === 'request' && x.seq < e.seq) return x;
  }
  return null;
}
