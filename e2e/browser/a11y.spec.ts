import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { docx, pdfWithText } from '../../test/support/documents.js';
import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { seriousViolations } from './axeCheck.js';
import { expect, publishByPath, test } from './shelfFixture.js';

// Each test runs axe over many views in two themes (minutes on a loaded machine): a deadline for a failure, not a
// speed target. The tests are independent (a server each), so they spread over the workers rather than end the run alone.
test.describe.configure({ timeout: 300_000, mode: 'parallel' });

/** axe-core over every view, light and dark: no critical or serious violation. */

let root: string;
test.beforeEach(async () => {
  root = await makeTree(
    {
      'src/app.ts': "// the entry point\nexport const greeting: string = 'hello';\nconsole.log(greeting, 42);\n",
      'docs/readme.md': '# Readme\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n`code` and **bold**\n',
      'data.bin': Buffer.from([0, 1, 2, 3, 255]),
    },
    'e2e-a11y-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('every view has no critical or serious accessibility violation, in light and dark', async ({ page, shelf }) => {
  const problems: string[] = [];
  await page.goto(shelf.url);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'empty')));

  await publishByPath(page, root);
  await page.getByRole('treeitem', { name: /^src/ }).click();
  await page.getByTestId('file-row').filter({ hasText: 'app.ts' }).click();
  await expect(page.getByTestId('code-view')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'preview: code')));
  await page.getByRole('treeitem', { name: /^docs/ }).click();
  await page.getByTestId('file-row').filter({ hasText: 'readme.md' }).click();
  await expect(page.getByTestId('markdown-view')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'preview: markdown')));
  await page.getByTestId('file-row').filter({ hasText: 'data.bin' }).click();
  await expect(page.getByTestId('hex-view')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'preview: hex')));

  const client = await connectSdkClient(shelf.socketPath, 'a11y-client');
  try {
    await client.readResource({ uri: uriOf(root, 'src/app.ts') });
    await client.readResource({ uri: uriOf(root, 'nope.txt') }).catch(() => undefined);
    await page.getByRole('tab', { name: /Traffic/ }).click();
    await page.getByTestId('traffic-row').filter({ hasText: 'resources/read' }).first().click();
    problems.push(...(await seriousViolations(page, 'traffic')));
    await page.getByRole('tab', { name: /Clients/ }).click();
    problems.push(...(await seriousViolations(page, 'clients')));
  } finally {
    await client.close();
  }
  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Search file contents').fill('greeting');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  problems.push(...(await seriousViolations(page, 'search')));
  await page.getByRole('tab', { name: /History/ }).click();
  await expect(page.getByTestId('history-row').first()).toBeVisible();
  problems.push(...(await seriousViolations(page, 'history')));
  await page.getByRole('tab', { name: 'Connect a client' }).click();
  problems.push(...(await seriousViolations(page, 'connect')));
  await page.getByRole('button', { name: `Options of ${path.basename(root)}` }).click();
  problems.push(...(await seriousViolations(page, 'folder options')));

  expect(problems).toEqual([]);
});

test('a PDF’s preview and a tree filter that matches nothing have no critical or serious violation', async ({ page, shelf }) => {
  await writeFile(path.join(root, 'report.pdf'), await pdfWithText(['Quarterly report']));
  const problems: string[] = [];
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByTestId('file-row').filter({ hasText: 'report.pdf' }).click();
  await expect(page.getByTestId('pdf-view')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'preview: pdf')));
  await page.getByLabel('Filter files').fill('zzzznothing');
  await expect(page.getByText('No file matches the filter.')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'tree: no match')));
  expect(problems).toEqual([]);
});

test('empty and no-result states, the ask prompt, a task list, a document’s text, the opened folder row and the path problem have no critical or serious violation either', async ({
  page,
  shelf,
}) => {
  test.slow(); // axe runs 24 times here
  const problems: string[] = [];
  await page.goto(shelf.url);
  // Every tab before any folder: empty states.
  for (const tab of ['Search', /Traffic/, /History/, /Clients/, 'Connect a client']) {
    await page.getByRole('tab', { name: tab }).click();
    problems.push(...(await seriousViolations(page, `empty ${String(tab)}`)));
  }
  await page.getByRole('tab', { name: 'Preview' }).click();
  await publishByPath(page, 'relative/path');
  await expect(page.getByTestId('path-problem')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'path problem')));

  await writeFile(path.join(root, 'tasks.md'), '# Tasks\n\n- [x] write the tests\n- [ ] ship it\n');
  await writeFile(path.join(root, 'minutes.docx'), await docx(['Committee minutes']));
  await publishByPath(page, root);
  await page.getByTestId('file-row').filter({ hasText: 'tasks.md' }).click();
  await expect(page.getByTestId('markdown-view').getByRole('checkbox')).toHaveCount(2);
  problems.push(...(await seriousViolations(page, 'task list')));
  await page.getByTestId('file-row').filter({ hasText: 'minutes.docx' }).click();
  await expect(page.getByTestId('code-view')).toContainText('Committee minutes');
  problems.push(...(await seriousViolations(page, 'document text')));
  await page.getByTestId('folder-disclosure').click();
  problems.push(...(await seriousViolations(page, 'folder row opened')));

  // No-result states.
  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Search file contents').fill('zzzznothing');
  await expect(page.getByTestId('search-empty')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'search: no result')));
  await page.getByRole('tab', { name: /Traffic/ }).click();
  await page.getByLabel('Search messages').fill('zzzznothing');
  problems.push(...(await seriousViolations(page, 'traffic: no match')));
  await page.getByRole('tab', { name: /History/ }).click();
  await page.getByLabel('Outcome').selectOption('denied');
  await expect(page.getByTestId('history-empty')).toBeVisible();
  problems.push(...(await seriousViolations(page, 'history: no match')));

  // The ask prompt, over the window.
  await page.getByRole('button', { name: `Options of ${path.basename(root)}` }).click();
  await page.getByTestId('ask-before-read').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  const client = await connectSdkClient(shelf.socketPath, 'a11y-client');
  try {
    const read = client.readResource({ uri: uriOf(root, 'tasks.md') }).catch(() => undefined);
    await expect(page.getByRole('alertdialog')).toBeVisible();
    problems.push(...(await seriousViolations(page, 'ask prompt')));
    await expect(page.getByTestId('ask-allow-once')).toBeEnabled();
    await page.getByTestId('ask-deny').click();
    await read;
  } finally {
    await client.close();
  }
  expect(problems).toEqual([]);
});
