import { rm } from 'node:fs/promises';

import { makeTree } from '../../test/support/fixtures.js';
import { expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Markdown as people write it: GFM tables, highlighted code, relative images and links, a toggle that stays usable on a long page. */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAKUlEQVR42mNkYPhfz0AEYBxVSF+FjIyM/4lRyDiqkL4KR8NhVCF9FQIAT6sP8dYf2qIAAAAASUVORK5CYII=',
  'base64',
);
let root: string;

test.beforeEach(async () => {
  const long = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of a long document.`).join('\n\n');
  root = await makeTree(
    {
      'docs/guide.md': [
        '# Guide',
        '',
        '| Option | Default |',
        '|---|---|',
        '| `--ui` | off |',
        '',
        '```ts',
        'export const answer: number = 42;',
        '```',
        '',
        '![logo](../assets/logo.png)',
        '',
        'See [the notes](notes.md) or [the site](https://example.com).',
        '',
        long,
      ].join('\n'),
      'docs/notes.md': '# Notes\n\nLinked from the guide.\n',
      'assets/logo.png': PNG,
    },
    'e2e-md-',
  );
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('tables, highlighted code, a relative image and links; the Rendered/Source toggle stays visible on a long page', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await page.getByRole('treeitem', { name: /^docs/ }).click();
  await page.getByTestId('file-row').filter({ hasText: 'guide.md' }).click();
  const md = page.getByTestId('markdown-view');
  await expect(md.locator('table th').first()).toHaveText('Option');
  await expect(md.locator('.hljs-keyword').first()).toHaveText('export');
  const img = md.getByRole('img', { name: 'logo' });
  await expect(img).toBeVisible();
  expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(16);
  await expect(md.getByRole('link', { name: 'the site' })).toHaveAttribute('target', '_blank');
  const source = page.getByRole('button', { name: 'Source' });
  const box = await source.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThan(15);
  await shoot(page, '13-markdown');
  await md.getByRole('link', { name: 'the notes' }).click();
  await expect(page.getByTestId('resource-uri')).toHaveText(/docs\/notes\.md$/);
  expect(page.url()).toBe(shelf.url.replace(/#.*$/, ''));
});
