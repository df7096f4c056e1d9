import { createShelfClient, type ShelfApi, type ShelfEventName, type WireFrame } from '../../../shared/shelfApi';

export type ConnectionState = 'connecting' | 'open' | 'closed';

/**
 * ShelfApi over the web host's WebSocket. The page's cookie carries the
 * token; the socket reconnects after a drop, and calls made while it is down
 * wait for it.
 */
export function createWsApi(onState: (state: ConnectionState) => void): ShelfApi {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api`;
  const listeners = new Map<ShelfEventName, Set<(payload: unknown) => void>>();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const queue: string[] = [];
  let nextId = 1;
  let ws: WebSocket | null = null;
  let retry = 500;

  const open = () => {
    onState('connecting');
    const socket = new WebSocket(url);
    ws = socket;
    socket.onopen = () => {
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
    socket.onclose = () => {
      onState('closed');
      for (const [, p] of pending) p.reject(new Error('Connection to MCP Shelf lost'));
      pending.clear();
      setTimeout(open, retry);
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
