import { useEffect, useState } from 'react';

import type { AppChange } from '../../shared/shelfApp';
import type { ShelfCalls } from './shelfCalls';

/** How often the view asks while one of its changes waits (the person may decide any moment). */
export const WAITING_POLL_MS = 2000;
/** How often it asks while none waits: the model may propose one while the view is open. */
export const IDLE_POLL_MS = 5000;
/** A failed ask is tried again later each time, up to this. */
const MAX_BACKOFF_MS = 60_000;

/**
 * The changes this client proposed that wait for the person, asked of the
 * server through the host (no server can tell a view of them), only while
 * the view can be seen.
 */
export function useWaitingChanges(calls: Pick<ShelfCalls, 'changes'> | null): AppChange[] {
  const [changes, setChanges] = useState<AppChange[]>([]);
  useEffect(() => {
    if (!calls) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let asking = false;
    let failures = 0;
    const schedule = (ms: number) => {
      if (timer) clearTimeout(timer);
      timer = document.visibilityState === 'hidden' ? null : setTimeout(ask, ms);
    };
    const ask = () => {
      timer = null;
      if (stopped || asking || document.visibilityState === 'hidden') return;
      asking = true;
      calls.changes().then(
        (r) => {
          asking = false;
          if (stopped) return;
          failures = 0;
          setChanges((old) => (same(old, r.changes) ? old : r.changes));
          schedule(r.changes.length > 0 ? WAITING_POLL_MS : IDLE_POLL_MS);
        },
        () => {
          // A host that refuses the call, or a shelf without it: the strip stays empty, asked again ever more rarely.
          asking = false;
          if (stopped) return;
          failures++;
          setChanges((old) => (old.length === 0 ? old : []));
          schedule(Math.min(MAX_BACKOFF_MS, IDLE_POLL_MS * 2 ** failures));
        },
      );
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        if (timer) clearTimeout(timer);
        timer = null;
      } else if (!timer) ask();
    };
    document.addEventListener('visibilitychange', onVisibility);
    ask();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [calls]);
  return changes;
}

const same = (a: AppChange[], b: AppChange[]) =>
  a.length === b.length && a.every((c, i) => c.uri === b[i]?.uri && c.time === b[i]?.time && c.added === b[i]?.added && c.removed === b[i]?.removed);

/**
 * Says which of this client's changes wait for the person and where to
 * decide them. It has no buttons on purpose: a change is approved only in
 * MCP Shelf's own window, never in a frame the client controls.
 */
export function WaitingChanges({ changes, folderName }: { changes: AppChange[]; folderName: (root: string) => string }) {
  if (changes.length === 0) return null;
  return (
    <section className="app-changes" aria-label="Changes waiting for your approval" data-testid="app-changes">
      <p className="small app-changes-head">
        {changes.length === 1 ? 'Waiting for your approval in MCP Shelf:' : `${changes.length} changes waiting for your approval in MCP Shelf:`}
      </p>
      <ul className="app-changes-list">
        {changes.map((c) => (
          <li key={`${c.uri}\u0000${c.time}`} className="small">
            <span className="app-change-path" title={c.uri}>
              {folderName(c.folder)}/{c.path}
            </span>{' '}
            <span className="muted">
              {c.kind === 'create' ? 'new file, ' : ''}(<span className="app-change-added">+{c.added}</span>{' '}
              <span className="app-change-removed">−{c.removed}</span>)
            </span>
          </li>
        ))}
      </ul>
      <p className="small muted app-changes-where">Decide in the MCP Shelf window: nothing is written until you approve it there.</p>
    </section>
  );
}
