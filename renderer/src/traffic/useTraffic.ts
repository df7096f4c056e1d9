import { useCallback, useEffect, useRef, useState } from 'react';

import type { ShelfApi, TrafficEntry } from '../../../shared/shelfApi';

/** Entries the window keeps before the host says its own bound (which the window then follows). */
const DEFAULT_KEEP = 10_000;

export interface TrafficState {
  entries: readonly TrafficEntry[];
  paused: boolean;
  held: number;
  setPaused: (p: boolean) => void;
  clear: () => Promise<void>;
}

/**
 * The live log: history first, then the host's batched events. While paused,
 * new entries are held back (and counted) so the view stays still.
 */
export function useTraffic(api: ShelfApi, live: boolean, keep = DEFAULT_KEEP): TrafficState {
  // The window keeps what the host's log keeps, no more: what it shows is what an export writes.
  const keepRef = useRef(keep);
  keepRef.current = keep;
  const [entries, setEntries] = useState<readonly TrafficEntry[]>([]);
  const [paused, setPausedState] = useState(false);
  const [held, setHeld] = useState(0);
  const heldRef = useRef<TrafficEntry[]>([]);
  const pausedRef = useRef(false);
  const lastSeq = useRef(0);

  const append = useCallback((batch: readonly TrafficEntry[]) => {
    const fresh = batch.filter((e) => e.seq > lastSeq.current);
    if (fresh.length === 0) return;
    lastSeq.current = (fresh[fresh.length - 1] as TrafficEntry).seq;
    setEntries((prev) => {
      const next = prev.concat(fresh);
      return next.length > keepRef.current ? next.slice(next.length - keepRef.current) : next;
    });
  }, []);

  useEffect(() => {
    // Loaded again when the connection opens again (what came meanwhile is in the host's log; seen entries are skipped).
    if (!live) return;
    let alive = true;
    const off = api.on('traffic', (batch) => {
      if (pausedRef.current) {
        heldRef.current.push(...batch);
        setHeld(heldRef.current.length);
      } else append(batch);
    });
    // All the host still holds, so a reload shows what was there before it.
    void api.queryTraffic({ limit: keepRef.current }).then((history) => alive && append(history));
    return () => {
      alive = false;
      off();
    };
  }, [api, live, append]);

  const setPaused = useCallback(
    (p: boolean) => {
      pausedRef.current = p;
      setPausedState(p);
      if (!p) {
        append(heldRef.current);
        heldRef.current = [];
        setHeld(0);
      }
    },
    [append],
  );

  const clear = useCallback(async () => {
    await api.clearTraffic();
    heldRef.current = [];
    setHeld(0);
    setEntries([]);
  }, [api]);

  return { entries, paused, held, setPaused, clear };
}

/** The other half of a request/response pair, if the window still has it. */
export function partnerOf(entries: readonly TrafficEntry[], e: TrafficEntry): TrafficEntry | null {
  if (e.id === null) return null;
  const isRequest = e.kind === 'request';
  if (!isRequest && e.kind !== 'response' && e.kind !== 'error') return null;
  for (const x of entries) {
    if (x === e || x.connectionId !== e.connectionId || x.id !== e.id || x.direction === e.direction) continue;
    if (isRequest ? x.kind !== 'request' && x.seq > e.seq : x.kind === 'request' && x.seq < e.seq) return x;
  }
  return null;
}
