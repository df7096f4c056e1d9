import { useEffect, useRef, useState } from 'react';

import type { ChangeProposal } from '../../../shared/changeTypes';
import type { AccessAsk } from '../../../shared/shelfApi';

/** The page's icon: a shelf in the accent colour; with asks waiting, a red dot in its corner (seen from another tab). */
const ICON = (dot: boolean) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="6" width="26" height="4" rx="1" fill="#3b6fd8"/><rect x="3" y="15" width="26" height="4" rx="1" fill="#3b6fd8"/><rect x="3" y="24" width="26" height="4" rx="1" fill="#3b6fd8"/>${
      dot ? '<circle cx="24" cy="8" r="7.5" fill="#d93025" stroke="#fff" stroke-width="1.5"/>' : ''
    }</svg>`,
  )}`;

function iconLink(): HTMLLinkElement {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  return link;
}

/** Whether the page may show system notifications now (granted earlier; asking needs a click, see askNotificationPermission). */
const canNotify = () => typeof Notification !== 'undefined' && Notification.permission === 'granted';

/**
 * Asks for leave to show system notifications, from a click (browsers take
 * the request only then). Called when the person turns on ask-before-read:
 * that is when a waiting read may need to reach them in another tab.
 */
export function askNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

/** One system notification stands for every waiting ask (same tag: a newer one replaces it, quietly). */
const NOTE_TAG = 'mcp-shelf-asks';
/** New notifications at most this often: a client raising ask after ask (new connections) cannot fill the screen with them. */
const NOTE_EVERY_MS = 5000;

/** What a notification says about one waiting ask or change. */
interface Waiting {
  key: string;
  title: string;
  path: string;
}

const waitingOf = (asks: readonly AccessAsk[], changes: readonly ChangeProposal[]): Waiting[] => [
  ...asks.map((a) => ({ key: `ask:${a.id}`, title: `${a.client ?? 'A client'} asks to read a file`, path: a.path })),
  ...changes.map((c) => ({ key: `change:${c.id}`, title: `${c.client ?? 'A client'} proposes a change to a file`, path: c.path })),
];

/** "(2) Reads waiting", "(1) Change waiting", "(3) Waiting for you" (both). */
function titleOf(reads: number, changes: number): string | null {
  const n = reads + changes;
  if (n === 0) return null;
  if (changes === 0) return `(${n}) ${n === 1 ? 'Read' : 'Reads'} waiting`;
  if (reads === 0) return `(${n}) ${n === 1 ? 'Change' : 'Changes'} waiting`;
  return `(${n}) Waiting for you`;
}

/**
 * A waiting read or change reaches the owner wherever they are: the tab's
 * title counts them and its icon gets a dot (both seen from another tab),
 * and a system notification says who asks for what when the page is hidden
 * and notifications are permitted. Each is announced once, in one
 * notification that stands for all that wait, at most every few seconds.
 */
export function useAskAlert(asks: readonly AccessAsk[], changes: readonly ChangeProposal[] = []): void {
  const baseTitle = useRef<string | null>(null);
  const announced = useRef(new Set<string>());
  const lastNoteAt = useRef(-Infinity);
  const later = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    baseTitle.current ??= document.title;
    const link = iconLink();
    const all = waitingOf(asks, changes);
    const n = all.length;
    const counted = titleOf(asks.length, changes.length);
    document.title = counted ? `${counted} · ${baseTitle.current}` : baseTitle.current;
    link.href = ICON(n > 0);

    const waiting = new Set(all.map((w) => w.key));
    for (const key of announced.current) if (!waiting.has(key)) announced.current.delete(key);
    if (!canNotify() || document.visibilityState === 'visible') return;
    const fresh = all.filter((w) => !announced.current.has(w.key));
    const newest = fresh[fresh.length - 1];
    if (!newest) return;
    const wait = lastNoteAt.current + NOTE_EVERY_MS - Date.now();
    if (wait > 0) {
      // Announced when the interval is up, with whatever waits then.
      later.current ??= setTimeout(() => {
        later.current = null;
        setTick((t) => t + 1);
      }, wait);
      return;
    }
    for (const w of fresh) announced.current.add(w.key);
    lastNoteAt.current = Date.now();
    const others = n - 1;
    const [answer, more] =
      changes.length === 0
        ? ['allow or deny it', others === 1 ? ' read' : ' reads']
        : asks.length === 0
          ? ['approve or decline it', others === 1 ? ' change' : ' changes']
          : ['answer', ''];
    try {
      const note = new Notification(newest.title, {
        body: `${newest.path}${others > 0 ? `\nand ${others} more${more} waiting` : ''}\nOpen MCP Shelf to ${answer}.`,
        tag: NOTE_TAG,
      });
      // The click brings the owner to the prompt: the window, and its default answer focused (they may have been elsewhere in the page).
      note.onclick = () => {
        window.focus();
        document.querySelector<HTMLElement>('[role="alertdialog"] [data-default-answer]')?.focus();
        note.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker: the title and the icon still say it.
    }
  }, [asks, changes, tick]);

  useEffect(
    () => () => {
      if (later.current) clearTimeout(later.current);
    },
    [],
  );

  // The plain icon from the start (index.html carries an empty one), and the page's own title back on unmount.
  useEffect(
    () => () => {
      if (baseTitle.current !== null) document.title = baseTitle.current;
    },
    [],
  );
}
