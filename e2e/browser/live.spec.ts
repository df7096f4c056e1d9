import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, test } from './shelfFixture.js';

/** The window follows the disk: an edited file's preview and size refresh by themselves; notices do not pile up. */

let root: string;
test.beforeEach(async () => {
  root = await makeTree({ 'notes/today.md': '# Today\n\nfirst draft\n', 'other.txt': 'x', 'empty.txt': '' }, 'e2e-live-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('an edit on disk refreshes the preview (with an “updated” mark) and the tree’s size', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByRole('treeitem', { name: /^notes/ }).click();
  const row = page.getByTestId('file-row').filter({ hasText: 'today.md' });
  await row.click();
  await page.getByRole('button', { name: 'Source' }).click();
  await expect(page.getByTestId('code-view')).toContainText('first draft');
  await expect(page.getByTestId('updated-mark')).toHaveCount(0);

  await writeFile(path.join(root, 'notes/today.md'), `# Today\n\nsecond draft, ${'much longer '.repeat(20)}\n`);
  await expect(page.getByTestId('code-view')).toContainText('second draft'); // the watcher, then the preview: within expect's deadline
  await expect(page.getByTestId('updated-mark')).toBeVisible();
  await expect(row).toContainText('264 B');
});

test('an empty file says so instead of showing a blank pane', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByTestId('file-row').filter({ hasText: 'empty.txt' }).click();
  await expect(page.getByTestId('empty-file')).toContainText('This file is empty (0 bytes)');
});

test('the same notice twice is counted on one toast, not stacked', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByRole('tab', { name: /Traffic/ }).click();
  for (let i = 0; i < 3; i++) {
    await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSONL' }).click()]);
  }
  const toasts = page.getByRole('status').locator('.toast');
  await expect(toasts).toHaveCount(1);
  await expect(toasts).toContainText('Exported 0 messages');
  await expect(toasts).toContainText('×3');
});

test('after the connection drops, the window catches up with what changed meanwhile', async ({ page, shelf }) => {
  // Every window socket goes through here, so the test can cut it as a network drop would.
  const sockets: Array<{ close: () => Promise<void> }> = [];
  let hold = false;
  await page.routeWebSocket(/\/api$/, (ws) => {
    if (hold) return void ws.close({ code: 1006 });
    ws.connectToServer();
    sockets.push(ws);
  });
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('file-row').filter({ hasText: 'other.txt' })).toBeVisible();

  hold = true;
  for (const ws of sockets.splice(0)) await ws.close();
  await expect(page.getByText('Reconnecting to MCP Shelf…')).toBeVisible();
  // Changed while the window could not hear it.
  await writeFile(path.join(root, 'arrived-meanwhile.txt'), 'hello');
  await new Promise((r) => setTimeout(r, 600));
  hold = false;

  await expect(page.getByText('Reconnecting to MCP Shelf…')).toBeHidden({ timeout: 30_000 });
  await expect(page.getByTestId('file-row').filter({ hasText: 'arrived-meanwhile.txt' })).toBeVisible();
});
