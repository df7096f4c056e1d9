import { rm } from 'node:fs/promises';
import path from 'node:path';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, test } from './shelfFixture.js';

/** The History tab's footer: its count follows the rows, its buttons stay on one line. */

let dir: string;
test.beforeEach(async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 8; i++) files[`note-${i}.md`] = `# Note ${i}\n`;
  dir = await makeTree(files, 'e2e-history-');
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the count of entries kept follows the newest row as reads come in', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, dir);
  await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(dir) })).toContainText('8 files');
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-empty')).toBeVisible();
  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  try {
    for (let i = 0; i < 8; i++) {
      await client.readResource({ uri: uriOf(dir, `note-${i}.md`) });
      await expect(page.getByTestId('history-row')).toHaveCount(i + 1);
      // The page that brought the row brought the count: no later page comes to correct a count that lags.
      await expect(page.getByTestId('history-total')).toContainText(`${i + 1} ${i === 0 ? 'entry' : 'entries'} kept`);
    }
  } finally {
    await client.close();
  }
});

test('the footer’s buttons stay on one line at 800×600', async ({ page, shelf }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(shelf.url);
  await publishByPath(page, dir);
  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  try {
    await client.readResource({ uri: uriOf(dir, 'note-0.md') });
  } finally {
    await client.close();
  }
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  const foot = page.locator('.history-foot');
  const tops = await foot.getByRole('button').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
  expect(tops).toHaveLength(4);
  expect(new Set(tops).size).toBe(1);
  // Each button's label on one line, and the footer inside the window.
  for (const b of await foot.getByRole('button').all()) expect((await b.boundingBox())?.height).toBeLessThan(32);
  const box = await foot.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(800);
});
