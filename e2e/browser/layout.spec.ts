import { rm } from 'node:fs/promises';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, snap, test } from './shelfFixture.js';

/** The layout from 800×600 up: nothing overflows sideways; the sidebar resizes, collapses (button, Ctrl+B) and keeps its width. */

let root: string;
test.beforeEach(async () => {
  root = await makeTree(
    { 'src/a-rather-long-file-name-for-a-narrow-window.ts': `export const line = '${'x'.repeat(300)}';\n`, 'notes.md': '# Notes\n' },
    'e2e-layout-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const overflow = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('at 800×600 no view overflows sideways; the sidebar collapses and comes back', async ({ page, shelf }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByRole('treeitem', { name: /^src/ }).click();
  await page.getByTestId('file-row').first().click();
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  const client = await connectSdkClient(shelf.socketPath, 'narrow');
  try {
    await client.readResource({ uri: uriOf(root, 'notes.md') });
  } finally {
    await client.close();
  }
  for (const tab of [/Traffic/, /History/, /Clients/, 'Connect a client', 'Search']) {
    await page.getByRole('tab', { name: tab }).click();
    expect(await overflow(page), `overflow on ${String(tab)}`).toBeLessThanOrEqual(0);
  }
  await page.getByRole('tab', { name: /Traffic/ }).click();
  await expect(page.getByTestId('traffic-row').filter({ hasText: 'resources/read' }).getByText('ok')).toBeVisible();
  await snap(page, '15-narrow-800x600-light.png');

  const sidebar = page.getByRole('complementary', { name: 'Folders and files' });
  await expect(sidebar).toBeVisible();
  await page.keyboard.press('Control+b');
  await expect(sidebar).toBeHidden();
  await page.getByRole('button', { name: 'Show or hide the sidebar' }).click();
  await expect(sidebar).toBeVisible();

  // Dragging the separator widens the sidebar; a reload keeps it.
  const before = (await sidebar.boundingBox())?.width ?? 0;
  const handle = page.getByRole('separator', { name: /Resize the sidebar/ });
  const box = await handle.boundingBox();
  await page.mouse.move((box?.x ?? 0) + 2, (box?.y ?? 0) + 100);
  await page.mouse.down();
  await page.mouse.move((box?.x ?? 0) + 102, (box?.y ?? 0) + 100, { steps: 5 });
  await page.mouse.up();
  const after = (await sidebar.boundingBox())?.width ?? 0;
  expect(after).toBeGreaterThan(before + 50);
  await page.reload();
  await expect(sidebar).toBeVisible();
  expect(Math.abs(((await sidebar.boundingBox())?.width ?? 0) - after)).toBeLessThan(12);
});
