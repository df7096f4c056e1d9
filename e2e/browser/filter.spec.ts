import { rm } from 'node:fs/promises';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Filtering by path: readable results (the name first, the folder after), marked matches, keyboard from the box, no empty folders. */

let root: string;
let other: string;
test.beforeEach(async () => {
  const files: Record<string, string> = {};
  for (let m = 0; m < 3; m++)
    for (let f = 0; f < 4; f++) files[`packages/pkg-07/src/components/module-0${m}/file-0${f}.ts`] = `export const x${m}${f} = ${f};\n`;
  root = await makeTree(files, 'e2e-filter-');
  other = await makeTree({ 'unrelated.txt': 'u' }, 'e2e-other-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(other, { recursive: true, force: true });
});

test('filter results show names with their folders, mark the match, and work from the keyboard', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  for (const [i, folder] of [root, other].entries()) {
    await publishByPath(page, folder);
    await expect(page.getByTestId('folder-card')).toHaveCount(i + 1);
  }
  await expect(page.getByTestId('folder-card')).toHaveCount(2);
  const box = page.getByLabel('Filter files');
  await box.fill('module-01 file-02');
  const rows = page.getByTestId('file-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('mark')).toHaveText('file-02');
  await expect(rows.first()).toContainText('packages/pkg-07/src/components/module-01');
  // The folder with no match is not shown.
  await expect(page.getByRole('treeitem', { name: /^e2e-other-/ })).toHaveCount(0);
  await box.press('Enter');
  await expect(page.getByTestId('resource-uri')).toHaveText(/module-01\/file-02\.ts$/);

  await shoot(page, '14-filter');
  await box.fill('file-03');
  await expect(rows).toHaveCount(3);
  await box.press('ArrowDown');
  await expect(page.getByRole('tree', { name: 'Files' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('resource-uri')).toHaveText(/module-01\/file-03\.ts$/);
});

test.describe('a big tree', () => {
  let big: string;
  test.beforeEach(async () => {
    // 50,000 files in 100 folders: filtering walks them all on each keystroke.
    const files: Record<string, string> = {};
    for (let d = 0; d < 100; d++)
      for (let f = 0; f < 500; f++) files[`dir-${String(d).padStart(3, '0')}/note-${String(d * 500 + f).padStart(5, '0')}.txt`] = 'x';
    big = await makeTree(files, 'e2e-big-');
  });
  test.afterEach(async () => {
    await rm(big, { recursive: true, force: true });
  });

  test('↓ pressed at once after typing in the filter goes into the results (it is not lost)', async ({ page, shelf }) => {
    await page.goto(shelf.url);
    await publishByPath(page, big);
    const box = page.getByLabel('Filter files');
    await expect(box).toHaveAttribute('placeholder', /50,000 files/);
    for (const typed of ['note-04321', 'note-00777']) {
      await box.fill('');
      await box.focus();
      // Typed key by key, ↓ straight after (no wait for the list): what a person does.
      await page.keyboard.type(typed);
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('tree', { name: 'Files' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('resource-uri')).toHaveText(new RegExp(`${typed}\\.txt$`));
    }
  });
});
