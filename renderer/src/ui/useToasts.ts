import { useCallback, useRef, useState } from 'react';

import type { Toast } from './Toasts';

export interface ToastsState {
  toasts: Toast[];
  notify: (tone: Toast['tone'], text: string) => void;
  dismiss: (id: number) => void;
  /** Shows an error (an Error's message, or the value). */
  fail: (err: unknown) => void;
}

/** The window's notices: at most four at once, the oldest dropped first. */
export function useToasts(): ToastsState {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const notify = useCallback((tone: Toast['tone'], text: string) => {
    setToasts((t) => [...t.slice(-3), { id: nextId.current++, tone, text }]);
  }, []);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const fail = useCallback((err: unknown) => notify('error', err instanceof Error ? err.message : String(err)), [notify]);
  return { toasts, notify, dismiss, fail };
}
