import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../electron/service/dispatch.js';
import { ShelfService } from '../electron/service/shelfService.js';
import { createShelfClient, SHELF_EVENTS, SHELF_METHODS } from '../shared/shelfApi.js';
import { startService } from './support/service.js';

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
    } finally {
      await svc.stop();
    }
  });

  it('both Electron adapters are built from the tables, not by hand', async () => {
    const preload = await readFile(new URL('../electron/preload.ts', import.meta.url), 'utf8');
    const ipc = await readFile(new URL('../electron/ipc.ts', import.meta.url), 'utf8');
    expect(preload).toMatch(/createShelfClient\(/);
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\b\s*\)/);
    expect(ipc).toMatch(/for \(const method of SHELF_METHODS\)/);
    expect(ipc).toMatch(/dispatch\(/);
  });
});
