import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { app, BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent, Menu, nativeImage, Notification, session, shell, Tray } from 'electron';

import type { ChangeProposal } from '../../shared/changeTypes.js';
import type { AccessAsk } from '../../shared/shelfApi.js';
import { reportUncaught } from '../core/base/processErrors.js';
import { appBridgeCommand, type BridgeCommand, nodeBridgeCommand } from '../core/clientSetup/clientConfigs.js';
import { builtWorkers } from '../core/service/serviceOptions.js';
import { ShelfService } from '../core/service/shelfService.js';
import { loadBounds, saveBounds } from '../core/settings/windowState.js';
import { runBridge } from '../core/transport/bridge.js';
import { defaultSocketPath } from '../core/transport/socketPath.js';
import { APP_CSP } from '../core/webhost/windowCsp.js';
import { forwardEvents, registerIpc } from './ipc.js';
import { BRIDGE_USAGE, type Launch, launchMode, publishAskOptions } from './launchMode.js';
import { folderArgs, isAppUrl, mainWindowOptions } from './windowOptions.js';

/**
 * The Electron glue, kept thin: lifecycle, window, menu, tray. Everything
 * else is the ShelfService, which runs (and is tested) on plain Node.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, '../preload/preload.cjs');
const rendererFile = path.join(here, '../renderer/index.html');
const appUrl = process.env.ELECTRON_RENDERER_URL ?? `file://${rendererFile}`;

let win: BrowserWindow | null = null;
let tray: Tray | null = null;
let service: ShelfService | null = null;
let quitting = false;

/**
 * Packaged: this app's own executable is the bridge (`--mcp-bridge`, see
 * launchMode.ts), so clients need no separate Node and the runAsNode fuse
 * stays off.
 */
function bridgeCommand(socketPath: string): BridgeCommand {
  if (app.isPackaged) return appBridgeCommand(process.execPath, socketPath);
  return nodeBridgeCommand('node', path.join(app.getAppPath(), 'dist', 'electron', 'cli.js'), socketPath);
}

function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return !!win && event.sender === win.webContents && !!frame && frame === win.webContents.mainFrame && isAppUrl(frame.url, appUrl);
}

async function addFolders(paths: string[]): Promise<void> {
  if (!service || paths.length === 0) return;
  const result = await service.addFolders(paths);
  if (result.refused.length > 0 && win) {
    await dialog.showMessageBox(win, {
      type: 'warning',
      message: 'Some folders were not added',
      detail: result.refused.map((r) => `${r.path}: ${r.reason}`).join('\n'),
    });
  }
}

/**
 * Folders named on the command line (the first launch's, or a second
 * launch's handed over): any program can start the app so, so the window
 * asks before they are published.
 */
async function askToPublish(paths: string[]): Promise<void> {
  if (!service || paths.length === 0) return;
  await showWindow();
  const options = publishAskOptions(paths);
  const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  if (response !== 0) return;
  await addFolders(paths);
}

async function pickFolders(): Promise<string[] | null> {
  const options = { title: 'Publish folders', properties: ['openDirectory', 'multiSelections'] as Array<'openDirectory' | 'multiSelections'> };
  const res = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return res.canceled ? null : res.filePaths;
}

async function createWindow(): Promise<void> {
  const bounds = await loadBounds(app.getPath('userData'));
  win = new BrowserWindow(mainWindowOptions(preloadPath, bounds));
  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, appUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Links to docs open in the browser; the app never opens windows of its own.
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const stopEvents = service ? forwardEvents(service, contents) : () => undefined;
  win.once('ready-to-show', () => win?.show());
  win.on('close', () => {
    // The window's size is a convenience: not saved, it opens at the default next time.
    if (win) void saveBounds(app.getPath('userData'), win.getNormalBounds()).catch(() => undefined);
  });
  win.on('closed', () => {
    stopEvents();
    win = null;
  });
  if (process.env.ELECTRON_RENDERER_URL) await win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else await win.loadFile(rendererFile);
}

function buildMenu(): void {
  const template: Electron.MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Publish Folder…', accelerator: 'CmdOrCtrl+O', click: () => void pickFolders().then((p) => addFolders(p ?? [])) },
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function refreshTray(): Promise<void> {
  if (!tray || !service) return;
  const status = await service.getStatus();
  const line = `${status.files} files in ${status.folders} folders · ${status.connections} clients`;
  tray.setToolTip(`MCP Shelf — ${line}`);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: line, enabled: false },
      { label: `Socket: ${status.socketPath}`, enabled: false },
      { type: 'separator' },
      { label: 'Show MCP Shelf', click: () => void showWindow() },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
}

async function showWindow(): Promise<void> {
  if (!win) await createWindow();
  if (win?.isMinimized()) win.restore();
  win?.show();
  win?.focus();
}

/** Asks and changes already announced (`ask:1`, `change:1`), so each is announced once (bounded: the gates hold at most 64 and 16). */
const announced = new Set<string>();
let shownNote: Notification | null = null;
/** New notifications at most this often; what comes meanwhile is announced together when it is up. */
const NOTE_EVERY_MS = 5000;
let lastNoteAt = -Infinity;
let noteLater: NodeJS.Timeout | null = null;
/** What waits now, as the `asks` and `changes` events last said. */
let asksWaiting: AccessAsk[] = [];
let changesWaiting: ChangeProposal[] = [];

interface Waiting {
  key: string;
  title: string;
  body: (more: string) => string;
}

/** The name is the client's own claim: said as such. */
const whoOf = (w: { client: string | null; connectionId: number }) =>
  w.client ? `A client calling itself “${w.client}” (#${w.connectionId})` : `Client #${w.connectionId}`;

/**
 * A read or a change waits for the person: the window shows the prompt
 * (opened if it was closed to the tray, but not pulled forward again while
 * it shows) and a native notification says so even when the window is
 * behind others.
 */
function announceWaiting(): void {
  const all: Waiting[] = [
    ...asksWaiting.map((a) => ({
      key: `ask:${a.id}`,
      title: 'Allow this read?',
      body: (more: string) => `${whoOf(a)} wants to read ${a.path}${more}. Answer in MCP Shelf.`,
    })),
    ...changesWaiting.map((c) => ({
      key: `change:${c.id}`,
      title: 'Approve this change?',
      body: (more: string) => `${whoOf(c)} wants to ${c.kind} ${c.path}${more}. Approve or decline it in MCP Shelf.`,
    })),
  ];
  const waiting = new Set(all.map((w) => w.key));
  for (const key of announced) if (!waiting.has(key)) announced.delete(key);
  const fresh = all.filter((w) => !announced.has(w.key));
  const newest = fresh[fresh.length - 1];
  if (!newest) return;
  const wait = lastNoteAt + NOTE_EVERY_MS - Date.now();
  if (wait > 0) {
    noteLater ??= setTimeout(() => {
      noteLater = null;
      announceWaiting();
    }, wait);
    return;
  }
  for (const w of fresh) announced.add(w.key);
  lastNoteAt = Date.now();
  if (!win?.isVisible() || win.isMinimized()) void showWindow();
  if (Notification.isSupported()) {
    const others = all.length - 1;
    shownNote?.close();
    const note = new Notification({ title: newest.title, body: newest.body(others > 0 ? ` (and ${others} more waiting)` : '') });
    note.on('click', () => void showWindow());
    note.show();
    shownNote = note;
  }
}

async function start(): Promise<void> {
  // Deny every permission (camera, notifications…) and enforce the CSP on every response.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [APP_CSP] } });
  });

  service = await ShelfService.start({
    settingsDir: app.getPath('userData'),
    host: { kind: 'electron', nativePicker: true, platform: process.platform, home: os.homedir() },
    bridge: bridgeCommand,
    pickFolders,
    log: (message) => console.warn(`mcp-shelf: ${message}`),
    ...builtWorkers(here),
  });
  registerIpc(ipcMain, service, isTrustedSender);
  service.on('status', () => void refreshTray());
  // The app can always show its window (it opens one for an ask), so asks are never refused for want of one.
  service.attachWindow();
  service.on('asks', (asks) => {
    asksWaiting = asks;
    announceWaiting();
  });
  service.on('changes', (changes) => {
    changesWaiting = changes;
    announceWaiting();
  });
  buildMenu();
  const icon = nativeImage.createFromPath(path.join(here, '../../build/icon.png'));
  tray = new Tray(icon.isEmpty() ? nativeImage.createEmpty() : icon.resize({ width: 16, height: 16 }));
  tray.on('click', () => void showWindow());
  await refreshTray();
  await createWindow();
  // Paths on the command line are the shell's, relative to where the app was started (the window's field takes full paths only).
  await askToPublish(folderArgs(process.argv).map((p) => path.resolve(p)));
}

/**
 * The app's executable as the stdio bridge: the client's stdin/stdout piped
 * to the socket, and nothing else — no window, no tray, no Dock icon, no
 * single-instance lock (a running app is not disturbed), no server.
 */
function runAsBridge(launch: Extract<Launch, { mode: 'bridge' | 'bridge-usage' }>): void {
  app.dock?.hide();
  if (launch.mode === 'bridge-usage') {
    process.stderr.write(`mcp-shelf: ${launch.error}\n\n${BRIDGE_USAGE}`);
    app.exit(2);
    return;
  }
  const socketPath = launch.socket ?? defaultSocketPath();
  void runBridge(socketPath, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, { isDefault: socketPath === defaultSocketPath() }).then(
    (code) => app.exit(code),
    (err: Error) => {
      process.stderr.write(`mcp-shelf: ${err.message}\n`);
      app.exit(1);
    },
  );
}

function runAsApp(): void {
  // What nobody caught goes to the log; the app keeps serving (Electron would otherwise show a dialog or exit).
  reportUncaught((message) => console.warn(`mcp-shelf: ${message}`));
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', (_event, argv, workingDirectory) => {
    void askToPublish(folderArgs(argv).map((p) => path.resolve(workingDirectory, p)));
  });
  app.on('window-all-closed', () => {
    // The server keeps running in the tray; Quit ends it.
  });
  app.on('activate', () => void showWindow());
  app.on('before-quit', (event) => {
    if (quitting || !service) return;
    event.preventDefault();
    quitting = true;
    void service.close().finally(() => app.quit());
  });
  app
    .whenReady()
    .then(start)
    .catch((err: Error) => {
      dialog.showErrorBox('MCP Shelf could not start', err.message);
      app.exit(1);
    });
}

// Decided before anything starts: the bridge must not take the lock, open a window or start a server.
const launch = launchMode(process.argv);
if (launch.mode === 'app') runAsApp();
else runAsBridge(launch);
