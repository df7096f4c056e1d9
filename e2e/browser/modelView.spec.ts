import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';

import type { Page } from '@playwright/test';
import sharp from 'sharp';

import { pdfWithText } from '../../test/support/documents.js';
import { makeTree } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** The preview's "Model gets": what the read_resource tool gives a model, page by page, beside what a client gets. */

let root: string;

test.beforeEach(async () => {
  const log = Array.from({ length: 30_000 }, (_, i) => `12:00:${String(i % 60).padStart(2, '0')} INFO request ${i + 1} served in ${i % 250} ms`).join('\n');
  const gradient = Buffer.alloc(3000 * 2000 * 3);
  for (let i = 0; i < gradient.length; i += 3) {
    const x = (i / 3) % 3000;
    gradient[i] = (x * 255) / 3000;
    gradient[i + 1] = 120;
    gradient[i + 2] = 255 - (x * 255) / 3000;
  }
  root = await makeTree(
    {
      'logs/server.log': `${log}\n`,
      'photo.png': await sharp(gradient, { raw: { width: 3000, height: 2000, channels: 3 } })
        .png()
        .toBuffer(),
      'report.pdf': await pdfWithText(['Quarterly report', 'Revenue grew by a tenth']),
      'firmware.bin': randomBytes(64 * 1024),
    },
    'e2e-model-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function open(page: Page, name: string): Promise<void> {
  await page.getByTestId('file-row').filter({ hasText: name }).click();
}

test('the preview shows what a model gets: a page of a log with its note and the next page, an image made fit, a PDF as text, a binary described', async ({
  page,
  shelf,
}) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await page.getByRole('treeitem', { name: /^logs/ }).click();
  await open(page, 'server.log');
  await page.getByTestId('model-toggle').click();
  const detail = page.getByTestId('model-detail');
  await expect(detail).toHaveText(/^lines 1–\d{1,3}(,\d{3})* of 30,000$/);
  await expect(page.getByTestId('model-note')).toContainText('To read on, call read_resource with offset');
  await shoot(page, '18-model-log');
  const first = await detail.textContent();
  await page.getByTestId('model-next').click();
  await expect(detail).not.toHaveText(first ?? '');
  await expect(detail).toHaveText(/^lines \d{1,3}(,\d{3})*–\d{1,3}(,\d{3})* of 30,000$/);
  // As Claude Code would get it: a smaller page (its tool output stops at 25,000 tokens).
  await page.getByRole('button', { name: 'First page' }).click();
  const anyClient = Number((await detail.textContent())?.match(/–([\d,]+)/)?.[1]?.replace(/,/g, ''));
  await page.getByLabel('As which client').selectOption({ label: 'Claude Code' });
  await expect(detail).not.toHaveText(first ?? '');
  const claudeCode = Number((await detail.textContent())?.match(/–([\d,]+)/)?.[1]?.replace(/,/g, ''));
  expect(claudeCode).toBeLessThan(anyClient);
  await page.getByLabel('As which client').selectOption({ label: 'any client' });

  // The choice stays from file to file: the image, as the model sees it.
  await open(page, 'photo.png');
  await expect(page.getByTestId('model-image')).toBeVisible();
  // The image's own note first (a second may say where its OCR text will be: an image never waits for it).
  await expect(page.getByTestId('model-note').first()).toHaveText(/^photo\.png: PNG, 3000×2000 px, .*; shown at 1313×875 as (JPEG|PNG)/);
  await expect(detail).toHaveText(/^image 1313×875/);
  await shoot(page, '19-model-image');

  await open(page, 'report.pdf');
  await expect(page.getByTestId('code-view')).toContainText('Revenue grew by a tenth');
  await expect(page.getByTestId('model-note')).toContainText('Text extracted from report.pdf (PDF, 2 page(s)');

  await open(page, 'firmware.bin');
  await expect(page.getByTestId('model-note')).toHaveCount(0);
  await expect(page.getByTestId('model-view')).toContainText('firmware.bin: application/octet-stream, 64 KB');
  await expect(page.getByTestId('model-link')).toContainText('resource link');
  // Raw: the tool result itself.
  await page.getByTestId('raw-toggle').click();
  await expect(page.getByTestId('code-view')).toContainText('"type": "resource_link"');
  await page.getByRole('button', { name: 'Preview' }).click();
  // Back to what a client gets: the bytes, as hex.
  await page.getByRole('button', { name: 'Client gets' }).click();
  await expect(page.getByTestId('hex-view')).toBeVisible();
});

test('the traffic log and the history say which part of a file a tool read gave', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  const client = await connectSdkClient(shelf.socketPath, 'claude-code');
  try {
    await client.callTool({ name: 'read_resource', arguments: { uri: `file://${root}/logs/server.log`, offset: -20 } });
    await client.callTool({ name: 'read_resource', arguments: { uri: `file://${root}/photo.png` } });
  } finally {
    await client.close();
  }
  // The traffic log names the part asked for and what the answer gave.
  await page.getByRole('tab', { name: /Traffic/ }).click();
  await expect(page.getByTestId('traffic-target').filter({ hasText: 'server.log offset -20' })).toContainText('→ lines 29,981–30,000 of 30,000');
  await expect(page.getByTestId('traffic-target').filter({ hasText: 'photo.png' })).toContainText('→ image 1313×875');
  await shoot(page, '29-traffic-detail');
  await page.getByRole('tab', { name: /History/ }).click();
  await expect(page.getByTestId('history-row')).toHaveCount(2);
  await expect(page.getByTestId('history-detail')).toHaveText([/^image 1313×875 \w+ \(from 3000×2000 PNG\)$/, 'lines 29,981–30,000 of 30,000']);
  await shoot(page, '20-history-detail');
});
