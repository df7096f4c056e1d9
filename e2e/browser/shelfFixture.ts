import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { expect, type Page, test as base } from '@playwright/test';

import { CLI } from '../../test/support/shelfProcess.js';

export interface RunningShelf {
  url: string;
  socketPath: string;
  home: string;
  proc: ChildProcess;
}

/** A real `mcp-shelf serve --ui` per test, with its own settings and socket. */
export const test = base.extend<{ shelf: RunningShelf; startShelf: (args?: string[], env?: NodeJS.ProcessEnv) => Promise<RunningShelf> }>({
  // Playwright reads a fixture's dependencies from this pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  startShelf: async ({}, use, testInfo) => {
    const started: Array<RunningShelf & { log: () => string }> = [];
    // `env` is added to the environment serve runs with (a fake HOME, say).
    await use(async (args = [], env = {}) => {
      const home = await mkdtemp(path.join(os.tmpdir(), 'e2e-'));
      const socketPath = path.join(home, 's.sock');
      const proc = spawn(process.execPath, [CLI, 'serve', '--ui', '--no-open', '--socket', socketPath, '--config-dir', home, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, ...env },
      });
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve --ui did not start:\n${err}`)), 60_000); // a deadline for failure only
        proc.stderr?.on('data', (d: Buffer) => {
          if (err.length < 1_000_000) err += d.toString();
          const m = /window: (http:\/\/\S+)/.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve(m[1] as string);
          }
        });
        proc.once('exit', (code) => reject(new Error(`serve --ui exited with ${code}:\n${err}`)));
      });
      const shelf = { url, socketPath, home, proc };
      started.push({ ...shelf, log: () => err });
      return shelf;
    });
    // A failed test carries what the shelf printed (and whether it was still running).
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const s of started)
        await testInfo.attach('shelf stderr', {
          body: `${s.log()}\n[exit code: ${s.proc.exitCode ?? 'still running'}, signal: ${s.proc.signalCode ?? '-'}]`,
          contentType: 'text/plain',
        });
    }
    for (const s of started) {
      s.proc.kill('SIGTERM');
      await new Promise((r) => (s.proc.exitCode !== null ? r(null) : s.proc.once('exit', r)));
      await rm(s.home, { recursive: true, force: true });
    }
  },
  shelf: async ({ startShelf }, use) => {
    await use(await startShelf());
  },
  // A failed test carries what the page said (its console and uncaught errors), e.g. why its connection closed.
  page: async ({ page }, use, testInfo) => {
    const said: string[] = [];
    page.on('console', (m) => said.length < 1000 && said.push(`${new Date().toISOString()} ${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => said.length < 1000 && said.push(`${new Date().toISOString()} pageerror: ${e.message}`));
    page.on('websocket', (ws) => {
      said.push(`${new Date().toISOString()} websocket ${ws.url()} opened`);
      ws.on('close', () => said.push(`${new Date().toISOString()} websocket ${ws.url()} closed`));
      ws.on('socketerror', (e) => said.push(`${new Date().toISOString()} websocket error: ${e}`));
    });
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('page console', { body: said.join('\n') || '(nothing)', contentType: 'text/plain' });
  },
});

export { expect };

export const SHOTS = path.resolve('test-results', 'screenshots');
/** Whether this run takes screenshots: always, except under CI unless SHOTS=1 (see shoot). */
export const TAKE_SHOTS = !process.env.CI || process.env.SHOTS === '1';

/** One screenshot named `file` under SHOTS, where this run takes them (TAKE_SHOTS). */
export async function snap(page: Page, file: string): Promise<void> {
  if (TAKE_SHOTS) await page.screenshot({ path: path.join(SHOTS, file) });
}

/** Types a folder's path into the path field and presses Publish (what a browser user does: there is no folder picker). */
export async function publishByPath(page: Page, folder: string): Promise<void> {
  await page.getByLabel('Folder path').fill(folder);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
}

/** The window sizes every view is looked at in: a laptop, and the smallest window the app supports. */
const SHOT_SIZES = [
  { width: 1440, height: 900 },
  { width: 800, height: 600 },
];

/** Turns on ask-before-read for a published folder through its Options, as a person would. */
export async function askBeforeRead(page: Page, folder: string): Promise<void> {
  await page.getByRole('button', { name: `Options of ${path.basename(folder)}` }).click();
  await page.getByTestId('ask-before-read').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('badge-ask')).toHaveCount(1);
}

/**
 * Screenshots of the page at each of SHOT_SIZES, light and dark
 * (`NAME-1440x900-light.png`, …); the test goes on at its own size.
 * `frozenClock`: the test holds the page's clock, so no frames are awaited
 * (they would never come); Playwright's screenshot still waits for layout.
 * Under CI (no one looks at them there) they are taken only with SHOTS=1:
 * 51 states × 4 pictures, each a resize, a relayout and a PNG, are minutes
 * of CPU on a busy machine.
 */
export async function shoot(page: Page, name: string, { frozenClock = false } = {}): Promise<void> {
  if (!TAKE_SHOTS) return;
  const before = page.viewportSize();
  for (const size of SHOT_SIZES) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Laid out at this size: two frames, or 250 ms where the page gets no frames (an evaluate has no timeout of its own).
      if (!frozenClock) {
        await page.evaluate(
          () =>
            new Promise((r) => {
              setTimeout(r, 250);
              requestAnimationFrame(() => requestAnimationFrame(r));
            }),
        );
      }
      await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (before) await page.setViewportSize(before);
}
