import { createShelfClient, type ShelfApi, type ShelfEventName, webApiProtocols, type WireFrame } from '../../../shared/shelfApi';

/** `locked`: this tab has no key to the server (or one of another shelf's: other settings on the same port). */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'locked';

const TOKEN_KEY = 'mcp-shelf-token';
/** Failed attempts in a row, without ever getting in, before the tab says it needs the new address. */
const LOCKED_AFTER = 3;

/**
 * The key to the API: printed in the address's fragment by `serve --ui`,
 * then kept in sessionStorage (private to this origin, port included, and
 * to this tab) and taken out of the address bar.
 */
function takeToken(): string | null {
  const fromHash = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash)?.[1];
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/**
 * ShelfApi over the web host's WebSocket, the token sent as a subprotocol.
 * The socket reconnects after a drop, and calls made while it is down wait
 * for it; a tab that cannot get in says so (and takes a new address's
 * token as soon as one is pasted).
 */
export function createWsApi(onState: (state: ConnectionState) => void): ShelfApi {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api`;
  let token = takeToken();
  let failures = 0;
  window.addEventListener('hashchange', () => {
    token = takeToken();
    failures = 0;
    if (ws === null || ws.readyState === WebSocket.CLOSED) open();
  });
  const listeners = new Map<ShelfEventName, Set<(payload: unknown) => void>>();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const queue: string[] = [];
  let nextId = 1;
  let ws: WebSocket | null = null;
  let retry = 500;

  let timer: ReturnType<typeof setTimeout> | null = null;
  const open = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!token) {
      onState('locked');
      return;
    }
    onState(failures >= LOCKED_AFTER ? 'locked' : 'connecting');
    const socket = new WebSocket(url, webApiProtocols(token));
    ws = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      failures = 0;
      retry = 500;
      onState('open');
      for (const frame of queue.splice(0)) socket.send(frame);
    };
    socket.onmessage = (ev) => {
      const frame = JSON.parse(String(ev.data)) as WireFrame;
      if (frame.type === 'result') {
        const p = pending.get(frame.id);
        pending.delete(frame.id);
        if (frame.ok) p?.resolve(frame.value);
        else p?.reject(new Error(frame.error));
      } else if (frame.type === 'event') {
        for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
      }
    };
    socket.onclose = (ev) => {
      // Rare, and the first thing to look at when a tab says it is reconnecting.
      console.info(
        `MCP Shelf: connection closed (code ${ev.code}${ev.reason ? `, ${ev.reason}` : ''}${opened ? '' : ', before it opened'}); retrying in ${retry} ms`,
      );
      if (!opened) failures++;
      onState(failures >= LOCKED_AFTER ? 'locked' : opened || failures > 1 ? 'closed' : 'connecting');
      // Refused before it opened while the server answers HTTP: the key is wrong (a stale address), not the network. Said now, not after three tries.
      if (!opened && failures < LOCKED_AFTER) {
        void fetch(`${location.origin}/`, { method: 'HEAD', cache: 'no-store' }).then(
          (res) => {
            if (res.ok && ws === socket && failures > 0) {
              failures = LOCKED_AFTER;
              onState('locked');
            }
          },
          () => undefined,
        );
      }
      for (const [, p] of pending) p.reject(new Error('Connection to MCP Shelf lost'));
      pending.clear();
      timer = setTimeout(open, retry);
      retry = Math.min(retry * 2, 5000);
    };
  };
  open();

  return createShelfClient(
    (method, args) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        const frame = JSON.stringify({ type: 'call', id, method, args });
        if (ws?.readyState === WebSocket.OPEN) ws.send(frame);
        else queue.push(frame);
      }),
    (event, listener) => {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  );
}
