import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';

import { IPC_EVENT_CHANNEL, ipcChannel, SHELF_EVENTS, SHELF_METHODS } from '../../shared/shelfApi.js';
import { dispatch } from '../core/service/dispatch.js';
import type { ShelfService } from '../core/service/shelfService.js';

/**
 * Binds every ShelfApi method to one ipcMain.handle, from the table. Each
 * call must come from the app's own main frame; arguments are validated by
 * the service (folder paths are re-checked there: exists, is a directory).
 */
export function registerIpc(ipcMain: IpcMain, service: ShelfService, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): () => void {
  for (const method of SHELF_METHODS) {
    ipcMain.handle(ipcChannel(method), (event, ...args: unknown[]) => {
      if (!isTrustedSender(event)) throw new Error('Refused: not the MCP Shelf window');
      return dispatch(service, method, args);
    });
  }
  return () => {
    for (const method of SHELF_METHODS) ipcMain.removeHandler(ipcChannel(method));
  };
}

/** Forwards the service's (already batched) events to the window. */
export function forwardEvents(service: ShelfService, contents: WebContents): () => void {
  const offs = SHELF_EVENTS.map((event) =>
    service.on(event, (payload) => {
      if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, event, payload);
    }),
  );
  return () => offs.forEach((off) => off());
}
