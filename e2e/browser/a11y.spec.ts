import { rm } from 'node:fs/promises';
import path from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { expect, publishByPath, test } from './shelfFixture.js';

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

async function violations(page: Page, view: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).analyze();
    for (const v of result.violations) {
      if (v.impact === 'critical' || v.impact === 'serious') {
        found.push(`${view} (${scheme}): ${v.id} — ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')}`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

test('every view has no critical or serious accessibility violation, in light and dark', async ({ page, shelf }) => {
  const problems: string[] = [];
  await page.goto(shelf.url);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  problems.push(...(await violations(page, 'empty')));

  await publishByPath(page, root);
  await page.getByRole('treeitem', { name: /^src/ }).click();
  await page.getByTestId('file-row').filter({ hasText: 'app.ts' }).click();
  await expect(page.getByTestId('code-view')).toBeVisible();
  problems.push(...(await violations(page, 'preview: code')));
  await page.getByRole('treeitem', { name: /^docs/ }).click();
  await page.getByTestId('file-row').filter({ hasText: 'readme.md' }).click();
  await expect(page.getByTestId('markdown-view')).toBeVisible();
  problems.push(...(await violations(page, 'preview: markdown')));
  await page.getByTestId('file-row').filter({ hasText: 'data.bin' }).click();
  await expect(page.getByTestId('hex-view')).toBeVisible();
  problems.push(...(await violations(page, 'preview: hex')));

  const client = await connectSdkClient(shelf.socketPath, 'a11y-client');
  try {
    await client.readResource({ uri: uriOf(root, 'src/app.ts') });
    await client.readResource({ uri: uriOf(root, 'nope.txt') }).catch(() => undefined);
    await page.getByRole('tab', { name: /Traffic/ }).click();
    await page.getByTestId('traffic-row').filter({ hasText: 'resources/read' }).first().click();
    problems.push(...(await violations(page, 'traffic')));
    await page.getByRole('tab', { name: /Clients/ }).click();
    problems.push(...(await violations(page, 'clients')));
  } finally {
    await client.close();
  }
  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Search file contents').fill('greeting');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  problems.push(...(await violations(page, 'search')));
  await page.getByRole('tab', { name: /History/ }).click();
  await expect(page.getByTestId('history-row').first()).toBeVisible();
  problems.push(...(await violations(page, 'history')));
  await page.getByRole('tab', { name: 'Connect a client' }).click();
  problems.push(...(await violations(page, 'connect')));
  await page.getByRole('button', { name: `Options of ${path.basename(root)}` }).click();
  problems.push(...(await violations(page, 'folder options')));

  expect(problems).toEqual([]);
});
