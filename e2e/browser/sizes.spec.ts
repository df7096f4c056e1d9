import { mkdir, rm, writeFile } from 'node:fs/promises';
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
  // Shown whole in the smallest window, not cut to "1.5 M…".
  await page.setViewportSize({ width: 800, height: 600 });
  const sizeCell = page.getByTestId('history-row').locator('td.num');
  await expect(sizeCell).toHaveText('1.5 MiB');
  expect(await sizeCell.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('settings-sheet')).toContainText('MiB');
  // No other spelling anywhere in the window: no "MB", "KB", "kB".
  for (const tab of ['History', 'Preview']) {
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: tab }).click();
    expect(await page.locator('body').innerText()).not.toMatch(/\d\s?(KB|kB|MB|GB)\b/);
  }
});

/**
 * Issue 26, "counts drift": a big folder is listed first and its files'
 * sizes read after, so its total climbs for a moment. The row shows no total
 * until it is final (then the whole one), on publishing and on turning it
 * back on; every text the row ever showed is recorded and checked.
 */
test('a big folder’s row shows its size only once every file’s size is read, also after turning it back on', async ({ page, shelf }) => {
  test.slow(); // 30,000 files written, indexed twice
  const big = await makeTree({}, 'e2e-sizing-');
  try {
    for (let d = 0; d < 60; d++) {
      await mkdir(path.join(big, `d${d}`));
      await Promise.all(Array.from({ length: 500 }, (_, f) => writeFile(path.join(big, `d${d}`, `f${f}.txt`), 'abc')));
    }
    const final = '30,000 files · 88 KiB'; // 90,000 bytes
    await page.goto(shelf.url);
    await page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { rowTexts: Set<string> }).rowTexts = seen;
      const note = () => document.querySelectorAll('[data-testid=folder-count]').forEach((e) => seen.add((e as HTMLElement).innerText.replace(/\s+/g, ' ')));
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await publishByPath(page, big);
    const count = page.getByTestId('folder-count');
    await expect(count).toHaveText(final);
    const toggle = page.getByRole('switch', { name: `Publish ${path.basename(big)}` });
    await toggle.click();
    await expect(count).toHaveText('off');
    await toggle.click();
    await expect(count).toHaveText(final);
    const seen = await page.evaluate(() => [...(window as unknown as { rowTexts: Set<string> }).rowTexts]);
    expect(seen.filter((t) => t !== final && t !== 'off' && !t.includes('counting…'))).toEqual([]);
  } finally {
    await rm(big, { recursive: true, force: true });
  }
});
