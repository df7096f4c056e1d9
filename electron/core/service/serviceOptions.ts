import path from 'node:path';

import type { FolderOptions, HostInfo } from '../../../shared/shelfApi.js';
import type { BridgeCommand } from '../clientSetup/clientConfigs.js';
import type { HttpOverride } from './endpoints.js';

export interface ServiceOptions {
  /** Folder holding settings.json (Electron: userData; headless: the XDG config folder). */
  settingsDir: string;
  host: HostInfo;
  /**
   * Folders for this run only (the command line): served instead of the
   * saved ones and never written to settings.
   */
  sessionFolders?: string[];
  /** Rules for sessionFolders (command-line flags). */
  sessionRules?: Partial<Omit<FolderOptions, 'enabled'>>;
  /** Overrides for this run, not saved. */
  socketPath?: string;
  maxReadBytes?: number;
  /** The memory kept for clients at once, shared by all of them (clientMemory/memoryBudget.ts; default 256 MiB). */
  clientMemoryBytes?: number;
  tools?: boolean;
  /** Streamable HTTP for this run (the command line); otherwise settings decide. */
  http?: HttpOverride;
  /** The bridge command clients should launch. */
  bridge: (socketPath: string) => BridgeCommand;
  pickFolders?: () => Promise<string[] | null>;
  log?: (message: string) => void;
  /** Full-text index for this run (the command line); otherwise settings decide. */
  searchIndex?: boolean;
  /**
   * The built document-text worker (extract-worker.js beside the host's
   * bundle). Without it, documents are served as files only.
   */
  extractWorker?: URL | string;
  /** The built image worker (image-worker.js): without it, the read tool describes images instead of showing them. */
  imageWorker?: URL | string;
  /** The built grep worker (grep-worker.js): without it, there is no grep_resources. */
  grepWorker?: URL | string;
  /** The built diff worker (diff-worker.js): without it, the diffs of proposed changes are made on the main thread. */
  diffWorker?: URL | string;
  /**
   * The built in-chat app (shelf-app.html beside the host's bundle). Without
   * it, the app's tool and resource are not offered.
   */
  appView?: string;
}

/** The workers and the in-chat app's view a host's build puts beside its bundle (dist/electron for the CLI, out/main for Electron). */
export function builtWorkers(dir: string): Pick<ServiceOptions, 'extractWorker' | 'imageWorker' | 'grepWorker' | 'diffWorker' | 'appView'> {
  return {
    extractWorker: path.join(dir, 'extract-worker.js'),
    imageWorker: path.join(dir, 'image-worker.js'),
    grepWorker: path.join(dir, 'grep-worker.js'),
    diffWorker: path.join(dir, 'diff-worker.js'),
    appView: path.join(dir, 'shelf-app.html'),
  };
}
