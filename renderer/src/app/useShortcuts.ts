import { type KeyboardEvent, type RefObject, useCallback, useEffect } from 'react';

export type Tab = 'preview' | 'search' | 'traffic' | 'history' | 'clients' | 'connect';
export const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'preview', label: 'Preview' },
  { id: 'search', label: 'Search' },
  { id: 'traffic', label: 'Traffic' },
  { id: 'history', label: 'History' },
  { id: 'clients', label: 'Clients' },
  { id: 'connect', label: 'Connect a client' },
];

/**
 * Window-wide keys: / focuses the file filter, Ctrl/Cmd+1…6 switch panels,
 * Ctrl/Cmd+B shows or hides the sidebar;
 * and ←/→ on the tab list (returned, to put on it).
 */
export function useShortcuts(
  tab: Tab,
  setTab: (t: Tab) => void,
  filterRef: RefObject<HTMLInputElement | null>,
  toggleSidebar?: () => void,
): (e: KeyboardEvent) => void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
      if (e.key === '/' && !typing) {
        e.preventDefault();
        filterRef.current?.focus();
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'b' && toggleSidebar) {
        e.preventDefault();
        toggleSidebar();
      } else if ((e.ctrlKey || e.metaKey) && /^[1-6]$/.test(e.key)) {
        e.preventDefault();
        setTab((TABS[Number(e.key) - 1] as { id: Tab }).id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setTab, filterRef, toggleSidebar]);

  return useCallback(
    (e: KeyboardEvent) => {
      const i = TABS.findIndex((t) => t.id === tab);
      const n = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : null;
      if (n === null) return;
      const next = TABS[(n + TABS.length) % TABS.length] as { id: Tab };
      setTab(next.id);
      document.getElementById(`tab-${next.id}`)?.focus();
    },
    [tab, setTab],
  );
}
