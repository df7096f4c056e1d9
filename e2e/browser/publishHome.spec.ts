import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { expect, shoot, test } from './shelfFixture.js';

/** Publishing the whole home folder (or one above it) takes a second, explicit yes. */

let home: string;
test.beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'e2e-home-'));
  await mkdir(path.join(home, 'Documents'), { recursive: true });
  await writeFile(path.join(home, 'Documents', 'letter.md'), '# Letter\n');
});
test.afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

test('~ asks first: Cancel publishes nothing, "Publish it anyway" publishes it; a folder inside home is not asked about', async ({ page, startShelf }) => {
  const shelf = await startShelf([], { HOME: home });
  await page.goto(shelf.url);
  const field = page.getByLabel('Folder path');
  await field.fill('~');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const ask = page.getByTestId('confirm-home');
  await expect(ask).toContainText('Publish your whole home folder?');
  await expect(ask).toContainText(home);
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await shoot(page, '40-confirm-home');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByTestId('folder-card')).toHaveCount(0);

  // A folder above home asks too (said as such).
  await field.fill(path.dirname(home));
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(ask).toContainText('Publish a folder that holds your whole home folder?');
  await field.fill('~/');
  await expect(ask).toHaveCount(0); // editing the path takes the question back
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await ask.getByRole('button', { name: 'Publish it anyway' }).click();
  await expect(page.getByTestId('folder-card')).toHaveCount(1);
  await expect(page.getByTestId('folder-card')).toContainText(path.basename(home));

  // A folder inside home is not asked about: it goes straight to the server (which says it is already published, inside home).
  await page.getByLabel('Folder path').fill('~/Documents');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('path-problem')).toBeVisible();
  await expect(ask).toHaveCount(0);
});
