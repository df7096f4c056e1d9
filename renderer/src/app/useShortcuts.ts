import { type KeyboardEvent, type RefObject, useCallback, useEffect } from 'react';

import { type TabId, TABS } from './tabs';

/**
 * Window-wide keys: / focuses the file filter, Ctrl/Cmd with a tab's
 * shortcut shows that tab, Ctrl/Cmd+B shows or hides the sidebar;
 * and ←/→ on the tab list (returned, to put on it).
 */
export function useShortcuts(
  tab: TabId,
  setTab: (t: TabId) => void,
  filterRef: RefObject<HTMLInputElement | null>,
  toggleSidebar?: () => void,
): (e: KeyboardEvent) => void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
      const byShortcut = e.ctrlKey || e.metaKey ? TABS.find((t) => t.shortcut === e.key) : undefined;
      if (e.key === '/' && !typing) {
        e.preventDefault();
        filterRef.current?.focus();
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'b' && toggleSidebar) {
        e.preventDefault();
        toggleSidebar();
      } else if (byShortcut) {
        e.preventDefault();
        setTab(byShortcut.id);
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
      const next = TABS[(n + TABS.length) % TABS.length] as (typeof TABS)[number];
      setTab(next.id);
      document.getElementById(`tab-${next.id}`)?.focus();
    },
    [tab, setTab],
  );
}
