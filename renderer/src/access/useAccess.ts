import { useCallback, useEffect, useRef, useState } from 'react';

import { fileUriOfText } from '../../../shared/documentUris';
import type { AccessAsk, AccessDecision, FileAccess, ShelfApi } from '../../../shared/shelfApi';

/** An ask as this window holds it: with when the window first heard of it (its countdown runs from there, on this window's clock). */
export type HeldAsk = AccessAsk & { receivedAt: number };

export interface AccessState {
  /** Read counts per file URI (successful client reads the history holds). */
  byUri: ReadonlyMap<string, FileAccess>;
  /** Changes whenever byUri or the history does (the map itself is updated in place). */
  version: number;
  asks: HeldAsk[];
  answer(id: number, decision: AccessDecision): Promise<void>;
}

/** The per-file counts are reloaded at most this often (a flood of reads asks for them with every batch). */
const RELOAD_MS = 2000;

/**
 * What clients read and what waits for an answer: the per-file counts
 * (loaded when the connection opens, then kept current from `access`
 * events) and the asks.
 */
export function useAccess(api: ShelfApi, live: boolean, fail: (err: unknown) => void): AccessState {
  const byUri = useRef(new Map<string, FileAccess>());
  const [version, setVersion] = useState(0);
  const [asks, setHeld] = useState<HeldAsk[]>([]);
  /**
   * Each ask keeps the time it first came: a queued ask's countdown is its own deadline, not its timeout again from
   * when it reached the front (the second of two said "denied in 59 s" with 19 s left).
   */
  const setAsks = useCallback((list: AccessAsk[]) => {
    const now = Date.now();
    setHeld((held) => {
      const known = new Map(held.map((a) => [a.id, a.receivedAt]));
      return list.map((a) => ({ ...a, receivedAt: known.get(a.id) ?? now }));
    });
  }, []);

  useEffect(() => {
    if (!live) return;
    let current = true;
    let seen = 0;
    const loadCounts = () =>
      api.fileAccess().then((counts) => {
        if (!current) return;
        byUri.current = new Map(counts.map((c) => [c.uri, c]));
        setVersion((v) => v + 1);
      }, fail);
    // A flood of reads leaves gaps in every batch: the counts (a whole map) are loaded at most every
    // RELOAD_MS, and asks that come meanwhile are served by the one load already waiting.
    let lastLoad = -Infinity;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const reloadCounts = () => {
      if (timer) return;
      timer = setTimeout(
        () => {
          timer = null;
          lastLoad = Date.now();
          void loadCounts();
        },
        Math.max(0, lastLoad + RELOAD_MS - Date.now()),
      );
    };
    reloadCounts();
    void api.pendingAsks().then((waiting) => current && setAsks(waiting), fail);
    const offAccess = api.on('access', (entries) => {
      const first = entries[0];
      // Entries were left out of the batches (a burst of reads), or the history changed as a whole: reload the counts.
      if (!first || (seen > 0 && first.seq > seen + 1)) reloadCounts();
      seen = entries[entries.length - 1]?.seq ?? seen;
      for (const e of entries) {
        // Reads only, as the history counts them: a search names no file, and a written change is not a read.
        if (e.outcome !== 'ok' || e.search || e.change) continue;
        // A document's text is the document: its reads count for the file.
        const uri = fileUriOfText(e.uri) ?? e.uri;
        const known = byUri.current.get(uri);
        byUri.current.set(uri, { uri, reads: (known?.reads ?? 0) + 1, lastTime: e.time, lastClient: e.client });
      }
      setVersion((v) => v + 1);
    });
    const offAsks = api.on('asks', setAsks);
    return () => {
      current = false;
      if (timer) clearTimeout(timer);
      offAccess();
      offAsks();
    };
  }, [api, live, fail, setAsks]);

  const answer = useCallback(
    async (id: number, decision: AccessDecision) => {
      // Answered elsewhere or timed out in the meantime: the asks event updates the list either way.
      await api.answerAsk(id, decision).catch(fail);
    },
    [api, fail],
  );

  return { byUri: byUri.current, version, asks, answer };
}

/** "read 3 times, last by Claude 1.2 at 14:03" */
export function describeAccess(a: FileAccess, format: (time: number) => string): string {
  return `Read ${a.reads === 1 ? 'once' : `${a.reads.toLocaleString()} times`} by clients, last by ${a.lastClient ?? 'an unnamed client'} ${format(a.lastTime)}`;
}
