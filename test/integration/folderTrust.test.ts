import { rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ErrorCodes } from '../../shared/errorCodes.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { connectSdkClient, runCli, socketDir, startShelf } from '../support/shelfProcess.js';
import { connectWebApi } from '../support/webApi.js';

/**
 * Which folders may be published, against the real CLI: credentials folders
 * never as the folder itself (command line, window, settings file), and no
 * folder that holds or lies inside another — judged by where each really is,
 * so a link to a parent cannot publish an ask-before-read folder's files a
 * second time, without asking.
 */

/** A settings folder holding these saved folders; the socket goes in it too. */
async function settingsWith(folders: Array<Record<string, unknown>>): Promise<string> {
  const dir = await socketDir();
  await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ folders }));
  return dir;
}

describe('credentials folders are never published as a folder', () => {
  let home: string;

  beforeAll(async () => {
    home = await makeTree({
      '.ssh/id_ed25519': 'PRIVATE KEY',
      '.ssh/authorized_keys': 'ssh-ed25519 AAAA',
      '.aws/credentials': '[default]\naws_secret_access_key = SECRET',
      '.aws/sso/cache/token.json': '{"accessToken":"T"}',
      '.kube/config': 'token: K',
      '.config/gcloud/credentials.db': 'G',
      'notes/a.md': 'hello',
    });
    await symlink(path.join(home, '.aws'), path.join(home, 'aws-link'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('the command line refuses one, a folder inside one and a link to one, saying why (exit 2)', async () => {
    const dir = await socketDir();
    try {
      for (const [folder, named] of [
        ['.ssh', '.ssh'],
        ['aws-link', '.aws'],
        ['.aws/sso', '.aws'],
        ['.config/gcloud', '.config/gcloud'],
      ] as const) {
        const { code, stderr } = await runCli([
          'serve',
          '--socket',
          path.join(dir, 's.sock'),
          '--config-dir',
          dir,
          path.join(home, 'notes'),
          path.join(home, folder),
        ]);
        expect(code, folder).toBe(2);
        expect(stderr, folder).toContain(`Holds credentials (${named}): MCP Shelf never publishes .ssh, .aws`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the window refuses them; a folder saved in settings is shown with the reason and serves nothing', async () => {
    const dir = await settingsWith([{ path: path.join(home, '.kube') }, { path: path.join(home, 'notes') }]);
    const shelf = await startShelf([], ['--ui'], { socketPath: path.join(dir, 's.sock') });
    const api = await connectWebApi(shelf);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      const added = await api.call('addFolders', [path.join(home, '.ssh'), path.join(home, 'aws-link'), path.join(home, '.config', 'gcloud')]);
      expect(added.added).toEqual([]);
      expect(added.refused.map((r) => r.reason)).toEqual([
        expect.stringContaining('Holds credentials (.ssh)'),
        expect.stringContaining('Holds credentials (.aws)'),
        expect.stringContaining('Holds credentials (.config/gcloud)'),
      ]);
      const kube = (await api.call('listFolders')).find((f) => f.path === path.join(home, '.kube'));
      expect(kube).toMatchObject({ state: 'error', error: expect.stringContaining('Holds credentials (.kube)'), fileCount: 0 });
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      expect(listed).toEqual([uriOf(home, 'notes/a.md')]);
      const read = await client.readResource({ uri: uriOf(home, '.kube/config') }).catch((e: { code: number }) => e);
      expect(read).toMatchObject({ code: ErrorCodes.resourceNotFound });
    } finally {
      await client.close();
      await api.close();
      await shelf.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('folders do not overlap, by where they really are', () => {
  let tree: string;
  const docs = () => path.join(tree, 'docs');
  const privateDir = () => path.join(tree, 'docs', 'private');
  const link = () => path.join(tree, 'docs-link');

  beforeAll(async () => {
    tree = await makeTree({ 'docs/private/secret.md': 'the zebra password', 'docs/public.md': 'hello' });
  });
  afterAll(async () => {
    await rm(tree, { recursive: true, force: true });
  });

  it('the window refuses a link to the parent of an ask-before-read folder', async () => {
    await rm(link(), { force: true });
    await symlink(docs(), link());
    const shelf = await startShelf([], ['--ui']);
    const api = await connectWebApi(shelf);
    try {
      expect((await api.call('addFolders', [privateDir()])).added).toEqual([privateDir()]);
      await api.call('setFolderOptions', privateDir(), { askBeforeRead: true });
      const result = await api.call('addFolders', [link()]);
      expect(result.added).toEqual([]);
      expect(result.refused).toEqual([{ path: link(), reason: `Holds ${privateDir()}, which is published on its own: remove that one first` }]);
      // And the other way round: a link into a published folder.
      await rm(link());
      await symlink(path.join(privateDir()), link());
      expect((await api.call('addFolders', [link()])).refused).toEqual([{ path: link(), reason: `Already published as ${privateDir()} (the same folder)` }]);
    } finally {
      await api.close();
      await shelf.stop();
      await rm(link(), { force: true });
    }
  });

  it('the command line refuses two folders that overlap (exit 2)', async () => {
    await symlink(docs(), link());
    const dir = await socketDir();
    try {
      const { code, stderr } = await runCli(['serve', '--socket', path.join(dir, 's.sock'), '--config-dir', dir, privateDir(), link()]);
      expect(code).toBe(2);
      expect(stderr).toContain(`${link()} and ${privateDir()} overlap (one holds the other)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(link(), { force: true });
    }
  });

  it('a settings file cannot publish them both: the later one says why, and search keeps the asking folder’s text out', async () => {
    await symlink(docs(), link());
    const dir = await settingsWith([{ path: privateDir(), askBeforeRead: true }, { path: link() }]);
    const shelf = await startShelf([], [], { socketPath: path.join(dir, 's.sock') });
    const client = await connectSdkClient(shelf.socketPath);
    try {
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      expect(listed).toEqual([uriOf(tree, 'docs/private/secret.md')]);
      const search = async () =>
        (await client.callTool({ name: 'search_resources', arguments: { query: 'zebra' } })).structuredContent as { results: unknown[]; indexing: boolean };
      await eventually(async () => !(await search()).indexing, 10_000, 'the index');
      expect((await search()).results).toEqual([]);
      const read = await client.readResource({ uri: uriOf(tree, 'docs/private/secret.md') }).catch((e: { code: number; data: { reason: string } }) => e);
      expect(read).toMatchObject({ code: ErrorCodes.readNotAllowed, data: { reason: 'no-window' } });
    } finally {
      await client.close();
      await shelf.stop();
      await rm(dir, { recursive: true, force: true });
      await rm(link(), { force: true });
    }
  });

  it('a saved folder that comes back as a link to the parent: its reads of the asking folder’s files still ask, and search leaves it out', async () => {
    // Saved first, missing at start (the link is made later), so it is not judged against the other until it appears.
    const dir = await settingsWith([{ path: link() }, { path: privateDir(), askBeforeRead: true }]);
    const shelf = await startShelf([], ['--ui'], { socketPath: path.join(dir, 's.sock') });
    const api = await connectWebApi(shelf);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      await symlink(docs(), link());
      await eventually(
        async () => (await api.call('listFolders')).find((f) => f.path === link() && f.state === 'watching'),
        10_000,
        'the link folder to come back',
      );
      await api.call('updateSettings', { askTimeoutSeconds: 30 });
      const read = client.readResource({ uri: uriOf(tree, 'docs/private/secret.md') }).catch((e: { code: number; data: { reason: string } }) => e);
      const ask = await eventually(async () => (await api.call('pendingAsks'))[0], 5000, 'an ask');
      expect(ask).toMatchObject({ folder: privateDir(), path: 'secret.md' });
      await api.call('answerAsk', ask.id, 'deny');
      expect(await read).toMatchObject({ code: ErrorCodes.readNotAllowed, data: { reason: 'denied' } });
      // The public file is read through the link folder without asking.
      expect((await client.readResource({ uri: uriOf(tree, 'docs/public.md') })).contents[0]).toMatchObject({ text: 'hello' });
      const search = async () =>
        (await client.callTool({ name: 'search_resources', arguments: { query: 'zebra' } })).structuredContent as {
          results: unknown[];
          notSearched: string[];
          indexing: boolean;
        };
      await eventually(async () => !(await search()).indexing, 10_000, 'the index');
      const found = await search();
      expect(found.results).toEqual([]);
      expect(found.notSearched.sort()).toEqual([link(), privateDir()].sort());
    } finally {
      await client.close();
      await api.close();
      await shelf.stop();
      await rm(dir, { recursive: true, force: true });
      await rm(link(), { force: true });
    }
  });
});
