import './changes.css';

import type { AccessChange, ChangeKind, ChangeOutcome, UndoState } from '../../../shared/changeTypes';
import { formatBytes } from '../format';
import type { UndoControls } from './useUndo';

const KIND: Record<ChangeKind, string> = { create: 'new file', replace: 'replaced', edit: 'edit' };

/** How each outcome reads in History, and what it means (the row's tooltip). */
const OUTCOME: Record<ChangeOutcome, { label: string; explain: string }> = {
  written: { label: 'written', explain: 'You approved it and it was written.' },
  declined: { label: 'declined', explain: 'You declined it: nothing was written.' },
  timeout: { label: 'no answer', explain: 'Nobody answered in time: nothing was written.' },
  conflict: { label: 'conflict', explain: 'The file changed after the change was proposed: nothing was written, and the model got a fresh diff.' },
  'no-window': { label: 'no window', explain: 'No MCP Shelf window was open to ask: refused at once.' },
  busy: { label: 'too many waiting', explain: 'Too many changes were already waiting: refused at once.' },
  disconnected: { label: 'client left', explain: 'The client disconnected while the change waited.' },
  cancelled: { label: 'cancelled', explain: 'The client cancelled it while it waited.' },
  failed: { label: 'write failed', explain: 'The write itself failed: nothing was written.' },
};

const UNDO_TEXT: Record<Exclude<UndoState, 'available'>, { label: string; explain: string }> = {
  undone: { label: 'undone', explain: 'Undone: the file is back as it was before this change.' },
  'changed-since': { label: 'changed since', explain: 'The file changed again after this change: Undo would lose those edits, so it is not offered.' },
  expired: { label: 'undo expired', explain: 'The previous version is no longer kept (Settings: changes kept).' },
};

/** Under the file's name: the kind of change, lines ±, the sizes, and whether the person edited the text before approving it. */
export function ChangeDetail({ change }: { change: AccessChange }) {
  return (
    <span className="history-detail muted small history-change-detail" data-testid="history-change-detail">
      <span className="history-via history-change-kind" data-kind={change.kind}>
        {KIND[change.kind]}
      </span>
      {/* Each part stays whole: a narrow row wraps between them, not inside "17 B → 23 B" (the sheet spaces them). */}
      <span className="nowrap">
        <span className="change-plus">+{change.added.toLocaleString()}</span> <span className="change-minus">−{change.removed.toLocaleString()}</span>
      </span>
      <span className="nowrap">
        {change.sizeBefore === null ? formatBytes(change.sizeAfter) : `${formatBytes(change.sizeBefore)} → ${formatBytes(change.sizeAfter)}`}
      </span>
      {change.edited && <span className="nowrap history-edited">edited by you</span>}
    </span>
  );
}

/** The outcome of a change, and for a written one whether it can still be undone: Undo only while it can. */
export function ChangeOutcomeCell({ change, undo }: { change: AccessChange; undo: UndoControls }) {
  const outcome = OUTCOME[change.outcome];
  const id = change.outcome === 'written' ? change.undoId : undefined;
  const state = id ? undo.states[id] : undefined;
  return (
    <span className="history-change-outcome">
      <span className={`status ${change.outcome === 'written' ? 'status-ok' : 'status-error'}`} title={outcome.explain} data-testid="history-change-outcome">
        {outcome.label}
      </span>
      {id && state === 'available' && (
        <button
          type="button"
          className="btn btn-small history-undo"
          onClick={() => undo.undo(id)}
          disabled={undo.busy.has(id)}
          title="Put back the file as it was before this change"
          data-testid="history-undo"
        >
          Undo
        </button>
      )}
      {id && state && state !== 'available' && (
        <span className="muted small" title={UNDO_TEXT[state].explain} data-testid="history-undo-state">
          {UNDO_TEXT[state].label}
        </span>
      )}
    </span>
  );
}
