import { chmod, chown, lstat, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { META_CSP } from '../../electron/core/webhost/windowCsp.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { connectSdkClient, runCli, socketDir, startShelf } from '../support/shelfProcess.js';
import { connectWebApi } from '../support/webApi.js';

/**
 * Small promises of the real CLI that each closed one way in: what the web
 * host answers to malformed input, and a settings folder someone else
 * loosened or planted links in.
 */

function get(address: string, rawPath: string): Promise<{ status: number; body: string }> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: rawPath, headers: { host: url.host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('the web host', () => {
  it('answers a malformed % escape in the path with 400 and no parser message, and goes on serving', async () => {
    const shelf = await startShelf([], ['--ui']);
    try {
      const address = /window: (\S+)/.exec(shelf.stderr())?.[1] as string;
      for (const bad of ['/%E0%A4%A', '/assets/%zz.js', '/%']) {
        const res = await get(address, bad);
        expect(res.status, bad).toBe(400);
        expect(res.body, bad).toBe('Bad request\n');
      }
      expect((await get(address, '/')).status).toBe(200);
    } finally {
      await shelf.stop();
    }
  });

  it('serves the page with its CSP in a <meta> as well as the header (the fallback where no header is seen)', async () => {
    const shelf = await startShelf([], ['--ui']);
    try {
      const page = await get(/window: (\S+)/.exec(shelf.stderr())?.[1] as string, '/');
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page.body)?.[1]?.replace(/&#39;/g, "'");
      expect(meta).toBe(META_CSP);
      expect(META_CSP).toContain("script-src 'self'");
      // It comes first in the head: a policy in a meta governs only what follows it.
      expect(page.body.indexOf('Content-Security-Policy')).toBeLessThan(page.body.indexOf('<script'));
    } finally {
      await shelf.stop();
    }
  });
});

describe('the settings folder', () => {
  it('one open to others is closed (700) at start, saying so', async () => {
    const dir = await socketDir();
    await chmod(dir, 0o755);
    const shelf = await startShelf([], ['--ui'], { socketPath: path.join(dir, 's.sock') });
    try {
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect(shelf.stderr()).toContain(`Closed the settings folder ${dir} to other users (it was mode 755; now 700)`);
    } finally {
      await shelf.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('links planted as settings.json and history/ are moved aside, never written through', async () => {
    const dir = await socketDir();
    const elsewhere = await makeTree({ 'precious.json': 'do not overwrite', 'logs/keep.txt': 'mine' });
    const folder = await makeTree({ 'a.md': 'a' });
    await symlink(path.join(elsewhere, 'precious.json'), path.join(dir, 'settings.json'));
    await symlink(path.join(elsewhere, 'logs'), path.join(dir, 'history'));
    const shelf = await startShelf([], ['--ui'], { socketPath: path.join(dir, 's.sock') });
    const api = await connectWebApi(shelf);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      expect(shelf.stderr()).toMatch(/settings\.json was a link \(not made by MCP Shelf\); moved it to .*settings\.json\.link-/);
      expect(shelf.stderr()).toMatch(/history was a link/);
      // A save (adding a folder) and a recorded read.
      expect((await api.call('addFolders', [folder])).added).toEqual([folder]);
      await client.readResource({ uri: uriOf(folder, 'a.md') });
      await eventually(async () => (await readdir(path.join(dir, 'history'))).length > 0, 5000, 'a history segment');
      expect(await readFile(path.join(elsewhere, 'precious.json'), 'utf8')).toBe('do not overwrite');
      expect(await readdir(path.join(elsewhere, 'logs'))).toEqual(['keep.txt']);
      expect((await lstat(path.join(dir, 'settings.json'))).isFile()).toBe(true);
      expect((await lstat(path.join(dir, 'history'))).isDirectory()).toBe(true);
      expect(JSON.parse(await readFile(path.join(dir, 'settings.json'), 'utf8')).folders).toEqual([expect.objectContaining({ path: folder })]);
    } finally {
      await client.close();
      await api.close();
      await shelf.stop();
      for (const d of [dir, elsewhere, folder]) await rm(d, { recursive: true, force: true });
    }
  });

  it.skipIf(process.getuid?.() !== 0)('one that belongs to another user is refused (exit 1, saying why)', async () => {
    const dir = await socketDir();
    const config = path.join(dir, 'config');
    await mkdir(config, { mode: 0o700 });
    await chown(config, 65534, 65534);
    await writeFile(path.join(config, 'x'), '');
    try {
      const { code, stderr } = await runCli(['serve', '--ui', '--socket', path.join(dir, 's.sock'), '--config-dir', config]);
      expect(code).toBe(1);
      expect(stderr).toContain(`Refusing to use the settings folder ${config}: it belongs to another user (uid 65534)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
