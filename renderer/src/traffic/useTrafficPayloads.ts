import { useEffect, useState } from 'react';

import type { ShelfApi } from '../../../shared/shelfApi';

/** A message's JSON as the detail shows it: undefined while it comes, null when the log no longer holds it. */
export type Payload = string | null | undefined;

/** Payloads fetched lately, by seq (a message's JSON never changes): re-opening a row asks nothing. Bounded. */
const MAX_KEPT = 16;

/**
 * The JSON of the opened messages, fetched from the host when a row is
 * opened (live rows carry none: shelfApi's `trafficPayload`).
 */
export function useTrafficPayloads(api: ShelfApi, seqs: readonly number[]): (seq: number) => Payload {
  const [kept, setKept] = useState<ReadonlyMap<number, string | null>>(new Map());
  const key = seqs.join(',');

  useEffect(() => {
    const wanted = key === '' ? [] : key.split(',').map(Number);
    const missing = wanted.filter((s) => !kept.has(s));
    if (missing.length === 0) return;
    let alive = true;
    void Promise.all(
      missing.map((s) =>
        api.trafficPayload(s).then(
          (p) => [s, p] as const,
          () => [s, null] as const,
        ),
      ),
    ).then((got) => {
      if (!alive) return;
      setKept((prev) => {
        const next = new Map(prev);
        for (const [s, p] of got) next.set(s, p);
        // Oldest first in a Map: drop them past the bound, never one just asked for.
        for (const s of next.keys()) if (next.size > MAX_KEPT && !wanted.includes(s)) next.delete(s);
        return next;
      });
    });
    return () => {
      alive = false;
    };
  }, [api, key, kept]);

  return (seq) => kept.get(seq);
}
