import { rm } from 'node:fs/promises';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { ErrorCodes } from '../../shared/errorCodes.js';
import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { askBeforeRead, expect, publishByPath, test } from './shelfFixture.js';

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

/** Records every Notification the page builds, and lets the test hide the tab (headless Chromium shows every tab). */
async function observeNotifications(page: Page): Promise<void> {
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
}

/** The owner goes to another tab (as observeNotifications lets a test say). */
async function hideTab(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.tabHidden = true;
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

test('a hidden tab gets a system notification for a waiting read; clicking it focuses the prompt', async ({ page, shelf }) => {
  await page.context().grantPermissions(['notifications'], { origin: new URL(shelf.url).origin });
  await observeNotifications(page);
  await page.goto(shelf.url);
  expect(await page.evaluate(() => Notification.permission)).toBe('granted');
  await publishByPath(page, privateDir);
  await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(privateDir) })).toContainText('Watching');
  await askBeforeRead(page, privateDir);

  // The owner is in another tab.
  await hideTab(page);
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
    expect(note?.tag).toBe('mcp-shelf-asks');

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

test('many asks at once make one notification that stands for all, not one each', async ({ page, shelf }) => {
  const many = await makeTree(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`note${i + 1}.md`, `note ${i + 1}\n`])), 'e2e-notify-many-');
  await page.context().grantPermissions(['notifications'], { origin: new URL(shelf.url).origin });
  await observeNotifications(page);
  await page.goto(shelf.url);
  await publishByPath(page, many);
  await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(many) })).toContainText('Watching');
  await askBeforeRead(page, many);
  await hideTab(page);
  // A client spreading its reads over connections (each may hold 8 asks): six asks within a moment.
  const clients = await Promise.all([connectSdkClient(shelf.socketPath, 'Flood A'), connectSdkClient(shelf.socketPath, 'Flood B')]);
  try {
    const reads = Array.from({ length: 6 }, (_, i) =>
      (clients[i % 2] as (typeof clients)[0]).readResource({ uri: uriOf(many, `note${i + 1}.md`) }).catch(() => 'refused'),
    );
    await expect(page).toHaveTitle(/^\(6\) Reads waiting/);
    // One notification at once; asks that come after it are summed up in the next, a few seconds on, replacing it (the same tag).
    await expect
      .poll(() => page.evaluate(() => window.seenNotes.at(-1)?.body), { timeout: 15_000 })
      .toMatch(/^note\d\.md\nand 5 more reads waiting\nOpen MCP Shelf to allow or deny it\.$/);
    const notes = await page.evaluate(() => window.seenNotes);
    expect(notes.length).toBeLessThanOrEqual(2);
    expect(new Set(notes.map((n) => n.tag))).toEqual(new Set(['mcp-shelf-asks']));
    for (const c of clients) await c.close();
    await Promise.all(reads);
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    await rm(many, { recursive: true, force: true });
  }
});
