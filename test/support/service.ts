import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { nodeBridgeCommand } from '../../electron/core/clientSetup/clientConfigs.js';
import type { ServiceOptions } from '../../electron/core/service/serviceOptions.js';
import { ShelfService } from '../../electron/core/service/shelfService.js';
import { CLI } from './cliPath.js';

export interface TestService {
  service: ShelfService;
  dir: string;
  logs: string[];
  stop(): Promise<void>;
}

/** A real ShelfService in this process, with its own settings folder and socket. */
export async function startService(overrides: Partial<ServiceOptions> = {}, dir?: string): Promise<TestService> {
  const home = dir ?? (await mkdtemp(path.join(os.tmpdir(), 'svc-')));
  const logs: string[] = [];
  const service = await ShelfService.start({
    settingsDir: home,
    host: { kind: 'web', nativePicker: false, platform: process.platform, home: os.homedir() },
    socketPath: path.join(home, 's.sock'),
    bridge: (sock) => nodeBridgeCommand(process.execPath, CLI, sock),
    log: (m) => logs.push(m),
    ...overrides,
  });
  return {
    service,
    dir: home,
    logs,
    async stop() {
      await service.close();
      if (!dir) await rm(home, { recursive: true, force: true, maxRetries: 5 }); // a file being written as it is removed: ENOTEMPTY, retried
    },
  };
}
