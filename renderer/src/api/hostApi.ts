import type { ShelfApi } from '../../../shared/shelfApi';
import { type ConnectionState, createWsApi } from './wsClient';

/** What the Electron preload adds beside the contract. */
export interface HostExtras {
  /** The dropped file's real path (Electron only: browsers do not reveal paths). */
  pathForFile?: (file: File) => string;
}

declare global {
  interface Window {
    shelf?: ShelfApi & HostExtras;
  }
}

/** window.shelf under Electron, else the web host's WebSocket. */
export function connectHost(onState: (s: ConnectionState) => void): ShelfApi & HostExtras {
  if (window.shelf) {
    onState('open');
    return window.shelf;
  }
  return createWsApi(onState);
}
