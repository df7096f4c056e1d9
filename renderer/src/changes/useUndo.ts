import { useCallback, useEffect, useState } from 'react';

import type { UndoState } from '../../../shared/changeTypes';
import type { AccessEntry, ShelfApi } from '../../../shared/shelfApi';

export interface UndoControls {
  /** Each written change's undo state, by its undo id (absent: not known yet). */
  states: Readonly<Record<string, UndoState>>;
  /** Undo ids being undone now. */
  busy: ReadonlySet<string>;
  undo(undoId: string): void;
}

/** The undo ids of written changes among the entries, which History may offer Undo on. */
const undoIdsOf = (entries: readonly AccessEntry[]) =>
  entries.flatMap((e) => (e.change?.outcome === 'written' && e.change.undoId ? [e.change.undoId] : [])).slice(0, 1000);

/**
 * History's Undo: whether each written change shown can still be undone
 * (asked for the entries shown, again after each undo), and Undo itself,
 * its result told as a notice. A refusal because the file changed again
 * since is kept on the row (the store does not know it until Undo looks).
 */
export function useUndo(api: ShelfApi, entries: readonly AccessEntry[], notify: (message: string) => void, fail: (err: unknown) => void): UndoControls {
  const [states, setStates] = useState<Record<string, UndoState>>({});
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [asked, setAsked] = useState(0);
  const ids = undoIdsOf(entries).join(' ');

  useEffect(() => {
    if (!ids) return;
    let current = true;
    void api.undoStates(ids.split(' ')).then(
      (known) =>
        current &&
        setStates((s) => ({
          ...s,
          ...Object.fromEntries(Object.entries(known).map(([id, st]) => [id, s[id] === 'changed-since' && st === 'available' ? s[id] : st])),
        })),
      fail,
    );
    return () => {
      current = false;
    };
  }, [api, ids, asked, fail]);

  const undo = useCallback(
    (undoId: string) => {
      setBusy((b) => new Set(b).add(undoId));
      void api
        .undoChange(undoId)
        .then((result) => {
          notify(result.message);
          if (!result.ok) setStates((s) => ({ ...s, [undoId]: result.state }));
          setAsked((n) => n + 1);
        }, fail)
        .finally(() =>
          setBusy((b) => {
            const next = new Set(b);
            next.delete(undoId);
            return next;
          }),
        );
    },
    [api, notify, fail],
  );

  return { states, busy, undo };
}
