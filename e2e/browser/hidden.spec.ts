import { rm } from 'node:fs/promises';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** A folder says what its rules leave out, rule by rule, with examples. */

let root: string;
test.beforeEach(async () => {
  root = await makeTree(
    {
      '.gitignore': 'dist/\n*.log\n',
      'src/app.ts': 'x',
      'dist/bundle.js': 'x',
      'dist/bundle.js.map': 'x',
      'debug.log': 'x',
      'server.log': 'x',
      '.env': 'SECRET=1',
      '.vscode/settings.json': '{}',
      'keys/id_rsa': 'x',
    },
    'e2e-hidden-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('the folder card counts what is hidden and explains each rule', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  const card = page.getByTestId('folder-card');
  await expect(card).toContainText('1 file ·');
  await card.getByTestId('folder-disclosure').click();
  // dist/ (one folder), debug.log and server.log; .env and keys/id_rsa; .gitignore and .vscode/.
  await expect(card.getByTestId('hidden-count')).toHaveText('7 hidden');
  await card.getByTestId('hidden-count').click();
  const list = card.getByTestId('hidden-list');
  await expect(list).toContainText('.gitignore · 3');
  await expect(list).toContainText('dist/');
  await expect(list).toContainText('Secrets · 2');
  await expect(list).toContainText('never published');
  await expect(list).toContainText('Dotfiles · 2');
  await shoot(page, '16-hidden');
  // Publishing dotfiles moves them out of the list (secrets stay hidden).
  await card.getByRole('button', { name: /^Options of/ }).click();
  await page.getByLabel(/Publish dotfiles/).check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(card.getByTestId('hidden-count')).toHaveText('5 hidden');
});
