import { rm } from 'node:fs/promises';

import type { Page } from '@playwright/test';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** The window is a fixed frame: the page itself never scrolls (on any tab, at any size); its panes scroll inside it. */

let root: string;
test.beforeEach(async () => {
  // Enough files that every one of them matching makes a results list far taller than the window.
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`notes/otter-${String(i).padStart(2, '0')}.md`] = `# Otter ${i}\n\nAn otter was seen on day ${i}.\n`;
  root = await makeTree(files, 'e2e-frame-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** How far the page itself can scroll, and how far it has. */
const pageScroll = (page: Page) =>
  page.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    return { extra: el.scrollHeight - el.clientHeight, sideways: el.scrollWidth - el.clientWidth, at: el.scrollTop + window.scrollY };
  });

async function expectFixedFrame(page: Page, where: string) {
  expect(await pageScroll(page), `page scroll on ${where}`).toEqual({ extra: 0, sideways: 0, at: 0 });
  // A wheel over the top bar moves nothing: the bar stays at the top.
  const bar = page.locator('.topbar');
  const box = await bar.boundingBox();
  await page.mouse.move((box?.x ?? 0) + 200, (box?.y ?? 0) + 20);
  await page.mouse.wheel(0, 2000);
  await page.mouse.wheel(0, 2000);
  expect((await pageScroll(page)).at, `scrolled by a wheel on ${where}`).toBe(0);
  expect((await bar.boundingBox())?.y, `top bar moved on ${where}`).toBe(0);
}

const TABS = ['Preview', 'Search', /^Traffic/, /^History/, /^Clients/, 'Connect a client'];

test('no tab scrolls the page at 800×600 or 1440×900, with many search hits too; the hit list scrolls inside', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await page.getByRole('tab', { name: 'Search' }).click();
  await expect(page.getByTestId('search-status')).toContainText('60 files indexed');
  await page.getByLabel('Search file contents').fill('otter');
  await expect(page.getByTestId('search-hit')).not.toHaveCount(0);
  for (const size of [
    { width: 800, height: 600 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    for (const tab of TABS) {
      await page.getByRole('tab', { name: tab }).click();
      await expectFixedFrame(page, `${String(tab)} at ${size.width}×${size.height}`);
    }
    // The folders' files (the tree) and the hits scroll in their own panes, not the page.
    await page.getByRole('tab', { name: 'Search' }).click();
    const list = page.getByTestId('search-results');
    const hits = await list.evaluate((el) => ({ scrollable: el.scrollHeight > el.clientHeight }));
    expect(hits.scrollable).toBe(true);
    const listBox = await list.boundingBox();
    await page.mouse.move((listBox?.x ?? 0) + 40, (listBox?.y ?? 0) + 40);
    await page.mouse.wheel(0, 600);
    await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    expect((await pageScroll(page)).at).toBe(0);
    await list.evaluate((el) => el.scrollTo(0, 0));
  }
  await shoot(page, '40-frame-search-many-hits');
});
