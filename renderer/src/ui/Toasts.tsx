export interface Toast {
  id: number;
  tone: 'info' | 'warning' | 'error';
  text: string;
  /** The same notice again while it shows: counted, not stacked. */
  count: number;
}

/** Short notices in a corner; each goes away by itself (its own timer, see useToasts) or on click. */
export function Toasts({ toasts, dismiss }: { toasts: Toast[]; dismiss: (id: number) => void }) {
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <button key={t.id} type="button" className={`toast toast-${t.tone}`} onClick={() => dismiss(t.id)} title="Dismiss">
          {t.text}
          {t.count > 1 && <span className="toast-count"> ×{t.count}</span>}
        </button>
      ))}
    </div>
  );
}
