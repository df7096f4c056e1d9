import { chmod, mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { addFiles, fingerprint, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, startShelf, UNPRIVILEGED } from '../support/shelfProcess.js';

const SECRETS = {
  '.env': 'TOKEN=1',
  '.env.production': 'TOKEN=2',
  'config/.env.local': 'TOKEN=3',
  '.git/config': '[core]',
  'node_modules/pkg/index.js': 'module.exports = 1',
  id_rsa: 'PRIVATE',
  'keys/id_ed25519': 'PRIVATE',
  'certs/server.pem': 'PEM',
  'certs/server.key': 'KEY',
  '.ssh/config': 'Host *',
  '.aws/credentials': '[default]',
  '.npmrc': '//registry/:_authToken=x',
  '.netrc': 'machine x',
};

describe('safety: only published files, whatever the client sends', () => {
  let base: string;
  let docs: string;
  let shelf: ShelfProcess;
  let hiddenShelf: ShelfProcess;
  let raw: RawClient;
  let rawHidden: RawClient;
  let before: string;

  const read = (c: RawClient, uri: string) => c.request('resources/read', { uri });
  const listNames = async (c: RawClient) => {
    const res = await c.request('resources/list');
    return (res.result as { resources: Array<{ name: string }> }).resources.map((r) => r.name).sort();
  };

  beforeAll(async () => {
    base = await makeTree({
      'docs/ok.txt': 'ok',
      'docs/.prettierrc': '{}',
      'docs/.gitignore': 'build/\n*.log\n',
      'docs/build/out.js': 'built',
      'docs/debug.log': 'log',
      'docs/sub/.gitignore': 'local.txt\n',
      'docs/sub/local.txt': 'ignored by nested gitignore',
      'docs/sub/kept.txt': 'kept',
      'docs_evil/secret.txt': 'sibling with a prefix name',
      'docs /secret.txt': 'sibling with a trailing space',
      'docs"/secret.txt': 'sibling with a trailing quote',
      'outside.txt': 'outside',
      'outside-dir/x.txt': 'outside dir',
      ...Object.fromEntries(Object.entries(SECRETS).map(([k, v]) => [`docs/${k}`, v])),
    });
    docs = path.join(base, 'docs');
    await symlink(path.join(base, 'outside.txt'), path.join(docs, 'link-out.txt'));
    await symlink(path.join(base, 'outside-dir'), path.join(docs, 'linked-dir'));
    await symlink(path.join(docs, 'link-out.txt'), path.join(docs, 'chain.txt')); // a chain ending outside
    await symlink(path.join(docs, 'ok.txt'), path.join(docs, 'link-in.txt'));
    await symlink(path.join(docs, '.env'), path.join(docs, 'innocent.txt')); // inside, but to a secret
    await addFiles(docs, { 'locked.txt': 'no access' });
    await chmod(path.join(docs, 'locked.txt'), 0o000);
    await mkdir(path.join(docs, 'empty-dir'));
    if (UNPRIVILEGED) await chmod(base, 0o755); // so `nobody` can enter the fixture
    before = await fingerprint(base);
    // Both at once: each start may take up to a minute on a busy machine, and the hook's deadline held two in a row.
    [shelf, hiddenShelf] = await Promise.all([startShelf([docs], [], { unprivileged: true }), startShelf([docs], ['--show-hidden', '--no-gitignore'])]);
    raw = await RawClient.initialized(shelf.socketPath);
    rawHidden = await RawClient.initialized(hiddenShelf.socketPath);
  }, 120_000);

  afterAll(async () => {
    raw?.close();
    rawHidden?.close();
    await shelf?.stop();
    await hiddenShelf?.stop();
    await rm(base, { recursive: true, force: true });
  });

  it('lists only regular files inside the folder, minus secrets, dotfiles and ignored files', async () => {
    // locked.txt is listed (its folder is readable) but cannot be read: see the 1003 test.
    expect(await listNames(raw)).toEqual(['link-in.txt', 'locked.txt', 'ok.txt', 'sub/kept.txt']);
  });

  it('with --show-hidden --no-gitignore, dotfiles and ignored files come back but never secrets', async () => {
    const names = await listNames(rawHidden);
    for (const n of ['.prettierrc', '.gitignore', 'build/out.js', 'debug.log', 'sub/local.txt', 'sub/.gitignore']) expect(names).toContain(n);
    for (const secret of Object.keys(SECRETS)) expect(names).not.toContain(secret);
    expect(names).not.toContain('innocent.txt');
  });

  it.each([
    ['a secret', (d: string) => uriOf(d, '.env')],
    ['a nested secret', (d: string) => uriOf(d, 'config/.env.local')],
    ['a private key', (d: string) => uriOf(d, 'id_rsa')],
    ['a .git file', (d: string) => uriOf(d, '.git/config')],
    ['node_modules', (d: string) => uriOf(d, 'node_modules/pkg/index.js')],
    ['.ssh', (d: string) => uriOf(d, '.ssh/config')],
    ['a dotfile', (d: string) => uriOf(d, '.prettierrc')],
    ['a gitignored file', (d: string) => uriOf(d, 'debug.log')],
    ['a file in a gitignored folder', (d: string) => uriOf(d, 'build/out.js')],
    ['a nested-gitignore file', (d: string) => uriOf(d, 'sub/local.txt')],
    ['dot-dot', (d: string) => `${uriOf(d, '')}/../outside.txt`],
    ['encoded dot-dot', (d: string) => `${uriOf(d, '')}/%2e%2e/outside.txt`],
    ['dot-dot with encoded slash', (d: string) => `${uriOf(d, '')}/..%2Foutside.txt`],
    ['a prefix sibling', (d: string) => uriOf(`${d}_evil`, 'secret.txt')],
    ['a trailing-space sibling', (d: string) => uriOf(`${d} `, 'secret.txt')],
    ['a trailing-quote sibling', (d: string) => uriOf(`${d}"`, 'secret.txt')],
    ['a NUL byte', (d: string) => `${uriOf(d, 'ok.txt')}%00.md`],
    ['a symlink out of the folder', (d: string) => uriOf(d, 'link-out.txt')],
    ['a symlink chain out of the folder', (d: string) => uriOf(d, 'chain.txt')],
    ['a symlinked folder pointing out', (d: string) => uriOf(d, 'linked-dir/x.txt')],
    ['a symlink to a secret', (d: string) => uriOf(d, 'innocent.txt')],
    ['a folder', (d: string) => uriOf(d, 'sub')],
    ['the folder itself', (d: string) => uriOf(d, '')],
    ['a file outside', (d: string) => uriOf(path.dirname(d), 'outside.txt')],
    ['/etc/passwd', () => 'file:///etc/passwd'],
  ])('refuses %s with -32602 and data.uri', async (_name, make) => {
    const uri = make(docs);
    const res = await read(raw, uri);
    expect(res.error).toEqual({ code: -32602, message: 'Resource not found', data: { uri } });
  });

  it('answers an absent file exactly like a forbidden one', async () => {
    const absent = await read(raw, uriOf(docs, 'no-such-file.txt'));
    const forbidden = await read(raw, uriOf(docs, '.env'));
    expect({ ...absent.error, data: null }).toEqual({ ...forbidden.error, data: null });
  });

  it('reads a symlink that stays inside the folder', async () => {
    const res = await read(raw, uriOf(docs, 'link-in.txt'));
    expect(res.result).toEqual({ contents: [{ uri: uriOf(docs, 'link-in.txt'), mimeType: 'text/plain', text: 'ok' }] });
  });

  it('answers 1003 for a listed file it may not read', async () => {
    const uri = uriOf(docs, 'locked.txt');
    expect((await read(raw, uri)).error).toEqual({ code: 1003, message: 'Permission denied', data: { uri } });
  });

  it('gives no method that writes, moves or deletes, and the tree is untouched', async () => {
    for (const method of ['resources/write', 'resources/delete', 'files/write', 'prompts/get']) {
      const res = await raw.request(method, { uri: uriOf(docs, 'ok.txt'), text: 'pwned' });
      expect(res.error?.code).toBe(-32601);
    }
    // The tools are read-only mirrors: no tool writes, and no argument makes one write.
    const tools = (await raw.request('tools/list')).result as { tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> };
    expect(tools.tools.map((t) => t.name).sort()).toEqual([
      'browse_shelf',
      'grep_resources',
      'list_directory',
      'list_resources',
      'read_resource',
      'search_resources',
    ]);
    expect(tools.tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const unknownTool = await raw.request('tools/call', { name: 'write_file', arguments: { path: 'ok.txt', content: 'pwned' } });
    expect(unknownTool.error?.code).toBe(-32602);
    expect(await fingerprint(base)).toBe(before);
  });
});
