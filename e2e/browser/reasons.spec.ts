import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { ErrorCodes } from '../../shared/errorCodes.js';
import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { askBeforeRead, expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Issue 26: every failed or refused read says why, in History and Traffic; client searches are in History; asks reach the owner. */

let dir: string;
let privateDir: string;

test.beforeEach(async () => {
  dir = await makeTree(
    { 'README.md': '# Public\n\nthe word lighthouse\n', '.env': 'SECRET=1\n', '.notes.txt': 'dot\n', 'build/out.txt': 'built\n', '.gitignore': 'build/\n' },
    'e2e-reasons-',
  );
  privateDir = await makeTree({ 'diary.md': '# Private\n\nlighthouse keeper\n' }, 'e2e-private-');
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(privateDir, { recursive: true, force: true });
});

async function publish(page: Page, folder: string): Promise<void> {
  await publishByPath(page, folder);
  await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(folder) })).toContainText('Watching');
}

const failed = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: number; data?: { reason?: string } }) => `${e.code}:${e.data?.reason ?? ''}`,
  );

test('History and Traffic say why each read failed (secret, hidden, ignored, outside, no such file, too large, denied by you, no answer) and filter by it', async ({
  page,
  startShelf,
}) => {
  const shelf = await startShelf(['--max-read-bytes', '16']);
  await page.goto(shelf.url);
  await publish(page, dir);
  await publish(page, privateDir);
  await askBeforeRead(page, privateDir);
  await writeFile(path.join(dir, 'big.txt'), 'x'.repeat(100));
  await expect(page.getByTestId('file-row').filter({ hasText: 'big.txt' })).toBeVisible();

  const client = await connectSdkClient(shelf.socketPath, 'Prober');
  try {
    expect(await failed(client.readResource({ uri: uriOf(dir, '.env') }))).toBe(`${ErrorCodes.resourceNotFound}:`);
    await failed(client.readResource({ uri: uriOf(dir, '.notes.txt') }));
    await failed(client.readResource({ uri: uriOf(dir, 'build/out.txt') }));
    await failed(client.readResource({ uri: 'file:///etc/passwd' }));
    await failed(client.readResource({ uri: uriOf(dir, 'nothing-here.md') }));
    expect(await failed(client.readResource({ uri: uriOf(dir, 'big.txt') }))).toBe(`${ErrorCodes.resourceTooLarge}:`);
    // Denied by the person, then left unanswered (the prompt's own timeout is long: it is answered by the client leaving instead).
    const denied = failed(client.readResource({ uri: uriOf(privateDir, 'diary.md') }));
    await expect(page.getByRole('alertdialog')).toBeVisible();
    // The prompt takes no click in its first half second.
    await expect(page.getByTestId('ask-allow-once')).toBeEnabled();
    await page.getByTestId('ask-deny').click();
    expect(await denied).toBe(`${ErrorCodes.readNotAllowed}:denied`);
  } finally {
    await client.close();
  }

  await page.getByRole('tab', { name: 'History' }).click();
  const rows = page.getByTestId('history-row');
  const reasonOf = (name: string) => rows.filter({ hasText: name }).getByTestId('history-reason');
  await expect(reasonOf('.env')).toHaveText('secret file');
  await expect(reasonOf('.notes.txt')).toHaveText('hidden file');
  await expect(reasonOf('build/out.txt')).toHaveText('ignored file');
  await expect(reasonOf('/etc/passwd')).toHaveText('outside folders');
  await expect(reasonOf('nothing-here.md')).toHaveText('no such file');
  await expect(reasonOf('big.txt')).toHaveText('too large');
  await expect(reasonOf('diary.md')).toHaveText('denied by you');
  await shoot(page, '26-history-reasons');

  await page.getByLabel('Reason', { exact: true }).selectOption('secret');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('.env');
  await page.getByLabel('Reason', { exact: true }).selectOption('');

  await page.getByRole('tab', { name: 'Traffic' }).click();
  const traffic = page.getByTestId('traffic-row').filter({ has: page.getByTestId('traffic-reason') });
  await expect(traffic.filter({ hasText: '/etc/passwd' }).getByTestId('traffic-reason')).toHaveText('outside folders');
  await expect(traffic.filter({ hasText: '.env' }).getByTestId('traffic-reason')).toHaveText('secret file');
  await expect(traffic.filter({ hasText: 'diary.md' }).getByTestId('traffic-reason')).toHaveText('denied by you');
  await page.getByLabel('Reason', { exact: true }).selectOption('too-large');
  await expect(page.getByTestId('traffic-row')).toHaveCount(1);
  await expect(page.getByTestId('traffic-row')).toContainText('big.txt');
  // At 800×600 (the sidebar as it opens) what tells calls apart is whole: the method, the status's reason.
  await page.setViewportSize({ width: 800, height: 600 });
  await page.getByLabel('Reason', { exact: true }).selectOption('');
  const cut = async (cells: import('@playwright/test').Locator) =>
    cells.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
  await expect.poll(() => cut(page.getByTestId('traffic-row').getByRole('gridcell').nth(3))).toEqual([]);
  expect(await cut(page.getByTestId('traffic-reason'))).toEqual([]);
  await expect(page.getByTestId('traffic-row').filter({ hasText: 'resources/read' }).first()).toBeVisible();
  await page.getByLabel('Reason', { exact: true }).selectOption('too-large');
  await shoot(page, '26-traffic-reasons');

  // The preview of a file no client could read says that a client tried, and why it failed.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('tab', { name: 'Preview' }).click();
  await page.getByTestId('file-row').filter({ hasText: 'big.txt' }).click();
  await expect(page.getByTestId('access-line')).toContainText('No client has read this file yet: the last attempt, by Prober');
  await expect(page.getByTestId('access-line')).toContainText('failed (too large)');
  await shoot(page, '26-preview-failed-attempt');
  await page.getByTestId('access-line').getByRole('button', { name: 'See its history' }).click();
  await expect(page.getByTestId('history-row')).toHaveCount(1);
});

test('a client’s searches are in History, with what it looked for and how many hits it got', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publish(page, dir);
  const client = await connectSdkClient(shelf.socketPath, 'Searcher');
  try {
    await expect
      .poll(async () => JSON.stringify((await client.callTool({ name: 'search_resources', arguments: { query: 'lighthouse' } })).structuredContent))
      .toContain('README.md');
    await client.callTool({ name: 'grep_resources', arguments: { pattern: 'light.ouse' } });
  } finally {
    await client.close();
  }
  await page.getByRole('tab', { name: 'History' }).click();
  const searches = page.getByTestId('history-row').filter({ has: page.getByTestId('history-search') });
  await expect(searches.filter({ hasText: '“lighthouse”' }).first()).toContainText('search “lighthouse” 1 hit');
  await expect(searches.filter({ hasText: '/light.ouse/' })).toContainText('grep /light.ouse/ 1 line');
  await page.getByLabel('Kind', { exact: true }).selectOption('search');
  await expect(page.getByTestId('history-row').filter({ hasNot: page.getByTestId('history-search') })).toHaveCount(0);
});

test('ask-before-read with no window open refuses at once, and History says "no window to ask"', async ({ page, shelf, browser }) => {
  await page.goto(shelf.url);
  await publish(page, privateDir);
  await askBeforeRead(page, privateDir);
  await page.close();
  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  try {
    const started = Date.now();
    // The window's WebSocket may take a moment to be seen closed; a refusal must not wait for the ask's 60 s timeout.
    await expect
      .poll(() => failed(client.readResource({ uri: uriOf(privateDir, 'diary.md') })), { timeout: 15_000 })
      .toBe(`${ErrorCodes.readNotAllowed}:no-window`);
    expect(Date.now() - started).toBeLessThan(20_000);
  } finally {
    await client.close();
  }
  const again = await browser.newPage();
  await again.goto(shelf.url);
  await again.getByRole('tab', { name: 'History' }).click();
  await expect(again.getByTestId('history-row').first().getByTestId('history-reason')).toHaveText('no window to ask');
  await again.close();
});

test('a waiting ask reaches an owner in another tab: the title counts it and the favicon gets a dot; the owner’s own search covers ask-first folders', async ({
  page,
  shelf,
}) => {
  await page.goto(shelf.url);
  await publish(page, privateDir);
  await askBeforeRead(page, privateDir);
  const title = await page.title();
  const icon = page.locator('link[rel="icon"]');
  const plainIcon = await icon.getAttribute('href');

  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Search file contents').fill('lighthouse');
  await expect(page.getByTestId('search-hit').filter({ hasText: 'diary.md' })).toBeVisible({ timeout: 20_000 });

  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  try {
    const read = failed(client.readResource({ uri: uriOf(privateDir, 'diary.md') }));
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expect(page).toHaveTitle(`(1) Read waiting · ${title}`);
    await expect(icon).not.toHaveAttribute('href', plainIcon ?? '');
    await shoot(page, '26-ask-title-badge');
    await expect(page.getByTestId('ask-allow-once')).toBeEnabled();
    await page.getByTestId('ask-deny').click();
    expect(await read).toBe(`${ErrorCodes.readNotAllowed}:denied`);
    await expect(page).toHaveTitle(title);
    await expect(icon).toHaveAttribute('href', plainIcon ?? '');
  } finally {
    await client.close();
  }
});
