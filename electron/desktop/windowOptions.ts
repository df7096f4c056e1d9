/**
 * The window's security settings, as plain data so they are tested on plain
 * Node (main.ts applies them; only it may import electron). Its CSP is
 * core/webhost/windowCsp.ts, shared with the web host; its saved size,
 * core/settings/windowState.ts.
 */

import type { Bounds } from '../core/settings/windowState.js';

/** BrowserWindow options (a structural subset of Electron's type). */
export function mainWindowOptions(preloadPath: string, bounds: Bounds) {
  return {
    ...bounds,
    minWidth: 760,
    minHeight: 480,
    show: false,
    title: 'MCP Shelf',
    backgroundColor: '#1b1d21',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // Middle-click must not open links in new windows.
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  } as const;
}

/**
 * True when `url` is the app's own page: the built file, or the dev server
 * during development. Everything else is refused navigation and IPC.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const u = new URL(url);
    const app = new URL(appUrl);
    if (app.protocol === 'file:') return u.protocol === 'file:' && u.pathname === app.pathname;
    return u.origin === app.origin;
  } catch {
    return false;
  }
}

/** Folder paths a second launch passed on its command line (not flags, not the app path). */
export function folderArgs(argv: readonly string[]): string[] {
  return argv.slice(1).filter((a) => !a.startsWith('-') && !/\.(js|cjs|mjs|asar)$/.test(a) && a !== '.');
}
