import { rm } from 'node:fs/promises';
import path from 'node:path';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, test } from './shelfFixture.js';

/** One convention for sizes in the window: binary units, named as such (KiB, MiB), as Settings edits them. */

let dir: string;
test.beforeEach(async () => {
  dir = await makeTree({ 'data.csv': 'a,b\n'.repeat(384_000) }, 'e2e-sizes-'); // 1,536,000 bytes: 1.5 MiB (1.536 MB)
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a file’s size reads the same in the folder row, the tree, the preview, History and Settings', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, dir);
  const row = page.getByTestId('folder-card').filter({ hasText: path.basename(dir) });
  await expect(row).toContainText('1.5 MiB');
  const file = page.getByTestId('file-row').filter({ hasText: 'data.csv' });
  await expect(file).toContainText('1.5 MiB');
  await file.click();
  await expect(page.locator('.preview-title')).toContainText('1.5 MiB');
  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  try {
    await client.readResource({ uri: uriOf(dir, 'data.csv') });
  } finally {
    await client.close();
  }
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-row')).toContainText('1.5 MiB');
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('settings-sheet')).toContainText('MiB');
  // No other spelling anywhere in the window: no "MB", "KB", "kB".
  for (const tab of ['History', 'Preview']) {
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: tab }).click();
    expect(await page.locator('body').innerText()).not.toMatch(/\d\s?(KB|kB|MB|GB)\b/);
  }
});
