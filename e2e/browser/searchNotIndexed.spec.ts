import { rm } from 'node:fs/promises';

import { makeTree } from '../../test/support/fixtures.js';
import { seriousViolations } from './axeCheck.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Search says what is not in its index (a big log, a binary file), names them, and greps just those with one click. */

let root: string;
test.beforeEach(async () => {
  // A 3 MiB log (over the index's 2 MiB) whose one line with "zebrafish" is near its end.
  const filler = Array.from({ length: 40_000 }, (_, i) => `2026-12-01T10:00:${String(i % 60).padStart(2, '0')} GET /api/items/${i} status=200`).join('\n');
  root = await makeTree(
    {
      'notes/readme.md': '# Notes\n\nNothing about fish here.\n',
      'logs/server.log': `${filler}\n2026-12-01T11:00:00 GET /api/zebrafish status=500\n${filler.slice(0, 200_000)}\n`,
      'bin/blob.dat': new Uint8Array([0, 1, 2, 3, 0, 255, 254, 0, 0, 7]),
    },
    'e2e-not-indexed-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a word only a big log holds: the log is named as not searched, and one click greps it to the line', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await page.getByRole('tab', { name: 'Search' }).click();
  await expect(page.getByTestId('search-status')).toContainText('1 file indexed');
  await page.getByLabel('Search file contents').fill('zebrafish');
  await expect(page.getByTestId('search-empty')).toBeVisible();
  const left = page.getByTestId('not-indexed');
  await expect(left).toContainText('2 files are not in the search index');
  await expect(left).toContainText('1 over 2.0 MiB');
  await expect(left).toContainText('1 not text');
  await expect(left.getByRole('listitem').first()).toContainText('logs/server.log');
  await shoot(page, '40-search-not-indexed');

  await left.getByRole('button', { name: 'Grep these 2 for “zebrafish”' }).click();
  const line = page.getByTestId('grep-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('server.log');
  await expect(line).toContainText('40001');
  await expect(line.locator('mark')).toHaveText(['zebrafish']);
  await shoot(page, '40-search-grep-not-indexed');
  // axe: nothing critical or serious in the section and its grep lines, light and dark.
  expect(await seriousViolations(page, 'search, not indexed')).toEqual([]);
  // A new query forgets the old grep's lines.
  await page.getByLabel('Search file contents').fill('status=500');
  await expect(line).toHaveCount(0);
  await expect(left.getByRole('button', { name: 'Grep these 2 for “status=500”' })).toBeVisible();
});
