import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { FolderOptions } from '../../shared/shelfApi.js';
import { nodeBridgeCommand } from '../core/clientSetup/clientConfigs.js';
import { folderProblem } from '../core/library/library.js';
import { isInside } from '../core/library/uriPath.js';
import { rootProblem } from '../core/service/folderRegistry.js';
import { builtWorkers, type ServiceOptions } from '../core/service/serviceOptions.js';
import { ShelfService } from '../core/service/shelfService.js';
import { defaultSettingsDir } from '../core/settings/settingsStore.js';
import { PACKAGE_ROOT, RENDERER_DIR } from '../core/version.js';
import type { WebHost } from '../core/webhost/webHost.js';

export interface HeadlessOptions {
  /** Folders for this run; none: the folders saved in settings. */
  folders: string[];
  socketPath?: string;
  maxReadBytes?: number;
  /** The memory kept for clients at once (the budget's shared total). */
  clientMemoryBytes?: number;
  rules?: Partial<Omit<FolderOptions, 'enabled'>>;
  settingsDir?: string;
  /** Serve the window to a browser on this port (0: any free port; 'last': the one saved for the settings folder, else any). */
  uiPort?: number | 'last';
  http?: ServiceOptions['http'];
  tools?: boolean;
  searchIndex?: boolean;
  log?: (message: string) => void;
}

export interface HeadlessShelf {
  service: ShelfService;
  web: WebHost | null;
  close(): Promise<void>;
}

/** A problem with what the user asked for (bad folder, bad flag): exit code 2. */
export class UsageError extends Error {}

/** The built CLI, for the bridge command shown to clients. */
export const CLI_PATH = path.join(PACKAGE_ROOT, 'dist', 'electron', 'cli.js');
/** The workers (document text, images, grep), built beside the CLI. */
export const WORKERS = builtWorkers(path.join(PACKAGE_ROOT, 'dist', 'electron'));
/** The document-text worker, built beside the CLI. */
export const EXTRACT_WORKER = WORKERS.extractWorker as string;

/**
 * Checks every folder before anything starts, so one typo does not leave a
 * half-started server: it exists, is no credentials folder, and neither
 * holds nor lies inside another one given (by where each really is).
 */
export async function checkFolders(folders: readonly string[]): Promise<string[]> {
  const out: Array<{ abs: string; real: string }> = [];
  for (const f of folders) {
    const abs = path.resolve(f);
    const problem = (await folderProblem(abs)) ?? (await rootProblem(abs));
    if (problem) throw new UsageError(`${problem}: ${abs}`);
    if (out.some((o) => o.abs === abs)) continue;
    const real = await realpath(abs);
    const other = out.find((o) => o.real === real || isInside(o.real, real) || isInside(real, o.real));
    if (other) throw new UsageError(`${abs} and ${other.abs} overlap (${real === other.real ? 'the same folder' : 'one holds the other'}): give one of them`);
    out.push({ abs, real });
  }
  return out.map((o) => o.abs);
}

/**
 * The window for a browser, at the address saved for this settings folder (a
 * bookmark keeps working, and the page's stored token with it: it is kept per
 * origin, port included). A saved port taken by another program gives way to
 * a free one; a port named with --ui-port must be free.
 */
async function startWindow(service: ShelfService, settingsDir: string, uiPort: number | 'last', log?: (message: string) => void): Promise<WebHost> {
  const { startWebHost } = await import('../core/webhost/webHost.js'); // only with --ui
  const { loadWebAddress, saveWebAddress } = await import('../core/webhost/webAddress.js');
  const saved = await loadWebAddress(settingsDir);
  const port = uiPort !== 'last' ? uiPort : (saved.port ?? 0);
  let web: WebHost;
  try {
    web = await startWebHost({ service, rendererDir: RENDERER_DIR, port, token: saved.token });
  } catch (err) {
    if (uiPort !== 'last' || port === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    log?.(`the window's usual port ${port} is taken by another program; using another (the address changes)`);
    web = await startWebHost({ service, rendererDir: RENDERER_DIR, port: 0, token: saved.token });
  }
  if (web.port !== saved.port) {
    await saveWebAddress(settingsDir, { port: web.port, token: web.token }).catch((err: Error) => log?.(`could not save the window's address: ${err.message}`));
  }
  return web;
}

/** The core without a window: the service on its socket, and optionally the browser UI. */
export async function startHeadless(options: HeadlessOptions): Promise<HeadlessShelf> {
  const folders = await checkFolders(options.folders);
  const settingsDir = options.settingsDir ?? defaultSettingsDir();
  const service = await ShelfService.start({
    settingsDir,
    host: { kind: 'web', nativePicker: false, platform: process.platform, home: os.homedir() },
    sessionFolders: folders.length > 0 ? folders : undefined,
    sessionRules: options.rules,
    socketPath: options.socketPath,
    maxReadBytes: options.maxReadBytes,
    clientMemoryBytes: options.clientMemoryBytes,
    http: options.http,
    tools: options.tools,
    searchIndex: options.searchIndex,
    bridge: (socketPath) => nodeBridgeCommand(process.execPath, CLI_PATH, socketPath),
    ...WORKERS,
    log: options.log,
  });
  let web: WebHost | null = null;
  if (options.uiPort !== undefined) {
    try {
      web = await startWindow(service, settingsDir, options.uiPort, options.log);
    } catch (err) {
      await service.close();
      throw err;
    }
  }
  let closing: Promise<void> | null = null;
  return {
    service,
    web,
    close() {
      closing ??= (async () => {
        await web?.close();
        await service.close();
      })();
      return closing;
    },
  };
}
