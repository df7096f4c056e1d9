import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** What the window says when a folder may not be published: a credentials folder, or one that overlaps another by where it really is. */

let home: string;

test.beforeEach(async () => {
  home = await makeTree({ '.ssh/id_ed25519': 'KEY', 'docs/private/secret.md': 'zebra', 'docs/public.md': 'hello' }, 'e2e-trust-');
  await symlink(path.join(home, 'docs'), path.join(home, 'docs-link'));
});
test.afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

test('a credentials folder and a link around a published folder are refused, saying why; a saved one shows the reason on its card', async ({
  page,
  startShelf,
}) => {
  const config = await mkdtemp(path.join(os.tmpdir(), 'e2e-trust-config-'));
  await writeFile(path.join(config, 'settings.json'), JSON.stringify({ folders: [{ path: path.join(home, '.ssh') }] }));
  try {
    const shelf = await startShelf(['--config-dir', config]);
    await page.goto(shelf.url);
    const card = page.getByTestId('folder-card').filter({ hasText: '.ssh' });
    await expect(card).toContainText('Holds credentials (.ssh)');
    await publishByPath(page, path.join(home, 'docs', 'private'));
    await expect(page.getByTestId('folder-card')).toHaveCount(2);
    await publishByPath(page, path.join(home, 'docs-link'));
    await expect(page.getByTestId('path-problem')).toContainText(`Holds ${path.join(home, 'docs', 'private')}, which is published on its own`);
    await expect(page.getByTestId('folder-card')).toHaveCount(2);
    await shoot(page, '12-folder-refused');
  } finally {
    await rm(config, { recursive: true, force: true });
  }
});
