import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { SettingsSchema } from '../../electron/core/settings/settingsStore.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { startService } from '../support/service.js';
import { connectSdkClient, runCli, socketDir, startShelf } from '../support/shelfProcess.js';

describe('watcher exhaustion', () => {
  it('falls back to polling on ENOSPC, says so in the log and the folder state, and keeps delivering updates', async () => {
    const root = await makeTree({ 'w.txt': 'v1' });
    const svc = await startService({ sessionFolders: [root] });
    const client = await connectSdkClient(svc.service.socketPath);
    try {
      const updated: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      await client.subscribeResource({ uri: uriOf(root, 'w.txt') });
      // Fault injection: the error the native watcher reports when inotify runs out of watches.
      const folder = svc.service.library.list()[0] as unknown as { onWatcherError(err: Error): void };
      folder.onWatcherError(new Error('inotify_add_watch on /x failed: No space left on device'));
      await eventually(async () => (await svc.service.listFolders())[0]?.state === 'polling', 5000, 'polling state');
      expect(svc.logs.join('\n')).toMatch(/file watching unavailable \(ENOSPC\); polling/);
      await new Promise((r) => setTimeout(r, 600)); // let the poller take its first look
      await writeFile(path.join(root, 'w.txt'), 'v2 after the fallback');
      await eventually(() => updated.includes(uriOf(root, 'w.txt')), 8000, 'an update while polling');
      await writeFile(path.join(root, 'new.txt'), 'n');
      await eventually(async () => (await client.listResources()).resources.some((r) => r.name === 'new.txt'), 8000, 'a new file while polling');
    } finally {
      await client.close();
      await svc.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('settings survive SIGKILL mid-write', () => {
  it('is always the old or the new complete file, never a torn one', async () => {
    const dir = await socketDir();
    const store = path.resolve('dist/electron/core/settings/settingsStore.js');
    // A writer that saves as fast as it can, each time a different folder list.
    const script = `
      import { SettingsStore, defaultSettings } from ${JSON.stringify(store)};
      const s = new SettingsStore(${JSON.stringify(dir)});
      let n = 0;
      for (;;) {
        const folders = Array.from({ length: 1 + (n % 40) }, (_, i) => ({ path: '/data/folder-' + n + '-' + i + '/' + 'x'.repeat(200), enabled: true, showHidden: false, gitignore: true, extraIgnore: [] }));
        await s.save({ ...defaultSettings(), folders });
        if (n === 0) process.stdout.write('saving');
        n++;
      }`;
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let checked = 0;
    for (let round = 0; round < 15; round++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
      // Kill at a random moment once it is saving in a loop (start-up time varies with load).
      await new Promise((resolve, reject) => {
        child.stdout.once('data', resolve);
        child.once('exit', (code) => reject(new Error(`the settings writer died on its own (exit ${code})`)));
      });
      await new Promise((r) => setTimeout(r, Math.floor(next() * 150)));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const text = await readFile(path.join(dir, 'settings.json'), 'utf8');
      const parsed = SettingsSchema.safeParse(JSON.parse(text));
      expect(parsed.success).toBe(true);
      checked++;
    }
    expect(checked).toBe(15);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('two instances', () => {
  it('the second refuses to start and clobbers neither the first’s socket nor its settings', async () => {
    const folder = await makeTree({ 'one.txt': '1' });
    const dir = await socketDir();
    const sock = path.join(dir, 'shared.sock');
    const settings = path.join(dir, 'settings.json');
    await writeFile(settings, JSON.stringify({ folders: [{ path: folder }] }, null, 2));
    const before = await readFile(settings, 'utf8');
    const first = await startShelf([], [], { socketPath: sock });
    try {
      const second = await runCli(['serve', '--socket', sock, '--config-dir', dir]);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/Another MCP Shelf is already serving/);
      expect(await readFile(settings, 'utf8')).toBe(before);
      const c = await RawClient.initialized(sock);
      expect((await c.request('resources/read', { uri: uriOf(folder, 'one.txt') })).result).toMatchObject({ contents: [{ text: '1' }] });
      c.close();
    } finally {
      expect(await first.stop()).toBe(0);
      await rm(dir, { recursive: true, force: true });
      await rm(folder, { recursive: true, force: true });
    }
  });
});
