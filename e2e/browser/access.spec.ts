import { readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import type { Page } from '@playwright/test';

import { ErrorCodes } from '../../shared/errorCodes.js';
import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** The person decides what clients read: the ask prompt, the read marks, the history view. */

let privateDir: string;
let openDir: string;

test.beforeEach(async () => {
  privateDir = await makeTree({ 'diary.md': '# Private\n\nDear diary…\n', 'taxes/2025.csv': 'year,total\n2025,1234\n' }, 'e2e-private-');
  openDir = await makeTree({ 'README.md': '# Public\n', 'notes/todo.txt': 'buy milk\n' }, 'e2e-open-');
});
test.afterEach(async () => {
  await rm(privateDir, { recursive: true, force: true });
  await rm(openDir, { recursive: true, force: true });
});

async function publish(page: Page, folder: string): Promise<void> {
  await publishByPath(page, folder);
  await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(folder) })).toContainText('Watching');
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    (r) => JSON.stringify(r),
    (e: { code?: number; data?: { reason?: string } }) => `${e.code}:${e.data?.reason}`,
  );

test('ask before read: a read waits for the window, other folders do not; allow, deny and no answer', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publish(page, privateDir);
  await publish(page, openDir);
  await page.getByRole('button', { name: `Options of ${path.basename(privateDir)}` }).click();
  await page.getByTestId('ask-before-read').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('badge-ask')).toHaveCount(1);

  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  try {
    let settled = false;
    const read = client.readResource({ uri: uriOf(privateDir, 'diary.md') }).finally(() => (settled = true));
    const prompt = page.getByRole('alertdialog');
    await expect(prompt).toContainText('Allow Claude Desktop 1.0.0 to read this file?');
    await expect(page.getByTestId('ask-path')).toHaveText('diary.md');
    await expect(page.getByTestId('ask-deny')).toBeFocused();
    // The other folder is served while the ask waits.
    const started = Date.now();
    expect((await client.readResource({ uri: uriOf(openDir, 'README.md') })).contents[0]).toMatchObject({ text: '# Public\n' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(settled).toBe(false);
    await shoot(page, '08-ask');
    await page.getByTestId('ask-allow-once').click();
    expect((await read).contents[0]).toMatchObject({ text: '# Private\n\nDear diary…\n' });
    await expect(prompt).toHaveCount(0);

    const denied = outcome(client.readResource({ uri: uriOf(privateDir, 'taxes/2025.csv') }));
    await expect(page.getByTestId('ask-path')).toHaveText('taxes/2025.csv');
    await page.keyboard.press('Escape');
    expect(await denied).toBe(`${ErrorCodes.readNotAllowed}:denied`);

    // The ask timeout is a setting: set it in the window, then leave an ask unanswered.
    await page.getByRole('tab', { name: 'History' }).click();
    // Retention… opens the one settings sheet at the history's bounds.
    await page.getByTestId('history-settings').click();
    const sheet = page.getByTestId('settings-sheet');
    await expect(sheet.getByLabel('Access history keeps')).toBeFocused();
    await sheet.getByLabel('An ask-before-read waits').fill('2');
    await sheet.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('status')).toContainText('Settings saved');
    const unanswered = outcome(client.readResource({ uri: uriOf(privateDir, 'diary.md') }));
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText(/denied in [12] s/);
    expect(await unanswered).toBe(`${ErrorCodes.readNotAllowed}:timeout`);
    await expect(prompt).toHaveCount(0);

    // "Allow until it disconnects" answers this read and the next ones from that folder.
    const first = client.readResource({ uri: uriOf(privateDir, 'diary.md') });
    await page.getByTestId('ask-allow-client').click();
    await first;
    expect((await client.readResource({ uri: uriOf(privateDir, 'taxes/2025.csv') })).contents[0]).toMatchObject({ text: 'year,total\n2025,1234\n' });
    await expect(prompt).toHaveCount(0);
  } finally {
    await client.close();
  }
});

/** A port free now (for --http, whose address the fixture does not read back). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

test('the prompt shows who asks beyond the name it gives, takes no click in its first half second, and offers a 2026-07-28 HTTP client "Allow once" only', async ({
  page,
  startShelf,
}) => {
  const port = await freePort();
  const shelf = await startShelf(['--http', `127.0.0.1:${port}`, '--http-no-auth']);
  // The page's clock is ours: the half second the prompt waits passes when the test says so.
  await page.clock.install();
  await page.goto(shelf.url);
  await publish(page, privateDir);
  await page.getByRole('button', { name: `Options of ${path.basename(privateDir)}` }).click();
  await page.getByTestId('ask-before-read').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('badge-ask')).toHaveCount(1);

  const prompt = page.getByRole('alertdialog');
  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  const modern = new V2Client({ name: 'Claude Desktop', version: '9.9' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new V2Http(new URL(`http://127.0.0.1:${port}/mcp`)));
  try {
    // Toasts gone (they wait on the clock too), then time stands still.
    await expect(page.locator('.toast')).toHaveCount(0);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 100));
    let settled = false;
    const read = client.readResource({ uri: uriOf(privateDir, 'diary.md') }).finally(() => (settled = true));
    await expect(prompt).toContainText('Allow Claude Desktop 1.0.0 to read this file?');
    await expect(page.getByTestId('ask-who')).toContainText(/Client #\d+.*over the local socket.*20\d\d-\d\d-\d\d.*connected \d/);
    await expect(prompt).toContainText('The name is what the client calls itself');
    // The countdown starts at the ask's own timeout (60 s), not at a second more; the focused default, Deny, is the one styled as the default.
    await expect(prompt).toContainText('denied in 60 s.');
    await expect(page.getByTestId('ask-deny')).toHaveClass(/btn-primary/);
    await expect(page.getByTestId('ask-allow-once')).not.toHaveClass(/btn-primary/);
    // Just shown: the allow buttons take nothing, and a click on Deny is not taken either.
    await expect(page.getByTestId('ask-allow-once')).toBeDisabled();
    await expect(page.getByTestId('ask-allow-client')).toBeDisabled();
    await expect(page.getByTestId('ask-deny')).toBeFocused();
    await page.getByTestId('ask-deny').click();
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    await expect(prompt).toBeVisible();
    await page.clock.runFor(600);
    await expect(page.getByTestId('ask-allow-once')).toBeEnabled();
    await shoot(page, '08b-ask-socket', { frozenClock: true });
    await page.getByTestId('ask-allow-once').click();
    expect((await read).contents[0]).toMatchObject({ text: '# Private\n\nDear diary…\n' });
    await expect(prompt).toHaveCount(0);

    // The same name over stateless HTTP: nothing to tie "this client" to, so the prompt offers this read only and says why.
    const viaHttp = modern.readResource({ uri: uriOf(privateDir, 'taxes/2025.csv') });
    await expect(prompt).toContainText('Allow Claude Desktop 9.9 to read this file?');
    await expect(page.getByTestId('ask-who')).toContainText(/over HTTP, no connection.*2026-07-28.*first request/);
    await expect(page.getByTestId('ask-once-only')).toContainText('only this one read can be allowed');
    await expect(page.getByTestId('ask-allow-client')).toHaveCount(0);
    await page.clock.runFor(600);
    await expect(page.getByTestId('ask-allow-once')).toBeEnabled();
    await shoot(page, '08c-ask-http-once', { frozenClock: true });
    await page.getByTestId('ask-allow-once').click();
    expect((await viaHttp).contents[0]).toMatchObject({ text: 'year,total\n2025,1234\n' });
  } finally {
    await page.clock.resume();
    await modern.close();
    await client.close();
  }
});

test('history: read marks in the tree, the file’s reads in the preview, a filterable history, CSV export', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publish(page, openDir);
  const claude = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  const cursor = await connectSdkClient(shelf.socketPath, 'Cursor');
  try {
    await claude.readResource({ uri: uriOf(openDir, 'README.md') });
    await claude.callTool({ name: 'read_resource', arguments: { uri: uriOf(openDir, 'README.md') } });
    await cursor.readResource({ uri: uriOf(openDir, 'notes/todo.txt') });
    await cursor.readResource({ uri: uriOf(openDir, 'missing.md') }).catch(() => undefined);
  } finally {
    await claude.close();
    await cursor.close();
  }
  const mark = page.getByTestId('file-row').filter({ hasText: 'README.md' }).getByTestId('read-mark');
  await expect(mark).toHaveText(/2/);
  await expect(mark).toHaveAttribute('title', /Read 2 times by clients, last by Claude Desktop today/);
  await page.getByTestId('file-row').filter({ hasText: 'README.md' }).click();
  await expect(page.getByTestId('access-line')).toContainText('Read 2 times by clients, last by Claude Desktop');

  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-row')).toHaveCount(4);
  await expect(page.getByTestId('history-total')).toContainText('4 entries kept');
  await expect(page.getByTestId('history-row').first()).toContainText('missing.md');
  await expect(page.getByTestId('history-row').first()).toHaveAttribute('data-outcome', 'error');
  await shoot(page, '09-history');

  await page.getByLabel('Client').selectOption('Cursor');
  await expect(page.getByTestId('history-row')).toHaveCount(2);
  await page.getByLabel('Outcome').selectOption('ok');
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await expect(page.getByTestId('history-row')).toContainText('notes/todo.txt');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = await readFile((await download.path()) as string, 'utf8');
  expect(csv.trim().split('\n')).toHaveLength(2);
  expect(csv).toContain('Cursor');
  await expect(page.getByRole('status')).toContainText('Exported 1 entries');

  // From the preview to that file's history, and back to the file from a row.
  await page.getByLabel('Client').selectOption('');
  await page.getByLabel('Outcome').selectOption('');
  await page.getByRole('tab', { name: 'Preview' }).click();
  await page.getByRole('button', { name: 'See its history' }).click();
  await expect(page.getByTestId('history-uri-filter')).toContainText('README.md');
  await expect(page.getByTestId('history-row')).toHaveCount(2);
  await page.getByTestId('history-row').first().getByRole('button', { name: 'README.md' }).click();
  await expect(page.getByTestId('resource-uri')).toHaveText(uriOf(openDir, 'README.md'));
});

test('a run of not-found reads is one row that says how many it stands for', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publish(page, openDir);
  const prober = await connectSdkClient(shelf.socketPath, 'Prober');
  try {
    await prober.readResource({ uri: uriOf(openDir, 'README.md') });
    for (let i = 0; i < 50; i++) await prober.readResource({ uri: uriOf(openDir, `.ssh/id_${i}`) }).catch(() => undefined);
  } finally {
    await prober.close();
  }
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-row')).toHaveCount(5);
  await expect(page.getByTestId('history-row').first().getByTestId('history-repeated')).toHaveText('×47');
  await expect(page.getByTestId('history-row').last()).toContainText('README.md');
  await shoot(page, '09b-history-folded');
});

test('the empty history says what it will hold', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publish(page, openDir);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('history-empty')).toContainText('No client has read, searched or changed a file yet.');
  await shoot(page, '10-history-empty');
});
