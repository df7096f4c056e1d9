import { contextBridge, ipcRenderer, webUtils } from 'electron';

import { createShelfClient, IPC_EVENT_CHANNEL, ipcChannel, type ShelfEventName } from '../../shared/shelfApi.js';

/**
 * window.shelf: the ShelfApi's named methods over IPC, built from the shared
 * table (never raw ipcRenderer), plus pathForFile for drag-and-drop.
 */
const listeners = new Map<ShelfEventName, Set<(payload: unknown) => void>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, name: ShelfEventName, payload: unknown) => {
  for (const l of listeners.get(name) ?? []) l(payload);
});

const api = createShelfClient(
  (method, args) => ipcRenderer.invoke(ipcChannel(method), ...args),
  (event, listener) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  },
);

contextBridge.exposeInMainWorld('shelf', {
  ...api,
  pathForFile: (file: File) => webUtils.getPathForFile(file),
});
