import { createShelfClient, type ShelfApi, type ShelfEventName, webApiProtocols, type WireFrame } from '../../../shared/shelfApi';

/**
 * `locked`: this tab has no key to the server (or one of another shelf's: other settings on the same port);
 * `stopped`: the server does not answer at all (it stopped: the tab retries); `closed`: the connection dropped while the server answers.
 */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'stopped' | 'locked';

const TOKEN_KEY = 'mcp-shelf-token';

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
  /** The server answers but refused this tab's key: only then is the tab locked (a stopped server is not a wrong key). */
  let refused = false;
  /** The last state said, kept across retries (a retry does not say "Connecting" again). */
  let said: ConnectionState = 'connecting';
  const say = (state: ConnectionState) => {
    said = state;
    onState(state);
  };
  window.addEventListener('hashchange', () => {
    token = takeToken();
    refused = false;
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
      say('locked');
      return;
    }
    say(refused ? 'locked' : said === 'open' ? 'closed' : said);
    const socket = new WebSocket(url, webApiProtocols(token));
    ws = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      refused = false;
      retry = 500;
      say('open');
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
      // (Never opened: nothing is said until the server's answer below tells a wrong key from a stopped server.)
      if (said === 'open') say('closed');
      // Whether the server is there at all: refused before it opened while the server answers HTTP, the key is wrong
      // (a stale address), not the network; no answer at all, the server stopped (not a key this tab lacks).
      void fetch(`${location.origin}/`, { method: 'HEAD', cache: 'no-store' }).then(
        (res) => {
          if (ws !== socket || said === 'open') return;
          if (res.ok && !opened) {
            refused = true;
            say('locked');
          } else if (!refused) say('closed');
        },
        () => {
          if (ws === socket && said !== 'open' && !refused) say('stopped');
        },
      );
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
