import WebSocket from 'ws';

import { type ShelfEventName, type ShelfEvents, type ShelfMethods, webApiProtocols, type WireFrame } from '../../shared/shelfApi.js';
import { eventually } from './fixtures.js';
import type { ShelfProcess } from './shelfProcess.js';

/** The ShelfApi of a running `serve --ui`, over its WebSocket, as the browser window uses it. */
export interface WebApi {
  call<M extends keyof ShelfMethods>(method: M, ...args: Parameters<ShelfMethods[M]>): ReturnType<ShelfMethods[M]>;
  /** Every event received so far, in order. */
  events<E extends ShelfEventName>(event: E): Array<ShelfEvents[E]>;
  close(): Promise<void>;
}

/** Connects to the window address `serve --ui` printed (`window: http://…/#token=…`). */
export async function connectWebApi(shelf: ShelfProcess): Promise<WebApi> {
  const printed = await eventually(() => /window: (\S+)/.exec(shelf.stderr())?.[1], 10_000, 'the window address');
  return connectWebApiAt(printed as string);
}

/** Connects to a window address (with its #token=…). */
export async function connectWebApiAt(address: string): Promise<WebApi> {
  const url = new URL(address);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const ws = new WebSocket(`ws://${url.host}/api`, webApiProtocols(token), { origin: `http://${url.host}` });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  const received = new Map<ShelfEventName, unknown[]>();
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as WireFrame;
    if (frame.type === 'event') {
      const list = received.get(frame.event) ?? [];
      list.push(frame.payload);
      received.set(frame.event, list);
    } else if (frame.type === 'result') {
      const p = pending.get(frame.id);
      pending.delete(frame.id);
      if (frame.ok) p?.resolve(frame.value as never);
      else p?.reject(new Error(frame.error));
    }
  });
  let nextId = 1;
  return {
    call: ((method: string, ...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ type: 'call', id, method, args }));
      })) as WebApi['call'],
    events: <E extends ShelfEventName>(event: E) => (received.get(event) ?? []) as Array<ShelfEvents[E]>,
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}
