import { rm } from 'node:fs/promises';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Settings is a modal: the keyboard stays inside it, Escape closes it from anywhere inside, Cancel and Apply are always in view. */

let root: string;
test.beforeEach(async () => {
  root = await makeTree({ 'a.md': '# A\n' }, 'e2e-settings-focus-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('focus stays in Settings for 40 Tabs (and Shift+Tabs), Escape closes it, Cancel and Apply stay in view', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root); // a sidebar with controls behind the sheet
  await expect(page.getByTestId('folder-card')).toBeVisible();
  for (const size of [
    { width: 1440, height: 900 },
    { width: 800, height: 600 },
  ]) {
    await page.setViewportSize(size);
    await page.getByTestId('open-settings').click();
    const sheet = page.getByTestId('settings-sheet');
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('button', { name: 'Apply' })).toBeInViewport({ ratio: 1 });
    await expect(sheet.getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press(key);
        expect(await sheet.evaluate((el) => el.contains(document.activeElement)), `${key} #${i + 1} at ${size.width}×${size.height}`).toBe(true);
        // Wherever the focus went in the sheet, its footer is still in view.
        await expect(sheet.getByRole('button', { name: 'Apply' })).toBeInViewport({ ratio: 1 });
      }
    }
    if (size.width === 800) await shoot(page, '40-settings-sticky-footer');
    await page.keyboard.press('Escape');
    await expect(sheet).toHaveCount(0);
  }
});
