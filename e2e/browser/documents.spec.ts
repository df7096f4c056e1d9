import { rm } from 'node:fs/promises';

import { docx, pdfWithText, xlsx } from '../../test/support/documents.js';
import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Issue 26: documents open on their text, and the preview's header says what is shown (facts, not button-like chips). */

let root: string;

test.beforeEach(async () => {
  root = await makeTree(
    {
      'minutes.docx': await docx(['Committee minutes', 'The otter sanctuary budget was approved.']),
      'budget.xlsx': await xlsx([
        {
          name: 'Costs',
          rows: [
            ['item', 'cost'],
            ['boats', 1200],
          ],
        },
      ]),
      'survey.pdf': await pdfWithText(['Survey of the northern lakes']),
    },
    'e2e-docs-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('an Office document opens on its text, the header describes the text, and the view switches fit at 800×600', async ({ page, shelf }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByTestId('file-row').filter({ hasText: 'minutes.docx' }).click();
  await expect(page.getByTestId('code-view')).toContainText('The otter sanctuary budget was approved.');
  await expect(page.getByTestId('text-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('resource-uri')).toHaveText(/minutes\.docx\?as=text$/);
  await expect(page.getByTestId('preview-facts')).toContainText('text/plain · extracted text');
  await expect(page.getByTestId('preview-facts')).not.toContainText('base64');
  // Nothing in the header looks like a button without being one.
  await expect(page.locator('.preview-head .chip')).toHaveCount(0);
  // Every switch is inside the window, none cut off its right edge.
  for (const name of ['text-toggle', 'file-toggle', 'raw-toggle']) {
    const box = await page.getByTestId(name).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(800);
  }
  await shoot(page, '26-docx-text');

  // The file itself, described as what it is.
  await page.getByTestId('file-toggle').click();
  await expect(page.getByTestId('resource-uri')).toHaveText(/minutes\.docx$/);
  await expect(page.getByTestId('preview-facts')).toContainText('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  await expect(page.getByTestId('preview-facts')).toContainText('sent as base64');

  await page.getByTestId('file-row').filter({ hasText: 'budget.xlsx' }).click();
  await expect(page.getByTestId('code-view')).toContainText('boats');

  // A PDF keeps its rendered view first; its text is one click away.
  await page.getByTestId('file-row').filter({ hasText: 'survey.pdf' }).click();
  await expect(page.getByTestId('pdf-view')).toBeVisible();
  await page.getByTestId('text-toggle').click();
  await expect(page.getByTestId('code-view')).toContainText('Survey of the northern lakes');
});

test('a PDF opens in the browser’s viewer under its own name, not a random id', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByTestId('file-row').filter({ hasText: 'survey.pdf' }).click();
  await expect(page.getByTestId('pdf-view')).toHaveAttribute('data', /^\/file\/[A-Za-z0-9_-]{22}\/survey\.pdf$/);
  // Chromium's viewer is an extension frame inside the <object>; its title is what a person sees and saves as.
  const viewerTitle = async () => {
    const viewer = page.frames().find((f) => f.url().startsWith('chrome-extension://'));
    return viewer ? await viewer.title() : null;
  };
  await expect.poll(viewerTitle).toBe('survey.pdf');
  await shoot(page, '26-pdf-viewer');
});
