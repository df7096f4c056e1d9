import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAKUlEQVR42mNkYPhfz0AEYBxVSF+FjIyM/4lRyDiqkL4KR8NhVCF9FQIAT6sP8dYf2qIAAAAASUVORK5CYII=',
  'base64',
);

let root: string;

test.beforeEach(async () => {
  root = await makeTree(
    {
      'src/server.ts':
        "import { createServer } from 'node:http';\n\nexport function start(port = 8080): void {\n  createServer().listen(port);\n}\n\n/* Started by the command line: the port comes from the settings, and the host is always 127.0.0.1, so nothing outside this machine can reach it whatever the firewall says. */\n",
      'docs/README.md': '# Notes\n\nPublished with **MCP Shelf**.\n',
      'assets/logo.png': PNG,
      'assets/data.bin': Buffer.from([0, 1, 2, 3, 0xde, 0xad, 0xbe, 0xef, 0x41, 0x42]),
      'big.log': 'x'.repeat(9000),
      'package.json': '{"name":"demo","version":"1.0.0"}',
    },
    'e2e-folder-',
  );
});

test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function openFile(page: Page, dir: string | null, name: string): Promise<void> {
  if (dir) await page.getByRole('treeitem', { name: new RegExp(`^${dir}`) }).click();
  await page.getByTestId('file-row').filter({ hasText: name }).click();
}

test('empty state explains the app and offers the path field', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await expect(page.getByTestId('empty-state')).toContainText('publishes the folders you choose');
  await expect(page.getByLabel('Folder path')).toBeFocused();
  await shoot(page, '01-empty');
  // Connecting a client can be read about before any folder exists.
  await page.getByRole('tab', { name: 'Connect a client' }).click();
  await expect(page.getByText('Claude Desktop').first()).toBeVisible();
});

test('a path typed with ~ is the home folder; a folder inside a published one is refused, saying why', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  // The path field suggests the host's folders as you type.
  await page.getByLabel('Folder path').fill(`${root}/s`);
  await expect(page.getByTestId('path-suggestions').locator('option')).toHaveAttribute('value', `${root}/src/`);
  await publishByPath(page, '~/surely-not-a-folder-here');
  // Said at the field, not in a notice far from it.
  await expect(page.getByTestId('path-problem')).toContainText(`${os.homedir()}/surely-not-a-folder-here`);
  await expect(page.getByLabel('Folder path')).toHaveAttribute('aria-invalid', 'true');
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toHaveCount(1);
  await publishByPath(page, path.join(root, 'src'));
  await expect(page.getByTestId('path-problem')).toContainText(`Already published as part of ${root}`);
  await expect(page.getByTestId('folder-card')).toHaveCount(1);
});

test('a tab without the key says to open the printed address; the key in the address takes it out of the address bar', async ({ page, shelf }) => {
  await page.goto(shelf.url.replace(/#.*$/, ''));
  await expect(page.getByTestId('locked')).toContainText('Open the address');
  await expect(page.getByTestId('locked-state')).toContainText('#token=');
  await expect(page.getByLabel('Folder path')).toHaveCount(0); // no controls that cannot work
  await shoot(page, '07-no-key');
  await page.goto(shelf.url);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByTestId('locked')).toHaveCount(0);
  expect(new URL(page.url()).hash).toBe(''); // kept in this tab's storage, not in the address
});

test('add a folder by path and browse its files; a bad path gets a clear message', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, path.join(root, 'nope'));
  await expect(page.getByTestId('path-problem')).toContainText('Folder not found');
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('6 files');
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await expect(page.getByRole('treeitem', { name: /^src/ })).toBeVisible();
  // The tree shows name and size; the MIME type (cut to noise in a narrow column) is in the preview's header.
  await expect(page.getByTestId('file-row').filter({ hasText: 'package.json' })).not.toContainText('application/json');
  await page.getByLabel('Filter files').fill('logo');
  await expect(page.getByTestId('file-row')).toHaveCount(1);
  await page.getByLabel('Filter files').fill('');
  await shoot(page, '02-folders');
  // With a folder published, the main pane points to the next step.
  await page.getByTestId('next-step').getByRole('button').click();
  await expect(page.getByRole('tab', { name: 'Connect a client' })).toHaveAttribute('aria-selected', 'true');
});

test('previews text (highlighted), an image, a binary (hex) and a too-large file (the client’s error)', async ({ page, startShelf }) => {
  const shelf = await startShelf(['--max-read-bytes', '8192']);
  await page.goto(shelf.url);
  await publishByPath(page, root);

  await openFile(page, 'src', 'server.ts');
  await expect(page.getByTestId('code-view')).toHaveAttribute('data-language', 'typescript');
  await expect(page.locator('.hljs-keyword').first()).toHaveText('import');
  // Find, wrap and copy in the code view.
  await page.getByLabel('Find in file').fill('server');
  await page.getByLabel('Find in file').press('Enter');
  await expect(page.getByTestId('find-count')).toHaveText('1 of 2');
  await expect(page.getByTestId('find-line')).toBeVisible();
  await page.getByLabel('Find in file').press('Enter');
  await expect(page.getByTestId('find-count')).toHaveText('2 of 2');
  await page.getByLabel('Find in file').fill('no such words');
  await page.getByLabel('Find in file').press('Enter');
  await expect(page.getByTestId('code-view')).toContainText('Not found');
  // Wrapped, every line keeps its number beside it, and find still marks the line.
  await page.getByLabel('Wrap').check();
  await expect(page.locator('.gutter')).toHaveCount(0);
  await expect(page.locator('.wline .ln').first()).toHaveText('1');
  await page.getByLabel('Find in file').fill('listen');
  await page.getByLabel('Find in file').press('Enter');
  await expect(page.getByTestId('find-line').locator('.ln')).toHaveText('4');
  await shoot(page, '03b-preview-wrapped');
  await page.getByLabel('Wrap').uncheck();
  await expect(page.getByRole('button', { name: /^Copy text/ })).toBeVisible();
  await expect(page.getByTestId('resource-uri')).toHaveText(uriOf(root, 'src/server.ts'));
  await shoot(page, '03-preview-text');

  await page.getByTestId('raw-toggle').click();
  // The result the client gets, without an invented envelope; the choice stays for the next file.
  await expect(page.getByTestId('code-view')).toContainText('"result": {');
  await expect(page.getByTestId('code-view')).not.toContainText('"id"');
  await openFile(page, null, 'package.json');
  await expect(page.getByTestId('raw-toggle')).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();

  await openFile(page, 'assets', 'logo.png');
  const img = page.getByTestId('image-view');
  await expect(img).toBeVisible();
  expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(16);
  await expect(page.getByTestId('image-size')).toHaveText('16 × 16 px · fit');
  await img.click();
  await expect(page.getByTestId('image-size')).toHaveText('16 × 16 px · actual size');
  await shoot(page, '04-preview-image');

  await openFile(page, null, 'data.bin');
  await expect(page.getByTestId('hex-view')).toContainText('00000000  00 01 02 03 de ad be ef 41 42');

  await openFile(page, null, 'big.log');
  await expect(page.getByTestId('preview-error')).toContainText('Error 1004');
  await expect(page.getByTestId('preview-error')).toContainText('over the 8192-byte read limit');
  await expect(page.getByTestId('preview-error')).toContainText('8.8 KiB is over the read limit of 8.0 KiB');
  await page.getByRole('button', { name: 'Change the limit…' }).click();
  await expect(page.getByTestId('settings-sheet')).toBeVisible();
  await expect(page.getByTestId('read-limit-override')).toContainText('This run uses 8.0 KiB, set on the command line');
  await shoot(page, '17-settings');
  await page.keyboard.press('Escape');
});

test('a real SDK client’s requests stream into the log, paired with responses; errors filter', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toBeVisible();
  const client = await connectSdkClient(shelf.socketPath, 'e2e-client');
  try {
    await client.listResources();
    await client.readResource({ uri: uriOf(root, 'docs/README.md') });
    await client.readResource({ uri: uriOf(root, 'missing.txt') }).catch(() => undefined);

    await page.getByRole('tab', { name: /Clients/ }).click();
    await expect(page.getByTestId('clients-table')).toContainText('e2e-client');
    await expect(page.getByTestId('client-protocol')).toHaveText('2025-11-25'); // the revision each client speaks
    await shoot(page, '06-clients');

    await page.getByRole('tab', { name: /Traffic/ }).click();
    // One row per call: the file read, its status and duration.
    const reads = page.getByTestId('traffic-row').filter({ hasText: 'resources/read' });
    await expect(reads).toHaveCount(2);
    await expect(reads.first().getByTestId('traffic-target')).toHaveText(`${root}/docs/README.md`);
    await expect(reads.nth(1)).toContainText('-32602');
    await expect(reads.first()).toContainText(/\d+ ms/);
    await reads.filter({ hasText: 'ok' }).first().click();
    const detail = page.getByTestId('traffic-detail');
    await expect(detail.locator('.detail-pane').first()).toContainText('"method": "resources/read"');
    await expect(detail.locator('.detail-pane').nth(1)).toContainText('Published with **MCP Shelf**');
    await expect(detail.getByRole('button', { name: /^Copy response/ })).toBeVisible();
    await shoot(page, '05-log');
    await detail.getByRole('button', { name: 'Close the message detail' }).click();
    await expect(detail).toHaveCount(0);
    // Every message on its own row.
    await page.getByRole('button', { name: 'Messages', exact: true }).click();
    await expect(reads).toHaveCount(4); // two requests, a response and an error

    await page.getByLabel('Errors only').check();
    await expect(page.getByTestId('traffic-row')).toHaveCount(1);
    await expect(page.getByTestId('traffic-row')).toContainText('-32602');
  } finally {
    await client.close();
  }
});

test('removing a folder takes it out of the tree and out of the client’s list', async ({ page, shelf }) => {
  const other = await makeTree({ 'keep.txt': 'k' }, 'e2e-other-');
  try {
    await page.goto(shelf.url);
    await publishByPath(page, root);
    await expect(page.getByTestId('folder-card')).toHaveCount(1);
    await publishByPath(page, other);
    await expect(page.getByTestId('folder-card')).toHaveCount(2);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      expect((await client.listResources()).resources).toHaveLength(7);
      // Remove is in the folder's row, opened.
      await page
        .getByTestId('folder-card')
        .filter({ hasText: path.basename(root) })
        .getByTestId('folder-disclosure')
        .click();
      await page.getByRole('button', { name: `Remove ${path.basename(root)}` }).click();
      // A second click confirms; Cancel keeps it.
      const confirm = page.getByRole('group', { name: `Confirm removing ${path.basename(root)}` });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByTestId('folder-card')).toHaveCount(2);
      await page.getByRole('button', { name: `Remove ${path.basename(root)}` }).click();
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByTestId('folder-card')).toHaveCount(1);
      await expect(page.getByRole('treeitem', { name: /^src/ })).toHaveCount(0);
      await expect.poll(async () => (await client.listResources()).resources.map((r) => r.name)).toEqual(['keep.txt']);
    } finally {
      await client.close();
    }
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});

test('a wrong key says so at once: no “Reconnecting…” while the server is there and refuses it', async ({ page, shelf }) => {
  // Everything the status line ever said, from the first frame.
  await page.addInitScript(() => {
    const said: string[] = ((window as unknown as { said: string[] }).said = []);
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="topbar-status"]')?.textContent;
      if (text && said.at(-1) !== text) said.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(shelf.url.replace(/#token=.*$/, '#token=not-the-key'));
  await expect(page.getByTestId('locked')).toBeVisible();
  const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
  expect(said.filter((s) => s.includes('Reconnecting'))).toEqual([]);
});

test('the Clients tab’s request count keeps up with what a client sends', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  const client = await connectSdkClient(shelf.socketPath, 'Counter');
  try {
    for (let i = 0; i < 12; i++) await client.listResources();
    await page.getByRole('tab', { name: /Clients/ }).click();
    const row = page.getByRole('row').filter({ hasText: 'Counter' });
    await expect.poll(async () => Number((await row.locator('td').last().textContent())?.replace(/\D/g, '')), { timeout: 10_000 }).toBeGreaterThanOrEqual(13);
  } finally {
    await client.close();
  }
});
