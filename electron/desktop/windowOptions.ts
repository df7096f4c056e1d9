/**
 * The window's security settings, as plain data so they are tested on plain
 * Node (main.ts applies them; only it may import electron).
 */

/** Strict CSP for the app window: our own code only; data/blob only for previews. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "object-src 'self' blob:",
  "frame-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The same policy as a `<meta>` in the page, for where no header carries it
 * (a file:// load whose response headers no hook sees). A meta cannot say
 * frame-ancestors (browsers ignore it there and warn), so it is left out.
 */
export const META_CSP = APP_CSP.split('; ')
  .filter((d) => !d.startsWith('frame-ancestors'))
  .join('; ');

export interface Bounds {
  width: number;
  height: number;
  x?: number;
  y?: number;
}

export const DEFAULT_BOUNDS: Bounds = { width: 1280, height: 820 };

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
