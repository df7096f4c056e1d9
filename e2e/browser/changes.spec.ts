import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from '@playwright/test';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/**
 * Changes by AI, decided in the window: a real client (the SDK, through
 * `mcp-shelf connect`) calls write_resource and edit_resource; the person
 * approves, declines or edits in the change prompt; History's Undo puts the
 * file back. What is on disk is checked after each decision.
 */

const NOTES = 'line one\nline two\nline three\n';
let dir: string;

test.beforeEach(async () => {
  dir = await makeTree({ 'notes.md': NOTES, 'plan.md': '# Plan\n\nShip it.\n' }, 'e2e-changes-');
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown> & { error?: { data?: { reason?: string } } };
}
const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
const reasonOf = (r: ToolResult) => r.structuredContent?.error?.data?.reason;

/** Publishes the folder and sets its Changes by AI to "Ask me" in its Options, as a person would. */
async function allowChanges(page: Page): Promise<void> {
  await publishByPath(page, dir);
  await expect(page.getByTestId('folder-card').filter({ hasText: path.basename(dir) })).toContainText('Watching');
  await page.getByRole('button', { name: `Options of ${path.basename(dir)}` }).click();
  const options = page.getByTestId('folder-options');
  await expect(options.getByTestId('folder-changes')).toHaveValue('off');
  await options.getByTestId('folder-changes').selectOption('ask');
  await expect(options).toContainText('nothing is written until you approve it');
  await options.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('badge-changes')).toHaveCount(1);
}

test('a change waits for the window: approve writes it, decline and Escape leave the file, Edit… writes the person’s text, Undo in History puts it back', async ({
  page,
  shelf,
}) => {
  // The page's clock is ours: the half second before Approve takes a click passes when the test says so.
  await page.clock.install();
  await page.goto(shelf.url);
  await allowChanges(page);
  const client = await connectSdkClient(shelf.socketPath, 'Claude Desktop');
  const prompt = page.getByTestId('change-prompt');
  const approve = page.getByTestId('change-approve');
  try {
    await expect(page.locator('.toast')).toHaveCount(0);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 100));

    // An edit: who, where, lines ±, and the diff.
    let settled = false;
    const edit = call(client, 'edit_resource', { uri: uriOf(dir, 'notes.md'), edits: [{ oldText: 'line two', newText: 'line 2, by the model' }] }).finally(
      () => (settled = true),
    );
    await expect(prompt.getByRole('heading')).toHaveText('Claude Desktop 1.0.0 wants to edit this file');
    await expect(page.getByTestId('change-who')).toContainText(/Client #\d+.*over the local socket.*\d{4}-\d\d-\d\d.*connected \d/);
    await expect(page.getByTestId('change-path')).toHaveText('notes.md');
    await expect(page.getByTestId('change-facts')).toContainText('+1 −1 lines');
    await expect(page.getByTestId('change-countdown')).toContainText('Declined on its own in 1 min 00 s');
    const diff = page.getByTestId('diff');
    await expect(diff.locator('tr[data-op="-"]')).toHaveText(['2−line two']);
    await expect(diff.locator('tr[data-op="+"]')).toHaveText(['2+line 2, by the model']);
    await expect(diff.locator('tr[data-op=" "]')).toHaveCount(2);

    // Just shown: Approve takes nothing and a click on Decline is not taken either; Decline is the focused default.
    await expect(approve).toBeDisabled();
    await expect(page.getByTestId('change-decline')).toBeFocused();
    await expect(page.getByTestId('change-decline')).toHaveClass(/btn-primary/);
    await page.getByTestId('change-decline').click();
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    await page.clock.runFor(600);
    await expect(approve).toBeEnabled();

    // Side by side, remembered: the removed line faces the added one.
    await prompt.getByRole('button', { name: 'Side by side' }).click();
    await expect(diff).toHaveAttribute('data-layout', 'split');
    await expect(diff.locator('tr').filter({ hasText: 'line two' })).toContainText('line 2, by the model');
    await shoot(page, '20-change-split', { frozenClock: true });
    await prompt.getByRole('button', { name: 'Unified' }).click();
    await expect(diff).toHaveAttribute('data-layout', 'unified');
    await shoot(page, '20-change-unified', { frozenClock: true });
    await prompt.getByRole('button', { name: 'Side by side' }).click();
    expect(await page.evaluate(() => localStorage.getItem('mcp-shelf-diff-layout'))).toBe('split');

    await approve.click();
    expect((await edit).structuredContent).toMatchObject({ status: 'written', added: 1, removed: 1 });
    expect(await readFile(path.join(dir, 'notes.md'), 'utf8')).toBe('line one\nline 2, by the model\nline three\n');
    await expect(prompt).toHaveCount(0);

    // A new file in a new folder, declined: its content as added lines, the folder it would make; nothing on disk.
    const create = call(client, 'write_resource', { uri: uriOf(dir, 'drafts/idea.md'), text: '# Idea\n\nA shelf for every folder.\n' });
    await expect(prompt.getByRole('heading')).toHaveText('Claude Desktop 1.0.0 wants to create a file');
    await expect(page.getByTestId('change-facts')).toContainText('new file');
    await expect(page.getByTestId('change-new-folders')).toHaveText('also creates the folder drafts/');
    await expect(diff.locator('tr[data-op="+"]')).toHaveText(['1+# Idea', '2+', '3+A shelf for every folder.']);
    await page.clock.runFor(600);
    await page.getByTestId('change-decline').click();
    const declined = await create;
    expect(declined.isError).toBe(true);
    expect(reasonOf(declined)).toBe('declined');
    expect(existsSync(path.join(dir, 'drafts'))).toBe(false);

    // Escape declines, at once.
    const escaped = call(client, 'edit_resource', { uri: uriOf(dir, 'plan.md'), edits: [{ oldText: 'Ship it.', newText: 'Delete it all.' }] });
    await expect(page.getByTestId('change-path')).toHaveText('plan.md');
    await page.keyboard.press('Escape');
    expect(reasonOf(await escaped)).toBe('declined');
    expect(await readFile(path.join(dir, 'plan.md'), 'utf8')).toBe('# Plan\n\nShip it.\n');

    // Edit…: the full proposed text in an editor; what the person wrote is what is written, and the model is told.
    const edited = call(client, 'write_resource', { uri: uriOf(dir, 'plan.md'), text: '# Plan\n\nShip it on Friday.\n' });
    await expect(prompt.getByRole('heading')).toHaveText('Claude Desktop 1.0.0 wants to replace this file');
    await page.getByTestId('change-edit').click();
    const editor = page.getByTestId('change-editor');
    await expect(editor).toHaveValue('# Plan\n\nShip it on Friday.\n');
    await editor.fill('# Plan\n\nShip it on Monday, after review.\n');
    await expect(approve).toHaveText('Approve my edit');
    // Escape in the editor leaves it for Decline; it does not throw the edit away.
    await editor.press('Escape');
    await expect(page.getByTestId('change-decline')).toBeFocused();
    await expect(prompt).toBeVisible();
    await page.clock.runFor(600);
    await expect(approve).toBeEnabled();
    await shoot(page, '20-change-edit', { frozenClock: true });
    await approve.click();
    const r = await edited;
    expect(r.structuredContent).toMatchObject({ status: 'written', edited: true });
    expect(await readFile(path.join(dir, 'plan.md'), 'utf8')).toBe('# Plan\n\nShip it on Monday, after review.\n');
    await expect(prompt).toHaveCount(0);
  } finally {
    await page.clock.resume();
    await client.close();
  }

  // History: the changes, newest first, with Undo on the written ones.
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByLabel('Kind').selectOption('change');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.getByTestId('history-change-outcome')).toHaveText(['written', 'declined', 'declined', 'written']);
  await expect(rows.nth(0).getByTestId('history-change-detail')).toContainText('replaced');
  await expect(rows.nth(0).getByTestId('history-change-detail')).toContainText('edited by you');
  await expect(rows.nth(2).getByTestId('history-change-detail')).toContainText('new file');
  await expect(rows.nth(3)).toContainText('notes.md');
  await expect(rows.nth(3).getByTestId('history-change-detail')).toContainText('+1 −1');
  await expect(rows.nth(1).getByTestId('history-undo')).toHaveCount(0);
  await shoot(page, '21-history-changes');

  // Undo the approved edit of notes.md: the file is as it was, and the row says undone.
  await rows.nth(3).getByTestId('history-undo').click();
  await expect(page.getByRole('status')).toContainText('Undone: notes.md is as it was before the change');
  await expect(rows.nth(3).getByTestId('history-undo-state')).toHaveText('undone');
  await expect(rows.nth(3).getByTestId('history-undo')).toHaveCount(0);
  expect(await readFile(path.join(dir, 'notes.md'), 'utf8')).toBe(NOTES);
});

test('a large diff comes a page at a time with the unchanged runs folded; the prompt moves on when the client cancels', async ({ page, shelf }) => {
  // 46 lines changed, each 20 lines apart: 46 hunks (more than a page of 40), 13 unchanged lines folded between each two.
  const lines = Array.from({ length: 920 }, (_, i) => `line ${i + 1}`);
  const big = path.join(dir, 'big.txt');
  await writeFile(big, `${lines.join('\n')}\n`);
  await page.goto(shelf.url);
  await allowChanges(page);
  const client = await connectSdkClient(shelf.socketPath, 'Cursor');
  const changed = lines.map((l, i) => (i % 20 === 10 ? `${l} (changed)` : l));
  const text = `${changed.join('\n')}\n`;
  // The core gives its diff a time bound (past it, one hunk of the whole text): a dry run first warms the server's
  // diff up, so the proposal's own diff is not the first the process makes.
  expect((await call(client, 'write_resource', { uri: uriOf(dir, 'big.txt'), text, dryRun: true })).isError).toBeFalsy();
  const abort = new AbortController();
  const pending = client
    .callTool({ name: 'write_resource', arguments: { uri: uriOf(dir, 'big.txt'), text } }, undefined, { signal: abort.signal })
    .catch((e: Error) => e);
  const prompt = page.getByTestId('change-prompt');
  await expect(prompt.getByRole('heading')).toHaveText('Cursor 1.0.0 wants to replace this file');
  await expect(page.getByTestId('change-facts')).toContainText('+46 −46 lines');
  const diff = page.getByTestId('diff');
  await expect(diff.locator('tr[data-op="+"]')).toHaveCount(40);
  // Lines 1–7 are folded before the first hunk (it starts three lines above line 11), 13 between each two.
  await expect(diff.getByTestId('diff-fold').first()).toHaveText('⋯ 7 unchanged lines');
  await expect(diff.getByTestId('diff-fold').nth(1)).toHaveText('⋯ 13 unchanged lines');
  await page.getByTestId('change-more').click();
  await expect(diff.locator('tr[data-op="+"]')).toHaveCount(46);
  await expect(page.getByTestId('change-more')).toHaveCount(0);
  await expect(diff.locator('tr[data-op="+"]').last()).toContainText('line 911 (changed)');

  // The client cancels its call while the change waits: the prompt moves on, and nothing is written.
  abort.abort();
  await expect(prompt).toHaveCount(0);
  expect(await pending).toBeInstanceOf(Error);
  await client.close();
  expect(await readFile(big, 'utf8')).toBe(`${lines.join('\n')}\n`);
});
