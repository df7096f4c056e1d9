import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { publishByPath } from './shelfFixture.js';

/**
 * `npm run dev` without Electron (as here): the core serves, Vite's dev
 * server serves the window, and the window reaches the core through the dev
 * server's /api proxy, so publishing a folder works from it.
 */
test('npm run dev serves the window from Vite and it talks to the core', async ({ page }) => {
  test.setTimeout(180_000);
  const home = await mkdtemp(path.join(os.tmpdir(), 'dev-loop-'));
  const runtime = path.join(home, 'run');
  await mkdir(runtime, { mode: 0o700 });
  const folder = path.join(home, 'notes');
  await mkdir(folder);
  await writeFile(path.join(folder, 'hello.md'), '# Hello\n');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_RUNTIME_DIR: runtime, LANG: 'C.UTF-8' };
  // Its own process group: the watcher, the core and the dev server stop together.
  const dev: ChildProcess = spawn(process.execPath, ['scripts/dev.mjs', '--web'], { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  dev.stderr?.on('data', (d: Buffer) => {
    if (err.length < 1_000_000) err += d.toString();
  });
  try {
    await expect.poll(() => err, { timeout: 150_000, message: 'the live-reload address' }).toMatch(/live reload: http:\/\/127\.0\.0\.1:\d+\/#token=\S+/);
    const url = /live reload: (\S+)/.exec(err)?.[1] as string;
    await page.goto(url);
    await publishByPath(page, folder);
    await expect(page.getByRole('treeitem', { name: /hello\.md/ })).toBeVisible();
  } catch (e) {
    throw new Error(`${(e as Error).message}\n--- what dev printed:\n${err}`);
  } finally {
    if (dev.exitCode === null && dev.pid !== undefined) {
      const exited = new Promise((r) => dev.once('exit', r));
      process.kill(-dev.pid, 'SIGINT');
      await exited;
    }
    await rm(home, { recursive: true, force: true });
  }
});
