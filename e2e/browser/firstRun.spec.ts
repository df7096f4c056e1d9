import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

/**
 * The README's first command, as a newcomer copies it, on a fresh HOME: it
 * serves, opens the window in the browser (BROWSER names a stand-in that
 * records the address), the window works, and a second run comes up at the
 * same address without building again. `npm install` is the one part not run
 * here: the suite runs on the modules it would install (.ci/run runs npm ci).
 */
const README = path.resolve('README.md');

async function firstCommand(): Promise<string> {
  const readme = await readFile(README, 'utf8');
  const block = /```sh\n([^\n]*)\n/.exec(readme)?.[1] ?? '';
  return block.replace(/\s+#.*$/, '').trim();
}

interface Run {
  proc: ChildProcess;
  stderr: () => string;
}

function runServe(command: string, env: NodeJS.ProcessEnv): Run {
  // Its own process group: npm, the build check and the server all stop together.
  const proc = spawn('sh', ['-c', command], { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => {
    if (err.length < 1_000_000) err += d.toString();
  });
  return { proc, stderr: () => err };
}

async function stop(run: Run): Promise<void> {
  if (run.proc.exitCode !== null || run.proc.pid === undefined) return;
  const exited = new Promise((r) => run.proc.once('exit', r));
  try {
    process.kill(-run.proc.pid, 'SIGINT'); // Ctrl+C reaches the whole group
  } catch {
    return; // the group is gone already
  }
  await exited;
}

test('the README’s first command serves on a fresh HOME, opens the window, and comes back at the same address', async ({ page }) => {
  test.setTimeout(180_000);
  const command = await firstCommand();
  expect(command).toMatch(/^npm install && npm run serve -- --ui$/);
  const serve = command.replace(/^npm install && /, '');

  const home = await mkdtemp(path.join(os.tmpdir(), 'first-run-'));
  const runtime = path.join(home, 'run');
  await mkdir(runtime, { mode: 0o700 });
  const opened = path.join(home, 'opened.txt');
  const browser = path.join(home, 'browser.sh');
  await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
  await chmod(browser, 0o755);
  // A fresh user: nothing saved, no folders; their own runtime folder for the socket.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_RUNTIME_DIR: runtime, BROWSER: browser, LANG: 'C.UTF-8' };

  const runs: Run[] = [];
  try {
    const first = runServe(serve, env);
    runs.push(first);
    await expect.poll(() => first.stderr(), { timeout: 120_000, message: 'the window’s address' }).toMatch(/window: http:\/\/127\.0\.0\.1:\d+\/#token=\S+/);
    const url = /window: (\S+)/.exec(first.stderr())?.[1] as string;
    await expect.poll(async () => (await readFile(opened, 'utf8').catch(() => '')).trim(), { message: 'the browser to be opened at the address' }).toBe(url);
    expect(first.stderr()).toContain('opening it in your browser');
    expect(first.stderr()).not.toMatch(/Folder not found|Usage:/);

    await page.goto(url);
    await expect(page.getByLabel('Folder path')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Connect a client' })).toBeVisible();

    await stop(first);
    // What the command's `npm install` does to an installed tree on every run: the lock files rewritten, same bytes, new times.
    const now = new Date();
    for (const lock of ['package-lock.json', 'node_modules/.package-lock.json']) await utimes(path.resolve(lock), now, now);
    const second = runServe(serve, env);
    runs.push(second);
    await expect.poll(() => second.stderr(), { timeout: 60_000, message: 'the second run’s address' }).toMatch(/window: http/);
    expect(/window: (\S+)/.exec(second.stderr())?.[1]).toBe(url); // a bookmark still works
    expect(second.stderr()).not.toMatch(/building/);
    await page.reload();
    await expect(page.getByLabel('Folder path')).toBeVisible();
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- what the runs printed:\n${runs.map((r) => r.stderr()).join('\n---\n')}`);
  } finally {
    for (const run of runs) await stop(run);
    await rm(home, { recursive: true, force: true });
  }
});
