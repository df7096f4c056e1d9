import { type ChildProcess,spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { type Page, test as base } from '@playwright/test';

import { CLI } from '../../test/support/shelfProcess.js';

export interface RunningShelf {
  url: string;
  socketPath: string;
  home: string;
  proc: ChildProcess;
}

/** A real `mcp-shelf serve --ui` per test, with its own settings and socket. */
export const test = base.extend<{ shelf: RunningShelf; startShelf: (args?: string[]) => Promise<RunningShelf> }>({
  // Playwright reads a fixture's dependencies from this pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  startShelf: async ({}, use) => {
    const started: RunningShelf[] = [];
    await use(async (args = []) => {
      const home = await mkdtemp(path.join(os.tmpdir(), 'e2e-'));
      const socketPath = path.join(home, 's.sock');
      const proc = spawn(process.execPath, [CLI, 'serve', '--ui', '--socket', socketPath, '--config-dir', home, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve --ui did not start:\n${err}`)), 20_000);
        proc.stderr?.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /window: (http:\/\/\S+)/.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve(m[1] as string);
          }
        });
        proc.once('exit', (code) => reject(new Error(`serve --ui exited with ${code}:\n${err}`)));
      });
      const shelf = { url, socketPath, home, proc };
      started.push(shelf);
      return shelf;
    });
    for (const s of started) {
      s.proc.kill('SIGTERM');
      await new Promise((r) => (s.proc.exitCode !== null ? r(null) : s.proc.once('exit', r)));
      await rm(s.home, { recursive: true, force: true });
    }
  },
  shelf: async ({ startShelf }, use) => {
    await use(await startShelf());
  },
});

export { expect } from '@playwright/test';

export const SHOTS = path.resolve('test-results', 'screenshots');

/** A screenshot of the page in light and in dark (`NAME-light.png`, `NAME-dark.png`). */
export async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
