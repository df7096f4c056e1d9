import { rm } from 'node:fs/promises';
import path from 'node:path';

import { ErrorCodes } from '../../shared/errorCodes.js';
import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, test } from './shelfFixture.js';

/**
 * A waiting ask reaches an owner whose tab is hidden: a system notification
 * (the permission granted to the page), saying who asks for what; a click on
 * it brings the window and the prompt's default button into focus.
 */

let privateDir: string;
test.beforeEach(async () => {
  privateDir = await makeTree({ 'diary.md': '# Private\n' }, 'e2e-notify-');
});
test.afterEach(async () => {
  await rm(privateDir, { recursive: true, force: true });
});

interface Seen {
  title: string;
  body: string | undefined;
  tag: string | undefined;
}
declare global {
  interface Window {
    seenNotes: Seen[];
    lastNote: Notification | null;
    closedNotes: number;
    tabHidden: boolean;
  }
}

test('a hidden tab gets a system notification for a waiting read; clicking it focuses the prompt', async ({ page, shelf }) => {
  await page.context().grantPermissions(['notifications'], { origin: new URL(shelf.url).origin });
  await page.addInitScript(() => {
    // Every Notification the page builds is recorded (before the browser's own constructor runs, which may refuse headless).
    const Real = window.Notification;
    window.seenNotes = [];
    window.lastNote = null;
    window.closedNotes = 0;
    class Observed extends Real {
      constructor(title: string, options?: NotificationOptions) {
        window.seenNotes.push({ title, body: options?.body, tag: options?.tag });
        super(title, options);
        window.lastNote = this;
      }
      override close() {
        window.closedNotes++;
        super.close();
      }
    }
    window.Notification = Observed;
    // The tab is hidden when the test says so (headless Chromium shows every tab).
    window.tabHidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (window.tabHidden ? 'hidden' : 'visible') });
    Object.defineProperty(Document.prototype, 'hidden', { get: () => window.tabHidden });
  });
  await page.goto(shelf.url);
  expect(await page.evaluate(() => Notification.permission)).toBe('granted');
  await publishByPath(page, privateDir);
  await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(privateDir) })).toContainText('Watching');
  await page.getByRole('button', { name: `Options of ${path.basename(privateDir)}` }).click();
  await page.getByTestId('ask-before-read').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('badge-ask')).toHaveCount(1);

  // The owner is in another tab.
  await page.evaluate(() => {
    window.tabHidden = true;
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  try {
    const read = client.readResource({ uri: uriOf(privateDir, 'diary.md') }).then(
      () => 'ok',
      (e: { code?: number; data?: { reason?: string } }) => `${e.code}:${e.data?.reason ?? ''}`,
    );
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.seenNotes)).toHaveLength(1);
    const [note] = await page.evaluate(() => window.seenNotes);
    expect(note?.title).toBe('Claude Desktop asks to read a file');
    expect(note?.body).toBe('diary.md\nOpen MCP Shelf to allow or deny it.');
    expect(note?.tag).toMatch(/^mcp-shelf-ask-\d+$/);

    // The owner was busy elsewhere in the page; the click on the notification brings them to the prompt.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expect(page.getByTestId('ask-deny')).not.toBeFocused();
    await page.evaluate(() => {
      window.tabHidden = false;
      window.lastNote?.dispatchEvent(new Event('click'));
    });
    await expect(page.getByTestId('ask-deny')).toBeFocused();
    expect(await page.evaluate(() => window.closedNotes)).toBe(1);
    // Announced once: the ask still waiting, no second notification.
    expect(await page.evaluate(() => window.seenNotes.length)).toBe(1);
    await expect(page.getByTestId('ask-allow-once')).toBeEnabled();
    await page.getByTestId('ask-deny').click();
    expect(await read).toBe(`${ErrorCodes.readNotAllowed}:denied`);
  } finally {
    await client.close();
  }
});
