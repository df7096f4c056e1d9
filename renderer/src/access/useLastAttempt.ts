import { useEffect, useState } from 'react';

import type { AccessEntry, ShelfApi } from '../../../shared/shelfApi';

/**
 * The newest history entry for a file no client has read yet: a failed
 * attempt (too large, denied, secret…) is worth a line in the preview,
 * where "no client has read this file" alone would hide it. Asked again
 * when the history moves (`version`); nothing is asked for a file with reads.
 */
export function useLastAttempt(api: ShelfApi, uri: string, enabled: boolean, version: number): AccessEntry | null {
  const [entry, setEntry] = useState<{ uri: string; entry: AccessEntry | null } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    api.queryHistory({ uri, limit: 1 }).then(
      (page) => current && setEntry({ uri, entry: page.entries[0] ?? null }),
      () => undefined, // a line of the preview: the History tab says what went wrong
    );
    return () => {
      current = false;
    };
  }, [api, uri, enabled, version]);
  return enabled && entry?.uri === uri ? entry.entry : null;
}
