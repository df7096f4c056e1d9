import { useCallback, useEffect, useState } from 'react';

import type { DiffHunk } from '../../../shared/changeTypes';
import type { ShelfApi } from '../../../shared/shelfApi';

/** Hunks fetched per page: a large diff comes a page at a time ("Show more"). */
export const DIFF_PAGE_HUNKS = 40;

export interface ChangeDiffState {
  hunks: DiffHunk[];
  /** Every hunk of the diff (more than `hunks` until all pages are loaded). */
  total: number;
  loading: boolean;
  /** The proposal stopped waiting (answered elsewhere, timed out, client gone): the prompt moves on. */
  gone: boolean;
  more(): void;
  /** The proposed text in full, to edit before approving; undefined when it is past the size the window may edit. */
  fullText(): Promise<string | undefined | null>;
}

/** One proposal's diff, a page of hunks at a time, from the first page on. */
export function useChangeDiff(api: ShelfApi, id: number, total: number, fail: (err: unknown) => void): ChangeDiffState {
  const [hunks, setHunks] = useState<DiffHunk[]>([]);
  const [known, setKnown] = useState(total);
  const [loading, setLoading] = useState(true);
  const [gone, setGone] = useState(false);

  const load = useCallback(
    async (from: number) => {
      setLoading(true);
      try {
        const page = await api.changeDiff(id, from, DIFF_PAGE_HUNKS, false);
        if (!page) return setGone(true);
        // A page lands once, where it starts: a second click while one is on its way adds nothing twice.
        setHunks((h) => (h.length === from ? [...h, ...page.hunks] : h));
        setKnown(page.total);
      } catch (err) {
        fail(err);
      } finally {
        setLoading(false);
      }
    },
    [api, id, fail],
  );

  useEffect(() => {
    void load(0);
  }, [load]);

  const more = useCallback(() => void load(hunks.length), [load, hunks.length]);
  const fullText = useCallback(async () => {
    const page = await api.changeDiff(id, 0, 1, true);
    if (!page) {
      setGone(true);
      return null;
    }
    return page.text;
  }, [api, id]);

  return { hunks, total: known, loading, gone, more, fullText };
}
