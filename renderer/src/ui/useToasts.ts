import { useCallback, useEffect, useRef, useState } from 'react';

import type { Toast } from './Toasts';

export interface ToastsState {
  toasts: Toast[];
  notify: (tone: Toast['tone'], text: string) => void;
  dismiss: (id: number) => void;
  /** Shows an error (an Error's message, or the value). */
  fail: (err: unknown) => void;
}

const SHOWN_MS: Record<Toast['tone'], number> = { info: 4000, warning: 8000, error: 8000 };

/**
 * The window's notices: at most four at once, the oldest dropped first. Each
 * has its own timer (a new notice does not keep the others up), and the
 * same notice again while it shows is counted on it and shown for longer.
 */
export function useToasts(): ToastsState {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((t) => t.filter((x) => x.id !== id));
  }, []);

  const notify = useCallback(
    (tone: Toast['tone'], text: string) => {
      setToasts((current) => {
        const same = current.find((t) => t.tone === tone && t.text === text);
        const id = same?.id ?? nextId.current++;
        clearTimeout(timers.current.get(id));
        timers.current.set(
          id,
          setTimeout(() => dismiss(id), SHOWN_MS[tone]),
        );
        if (same) return current.map((t) => (t === same ? { ...t, count: t.count + 1 } : t));
        const next = [...current, { id, tone, text, count: 1 }];
        for (const dropped of next.slice(0, -4)) {
          clearTimeout(timers.current.get(dropped.id));
          timers.current.delete(dropped.id);
        }
        return next.slice(-4);
      });
    },
    [dismiss],
  );

  useEffect(() => {
    const all = timers.current;
    return () => all.forEach(clearTimeout);
  }, []);

  const fail = useCallback((err: unknown) => notify('error', err instanceof Error ? err.message : String(err)), [notify]);
  return { toasts, notify, dismiss, fail };
}
