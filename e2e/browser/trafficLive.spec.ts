import { rm } from 'node:fs/promises';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { RawClient } from '../../test/support/rawClient.js';
import { connectWebApiAt } from '../../test/support/webApi.js';
import { expect, shoot, test } from './shelfFixture.js';

/**
 * Live Traffic carries rows without payloads (issue 30): the list, its text
 * search (inside the messages' JSON, asked of the host) and an opened
 * message's JSON (fetched when opened) still work as before; a flood the
 * live batches leave out is said, and a pause shows all of it.
 */

let root: string;
test.beforeEach(async () => {
  root = await makeTree({ 'plan.md': 'the quarterly plan, word for word', 'other.md': 'nothing to see' }, 'e2e-live-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('text search finds words only a reply holds; opening the row shows its JSON, fetched from the log', async ({ page, shelf }) => {
  const api = await connectWebApiAt(shelf.url);
  await api.call('addFolders', [root]);
  await api.close();
  await page.goto(shelf.url);
  await page.getByRole('tab', { name: /Traffic/ }).click();
  const raw = await RawClient.initialized(shelf.socketPath);
  try {
    await raw.request('resources/read', { uri: uriOf(root, 'plan.md') });
    await raw.request('resources/read', { uri: uriOf(root, 'other.md') });
    const reads = page.getByTestId('traffic-row').filter({ hasText: 'resources/read' });
    await expect(reads).toHaveCount(2);
    await page.getByLabel('Search messages').fill('Quarterly PLAN');
    await expect(page.getByTestId('traffic-row')).toHaveCount(1);
    await expect(page.getByTestId('traffic-target')).toHaveText(`${root}/plan.md`);
    await page.getByTestId('traffic-row').click();
    const detail = page.getByTestId('traffic-detail');
    await expect(detail.locator('.detail-pane').nth(1)).toContainText('"text": "the quarterly plan, word for word"');
    await expect(detail.getByRole('button', { name: /^Copy response/ })).toBeVisible();
    await shoot(page, '41-traffic-search-detail');
    await page.getByLabel('Search messages').fill('');
    await expect(reads).toHaveCount(2);
  } finally {
    raw.close();
  }
});

test('a flood faster than the live batches is said, and Pause shows every message the log holds', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await page.getByRole('tab', { name: /Traffic/ }).click();
  const raw = await RawClient.initialized(shelf.socketPath);
  try {
    const skipped = page.getByTestId('traffic-skipped');
    // Bursts of pings until one outruns the live batches (1,000 rows a fifth of a second); a slow machine needs more.
    for (let burst = 0; burst < 20 && !(await skipped.isVisible()); burst++) {
      const ids = Array.from({ length: 5000 }, (_, i) => burst * 5000 + i);
      raw.send(ids.map((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`).join(''));
      await raw.waitFor((m) => m.id === ids.at(-1), 60_000);
      await page.waitForTimeout(300); // the last batch
    }
    await expect(skipped).toContainText(/[\d,]+ messages came faster than the list shows them live/);
    await shoot(page, '40-traffic-flood');
    const status = await (async () => {
      const api = await connectWebApiAt(shelf.url);
      try {
        return await api.call('getStatus');
      } finally {
        await api.close();
      }
    })();
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(skipped).toHaveCount(0);
    // The tab counts what the list holds: every message the log held when paused (or more, as the log grew).
    const tabCount = async () => Number(((await page.getByRole('tab', { name: /Traffic/ }).textContent()) ?? '').replace(/\D/g, ''));
    await expect.poll(tabCount).toBeGreaterThanOrEqual(Math.min(status.traffic.entries, status.traffic.maxEntries));
  } finally {
    raw.close();
  }
});
