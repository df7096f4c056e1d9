import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MAX_READ_BYTES } from '../shared/errorCodes.js';
import { Library } from './library/library.js';
import type { RuleOptions } from './library/rules.js';
import { ConnectionHub } from './mcp/connectionHub.js';
import { defaultSocketPath, prepareSocketDir } from './transport/socketPath.js';
import { listenSocket, type ListeningSocket } from './transport/socketServer.js';

export interface HeadlessOptions {
  folders: string[];
  socketPath?: string;
  maxReadBytes?: number;
  rules?: Partial<RuleOptions>;
  log?: (message: string) => void;
}

export interface HeadlessShelf {
  socketPath: string;
  library: Library;
  hub: ConnectionHub;
  close(): Promise<void>;
}

/** A problem with what the user asked for (bad folder, bad flag): exit code 2. */
export class UsageError extends Error {}

/** Checks every folder before anything starts, so one typo does not leave a half-started server. */
export async function checkFolders(folders: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of folders) {
    const abs = path.resolve(f);
    const st = await stat(abs).catch(() => null);
    if (!st) throw new UsageError(`Folder not found: ${abs}`);
    if (!st.isDirectory()) throw new UsageError(`Not a folder (a file was given): ${abs}`);
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}

/** The core without a window: library, MCP connections and the local socket. */
export async function startHeadless(options: HeadlessOptions): Promise<HeadlessShelf> {
  const folders = await checkFolders(options.folders);
  const rules: RuleOptions = {
    showHidden: options.rules?.showHidden ?? false,
    gitignore: options.rules?.gitignore ?? true,
    extraIgnore: options.rules?.extraIgnore ?? [],
  };
  const library = new Library({ maxReadBytes: options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES });
  const log = options.log ?? (() => undefined);
  library.subscribe({ folderState: (_f, message) => log(message) });
  const hub = new ConnectionHub(library, { log });
  let listening: ListeningSocket | null = null;
  try {
    for (const folder of folders) await library.add(folder, rules);
    const socketPath = options.socketPath ?? defaultSocketPath();
    await prepareSocketDir(socketPath, options.socketPath === undefined);
    listening = await listenSocket(socketPath, (socket) => hub.acceptSocket(socket));
  } catch (err) {
    await library.close();
    throw err;
  }
  const sock = listening;
  let closing: Promise<void> | null = null;
  return {
    socketPath: sock.path,
    library,
    hub,
    close() {
      closing ??= (async () => {
        const stopped = sock.close();
        await hub.closeAll();
        await stopped;
        await library.close();
      })();
      return closing;
    },
  };
}
