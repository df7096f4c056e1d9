import { rm } from 'node:fs/promises';

import { makeTree } from '../../test/support/fixtures.js';
import { eml, epub, mbox, notebook } from '../../test/support/formatDocuments.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** The formats people keep (EPUB, notebooks, mail) in the window: found by search in their text, previewed as text like the Office documents. */

let root: string;

test.beforeEach(async () => {
  const survey = eml({
    from: 'Ann Example <ann@example.com>',
    to: 'bob@example.com',
    subject: 'Heron survey',
    text: 'Two herons nested by the weir this spring.',
    attachment: { name: 'counts.pdf', bytes: Buffer.alloc(9000, 0x25) },
  });
  const reply = eml({ from: 'bob@example.com', to: 'ann@example.com', subject: 'Re: Heron survey', text: 'Good news; the kingfisher is back too.' });
  root = await makeTree(
    {
      'rivers.epub': epub([
        { title: 'The Source', paragraphs: ['A spring rises in the hills above the village.'] },
        { title: 'The Estuary', paragraphs: ['Where the river meets the sea, the kingfisher waits on a post.'] },
      ]),
      'census.ipynb': notebook('# Heron census\nCounted by hand from the hide.', 'counts = [3, 4]\nprint(sum(counts))\n', '7\n'),
      'survey.mbox': mbox([survey, reply]),
    },
    'e2e-formats-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('search finds words in a book and a mailbox; each opens as its text, chapters and messages marked', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await page.getByRole('tab', { name: 'Search' }).click();
  const box = page.getByLabel('Search file contents');
  await expect(page.getByTestId('search-status')).toContainText('3 files indexed');
  await box.fill('kingfisher');
  await expect(page.getByTestId('search-hit')).toHaveCount(2);
  for (const name of ['rivers.epub', 'survey.mbox']) await expect(page.getByTestId('search-hit').filter({ hasText: name })).toContainText('document text');
  await shoot(page, 'formats-search');

  await page.getByTestId('search-hit').filter({ hasText: 'rivers.epub' }).click();
  await expect(page.getByTestId('resource-uri')).toContainText('rivers.epub');
  await expect(page.getByTestId('text-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('code-view')).toContainText('--- Chapter 2 ---');
  await expect(page.getByTestId('code-view')).toContainText('the kingfisher waits on a post.');
  await expect(page.getByTestId('focus-line')).toBeVisible();
  await shoot(page, 'formats-epub-text');

  // A notebook, chosen from the files, opens on its text (its cells); the File view is its JSON.
  await page.getByTestId('file-row').filter({ hasText: 'census.ipynb' }).click();
  await expect(page.getByTestId('text-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('code-view')).toContainText('--- Cell 2 ---');
  await expect(page.getByTestId('code-view')).toContainText('print(sum(counts))');
  await expect(page.getByTestId('code-view')).not.toContainText('cell_type');
  await shoot(page, 'formats-notebook-text');
  await page.getByTestId('file-toggle').click();
  await expect(page.getByTestId('code-view')).toContainText('"cell_type"');

  // A mailbox opens on its messages.
  await page.getByTestId('file-row').filter({ hasText: 'survey.mbox' }).click();
  await expect(page.getByTestId('text-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('code-view')).toContainText('--- Message 2 ---');
  await expect(page.getByTestId('code-view')).toContainText('- counts.pdf (application/pdf, 9 KB)');
  await shoot(page, 'formats-mbox-text');
});
