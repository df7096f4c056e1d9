import { rm } from 'node:fs/promises';
import path from 'node:path';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Issue 26: one-line folder rows that open for details, options in a dialog, the tree gets the height; one source for counts. */

const roots: string[] = [];

test.beforeEach(async () => {
  const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`notes/note-${String(i).padStart(2, '0')}.md`, `# Note ${i}\n`]));
  roots.push(
    await makeTree(many, 'e2e-side-a-'),
    await makeTree({ 'one.txt': '1' }, 'e2e-side-b-'),
    await makeTree({ 'x.txt': 'x', 'y.txt': 'y' }, 'e2e-side-c-'),
  );
});
test.afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

test('three folders take three short rows; the tree gets the height; options open in a dialog with Apply in view', async ({ page, shelf }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(shelf.url);
  for (const r of roots) {
    await publishByPath(page, r);
    await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(r) })).toContainText('Watching');
  }
  const list = page.getByRole('list', { name: 'Published folders' });
  const listBox = await list.boundingBox();
  // Was 420 of 756 px for three cards.
  expect(listBox?.height ?? 999).toBeLessThan(130);
  const tree = page.getByRole('tree');
  expect((await tree.boundingBox())?.height ?? 0).toBeGreaterThan(450);

  // Counts: one file is "1 file"; the top bar says what the rows say.
  await expect(
    page
      .getByTestId('folder-card')
      .filter({ hasText: path.basename(roots[1] as string) })
      .getByTestId('folder-count'),
  ).toHaveText('1 file · 1 B');
  await expect(page.getByTestId('topbar-status')).toContainText('Serving 43 files');

  // Options: a dialog over the window, its Apply and Cancel on screen even at 800×600.
  await page.setViewportSize({ width: 800, height: 600 });
  await page.getByRole('button', { name: `Options of ${path.basename(roots[0] as string)}` }).click();
  const dialog = page.getByRole('dialog', { name: `Options of ${path.basename(roots[0] as string)}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Apply' })).toBeInViewport();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport();
  await shoot(page, '26-folder-options');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A folder turned off says so, not "0 files 0 B", and the top bar's count follows.
  // The switch follows the server's answer, so it is clicked and then looked at.
  await page.getByRole('switch', { name: `Publish ${path.basename(roots[2] as string)}` }).click();
  await expect(page.getByRole('switch', { name: `Publish ${path.basename(roots[2] as string)}` })).not.toBeChecked();
  const off = page.getByTestId('folder-card').filter({ hasText: path.basename(roots[2] as string) });
  await expect(off.getByTestId('folder-count')).toHaveText('off');
  await expect(page.getByTestId('topbar-status')).toContainText('Serving 41 files');
  await shoot(page, '26-sidebar');

  // A row opens for its path, what is hidden, and Remove.
  await off.getByTestId('folder-disclosure').click();
  await expect(off.getByTestId('folder-disclosure')).toHaveAttribute('aria-expanded', 'true');
  await expect(off).toContainText(roots[2] as string);
  await expect(page.getByRole('button', { name: `Remove ${path.basename(roots[2] as string)}` })).toBeVisible();
});

test('the path field says what is wrong at the field: a relative path is refused (not taken from the server’s folder), no "Publishing…" notice covers the tree', async ({
  page,
  shelf,
}) => {
  await page.goto(shelf.url);
  await publishByPath(page, 'notes');
  await expect(page.getByTestId('path-problem')).toHaveText('Not a full path: give one that starts with / or ~ (your home folder).');
  await expect(page.getByLabel('Folder path')).toHaveAttribute('aria-invalid', 'true');
  // The server refuses it too, whatever the page sends.
  await page.getByLabel('Folder path').fill(roots[1] as string);
  await expect(page.getByTestId('path-problem')).toHaveCount(0);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('folder-card')).toHaveCount(1);
  await expect(page.locator('.toast')).toHaveCount(0);
  await shoot(page, '26-path-problem-cleared');
});
