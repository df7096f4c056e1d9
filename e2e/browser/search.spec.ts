import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { docx, pdfWithText } from '../../test/support/documents.js';
import { makeTree } from '../../test/support/fixtures.js';
import { connectWebApiAt } from '../../test/support/webApi.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Content search in the window: ranked hits with marked snippets, keyboard, and a jump to the line (in a document's text too). */

let root: string;

test.beforeEach(async () => {
  const filler = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the field guide`).join('\n');
  root = await makeTree(
    {
      'guide/otters.md': `# Otters\n\n${filler}\nSea otters hold hands while they sleep.\n`,
      'guide/rivers.md': '# Rivers\n\n**Note:** an otter was seen near the bridge.\n',
      'reports/survey.pdf': await pdfWithText(['Survey of the northern lakes', 'We counted twelve otters and one heron']),
      'minutes.docx': await docx(['Committee minutes', 'The otter sanctuary budget was approved.']),
    },
    'e2e-search-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('search file contents and documents, open a hit at its line', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await page.getByRole('tab', { name: 'Search' }).click();
  const box = page.getByLabel('Search file contents');
  await expect(box).toBeFocused();
  await expect(page.getByTestId('search-status')).toContainText('4 files indexed');
  await box.fill('otters');
  await expect(page.getByTestId('search-hit')).toHaveCount(2);
  const guide = page.getByTestId('search-hit').filter({ hasText: 'otters.md' });
  await expect(guide.locator('mark').first()).toHaveText(/otters/i);
  await expect(page.getByTestId('search-hit').filter({ hasText: 'survey.pdf' })).toContainText('document text');
  await box.fill('otter*');
  await expect(page.getByTestId('search-hit')).toHaveCount(4);
  // The file's own **bold** shows as written; only the match is marked.
  const rivers = page.getByTestId('search-hit').filter({ hasText: 'rivers.md' });
  await expect(rivers).toContainText('**Note:** an otter was seen');
  await expect(rivers.locator('mark')).toHaveText(['otter']);
  await shoot(page, '11-search');

  // Keyboard: ↓ then Enter opens the second hit; a phrase narrows to one document.
  await box.fill('"sanctuary budget"');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await box.press('Enter');
  await expect(page.getByTestId('resource-uri')).toContainText('minutes.docx');
  await expect(page.getByTestId('text-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('code-view')).toContainText('The otter sanctuary budget was approved.');
  await expect(page.getByTestId('focus-line')).toBeVisible();

  // A text file opens at the matching line, scrolled into view.
  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Search file contents').fill('hold hands');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await expect(page.getByTestId('search-hit')).toContainText('43');
  await page.getByTestId('search-hit').click();
  await expect(page.getByTestId('focus-line')).toBeInViewport();
  // The hit's word is found on its line: in the find box, counted, and marked in the text itself.
  await expect(page.getByLabel('Find in file')).toHaveValue('hold');
  await expect(page.getByTestId('find-count')).toHaveText('1 of 1');
  await expect(page.getByTestId('find-line')).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => [...(CSS.highlights.get('shelf-find-current') ?? [])].map((r) => (r as Range).toString()))).toEqual(['hold']);
  await shoot(page, '12-search-opened');
  // A smaller window keeps the found line in view.
  await page.setViewportSize({ width: 900, height: 560 });
  await expect(page.getByTestId('find-line')).toBeInViewport({ ratio: 1 });
  await page.setViewportSize({ width: 1280, height: 800 });

  // An edit on disk is found by its new words.
  await writeFile(path.join(root, 'guide/rivers.md'), '# Rivers\n\nA kingfisher was seen near the bridge.\n');
  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Search file contents').fill('kingfisher');
  await expect(page.getByTestId('search-hit')).toHaveCount(1); // the watcher, then the index: within expect's deadline
});

test('a hit clicked while the folder’s listing is still loading opens the file, not “no longer published”', async ({ page, shelf }) => {
  // Published before the page opens, and the page's listing replies held back: the tree stays empty, as in a big folder's first seconds.
  const api = await connectWebApiAt(shelf.url);
  try {
    await api.call('addFolders', [root]);
  } finally {
    await api.close();
  }
  const held = new Set<number>();
  await page.routeWebSocket(/\/api$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { id?: number; method?: string };
      if (frame.method === 'listResources' && typeof frame.id === 'number') held.add(frame.id);
      server.send(message);
    });
    server.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { type?: string; id?: number };
      if (frame.type === 'result' && typeof frame.id === 'number' && held.has(frame.id)) return;
      ws.send(message);
    });
  });
  await page.goto(shelf.url);
  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Search file contents').fill('sanctuary');
  await expect(page.getByTestId('search-hit')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId('file-row')).toHaveCount(0);
  await page.getByTestId('search-hit').click();
  await expect(page.getByTestId('resource-uri')).toContainText('minutes.docx');
  await expect(page.getByTestId('code-view')).toContainText('The otter sanctuary budget was approved.');
  await expect(page.locator('.toast')).toHaveCount(0);
});

test('back on the Search tab after opening a hit, the query, its results and the hit are still there', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByRole('tab', { name: 'Search' }).click();
  const box = page.getByLabel('Search file contents');
  await expect(page.getByTestId('search-status')).toContainText('4 files indexed');
  await box.fill('otter*');
  await expect(page.getByTestId('search-hit')).toHaveCount(4);
  await box.press('ArrowDown');
  await box.press('ArrowDown');
  const third = (await page.getByTestId('search-hit').nth(2).getAttribute('aria-selected')) === 'true';
  expect(third).toBe(true);
  const name = (await page.getByTestId('search-hit').nth(2).locator('.hit-name').textContent()) ?? '';
  await box.press('Enter');
  await expect(page.getByTestId('resource-uri')).toContainText(name.trim());
  await page.getByRole('tab', { name: 'Search' }).click();
  await expect(page.getByLabel('Search file contents')).toHaveValue('otter*');
  await expect(page.getByTestId('search-hit')).toHaveCount(4);
  await expect(page.getByTestId('search-hit').nth(2)).toHaveAttribute('aria-selected', 'true');
  // A new query starts at its first hit.
  await page.getByLabel('Search file contents').fill('hold hands');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await expect(page.getByTestId('search-hit').first()).toHaveAttribute('aria-selected', 'true');
});

test('Enter right after typing opens a hit of what was typed, not of the query before', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByRole('tab', { name: 'Search' }).click();
  await expect(page.getByTestId('search-status')).toContainText('4 files indexed');
  const box = page.getByLabel('Search file contents');
  await box.fill('sanctuary');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await expect(page.getByTestId('search-hit')).toContainText('minutes.docx');
  // Enter before the new query's results have come (typed and pressed a frame apart, as a quick typist does; Playwright's
  // own fill and press can be further apart than the search's debounce): the hit opened is the new query's.
  await box.evaluate(async (input: HTMLInputElement) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, 'heron');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(r));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  });
  await expect(page.getByTestId('resource-uri')).toContainText('survey.pdf');
});
