import path from 'node:path';

import type { FolderOptions } from '../../shared/shelfApi.js';
import { folderProblem } from '../core/library/library.js';
import { nodeBridgeCommand } from '../core/service/clientConfigs.js';
import { type ServiceOptions,ShelfService } from '../core/service/shelfService.js';
import { defaultSettingsDir } from '../core/settings/settingsStore.js';
import { PACKAGE_ROOT, RENDERER_DIR } from '../core/version.js';
import type { WebHost } from '../core/webhost/webHost.js';

export interface HeadlessOptions {
  /** Folders for this run; none: the folders saved in settings. */
  folders: string[];
  socketPath?: string;
  maxReadBytes?: number;
  rules?: Partial<Omit<FolderOptions, 'enabled'>>;
  settingsDir?: string;
  /** Serve the window to a browser on this port (0: any free port). */
  uiPort?: number;
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
/** The document-text worker, built beside the CLI. */
export const EXTRACT_WORKER = path.join(PACKAGE_ROOT, 'dist', 'electron', 'extract-worker.js');
/** The in-chat app's view, one HTML file built beside the CLI. */
export const APP_VIEW = path.join(PACKAGE_ROOT, 'dist', 'electron', 'shelf-app.html');

/** Checks every folder before anything starts, so one typo does not leave a half-started server. */
export async function checkFolders(folders: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of folders) {
    const abs = path.resolve(f);
    const problem = await folderProblem(abs);
    if (problem) throw new UsageError(`${problem}: ${abs}`);
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}

/** The core without a window: the service on its socket, and optionally the browser UI. */
export async function startHeadless(options: HeadlessOptions): Promise<HeadlessShelf> {
  const folders = await checkFolders(options.folders);
  const service = await ShelfService.start({
    settingsDir: options.settingsDir ?? defaultSettingsDir(),
    host: { kind: 'web', nativePicker: false, platform: process.platform },
    sessionFolders: folders.length > 0 ? folders : undefined,
    sessionRules: options.rules,
    socketPath: options.socketPath,
    maxReadBytes: options.maxReadBytes,
    http: options.http,
    tools: options.tools,
    searchIndex: options.searchIndex,
    bridge: (socketPath) => nodeBridgeCommand(process.execPath, CLI_PATH, socketPath),
    extractWorker: EXTRACT_WORKER,
    appView: APP_VIEW,
    log: options.log,
  });
  let web: WebHost | null = null;
  if (options.uiPort !== undefined) {
    try {
      const { startWebHost } = await import('../core/webhost/webHost.js'); // only with --ui
      web = await startWebHost({ service, rendererDir: RENDERER_DIR, port: options.uiPort });
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
