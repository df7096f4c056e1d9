import { rm } from 'node:fs/promises';

import { imageWithText, scannedPdf } from '../../test/support/documents.js';
import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** OCR in the window: a word only a picture holds is found by search and opens in the image's text; OCR turned off in the settings takes the text away. */

let root: string;

test.beforeEach(async () => {
  root = await makeTree(
    {
      'receipts/lighthouse.png': await imageWithText(['Receipt from the Lighthouse Cafe', 'Two pelican pies 12.50', 'Thank you for visiting']),
      'scans/letter.pdf': await scannedPdf(['Dear committee, the flamingo budget is approved']),
      'notes.md': '# Notes\n\nNothing about birds here.\n',
    },
    'e2e-ocr-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a word in an image is found, and opens in the image’s text; the settings turn OCR off', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByRole('tab', { name: 'Search' }).click();
  const box = page.getByLabel('Search file contents');
  await box.fill('pelican');
  await expect(page.getByTestId('search-hit')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('search-hit')).toContainText('lighthouse.png');
  await page.getByTestId('search-hit').click();
  await expect(page.getByTestId('resource-uri')).toContainText('lighthouse.png');
  await expect(page.getByTestId('text-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('code-view')).toContainText('recognised by OCR');
  await expect(page.getByTestId('code-view')).toContainText(/pelican/i);
  await shoot(page, '40-ocr-image-text');

  // The scan's words are searchable too.
  await page.getByRole('tab', { name: 'Search' }).click();
  await box.fill('flamingo');
  await expect(page.getByTestId('search-hit')).toContainText('letter.pdf', { timeout: 30_000 });

  // OCR off: images lose their Text switch.
  await page.getByTestId('open-settings').click();
  const sheet = page.getByTestId('settings-sheet');
  await expect(sheet.getByLabel(/Read the words in images/)).toBeChecked();
  await expect(sheet.getByLabel('Languages')).toHaveValue('eng');
  await sheet.getByLabel('Languages').focus();
  await shoot(page, '41-ocr-settings');
  await sheet.getByLabel(/Read the words in images/).uncheck();
  await sheet.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status')).toContainText('Settings saved');
  await page.getByRole('tab', { name: 'Preview' }).click();
  await expect(page.getByTestId('resource-uri')).toContainText('lighthouse.png');
  await expect(page.getByTestId('text-toggle')).toHaveCount(0);
});
