import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { dispatch } from '../../../electron/core/service/dispatch.js';
import { ShelfService } from '../../../electron/core/service/shelfService.js';
import { createShelfClient, SHELF_EVENTS, SHELF_METHODS } from '../../../shared/shelfApi.js';
import { startService } from '../../support/service.js';

describe('ShelfApi contract symmetry', () => {
  it('the service implements every method of the table', () => {
    for (const m of SHELF_METHODS) expect(typeof ShelfService.prototype[m], m).toBe('function');
  });

  it('the client factory (preload and WebSocket client) exposes exactly the table, plus on()', () => {
    const calls: string[] = [];
    const api = createShelfClient(
      async (method) => void calls.push(method),
      () => () => undefined,
    );
    expect(Object.keys(api).sort()).toEqual([...SHELF_METHODS, 'on'].sort());
    expect(() => api.on('nope' as never, () => undefined)).toThrow(/Unknown event/);
    for (const e of SHELF_EVENTS) expect(typeof api.on(e, () => undefined)).toBe('function');
  });

  it('dispatch (IPC and web host) refuses anything outside the table', async () => {
    const svc = await startService();
    try {
      for (const name of ['close', 'constructor', '__proto__', 'toString', 'library', 'on', 42]) {
        await expect(dispatch(svc.service, name, [])).rejects.toThrow(/Unknown method/);
      }
      await expect(dispatch(svc.service, 'listFolders', 'not-an-array')).rejects.toThrow(/array/);
      await expect(dispatch(svc.service, 'listFolders', [])).resolves.toEqual([]);
      // Arguments are checked against each method's schema in dispatch, whichever host delivered them.
      await expect(dispatch(svc.service, 'queryTraffic', [{ limit: 'all' }])).rejects.toThrow(/Invalid traffic query/);
      await expect(dispatch(svc.service, 'queryTraffic', [{ evil: true }])).rejects.toThrow(/Invalid traffic query/);
      await expect(dispatch(svc.service, 'queryTraffic', [{ method: null, limit: 5 }])).resolves.toEqual([]);
      await expect(dispatch(svc.service, 'setFolderEnabled', ['/nope', 'yes'])).rejects.toThrow(/Invalid arguments for setFolderEnabled: 1: /);
      await expect(dispatch(svc.service, 'setFolderEnabled', ['/nope', true])).rejects.toThrow(/Not a published folder/);
      await expect(dispatch(svc.service, 'addFolders', ['not-a-list'])).rejects.toThrow(/Invalid arguments for addFolders/);
      await expect(dispatch(svc.service, 'updateSettings', [{ log: { maxEntries: -5 } }])).rejects.toThrow(/Invalid settings: log.maxEntries/);
      await expect(dispatch(svc.service, 'listResources', ['/nope', null])).rejects.toThrow(/Not a published folder/);
      await expect(dispatch(svc.service, 'removeFolder', [])).rejects.toThrow(/Invalid arguments for removeFolder/);
    } finally {
      await svc.stop();
    }
  });

  it('both Electron adapters are built from the tables, not by hand', async () => {
    const preload = await readFile(new URL('../../../electron/desktop/preload.ts', import.meta.url), 'utf8');
    const ipc = await readFile(new URL('../../../electron/desktop/ipc.ts', import.meta.url), 'utf8');
    expect(preload).toMatch(/createShelfClient\(/);
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\b\s*\)/);
    expect(ipc).toMatch(/for \(const method of SHELF_METHODS\)/);
    expect(ipc).toMatch(/dispatch\(/);
  });
});
