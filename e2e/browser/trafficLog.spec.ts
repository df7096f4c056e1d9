import { rm } from 'node:fs/promises';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { connectWebApiAt } from '../../test/support/webApi.js';
import { expect, test } from './shelfFixture.js';

/** The traffic log is a window of the last messages, and says so: what it shows is what it exports, and what it dropped is counted. */

let root: string;
test.beforeEach(async () => {
  root = await makeTree({ 'a.txt': 'alpha' }, 'e2e-log-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('past its bound the log says how many older messages it dropped; export says what it wrote', async ({ page, shelf }) => {
  const api = await connectWebApiAt(shelf.url);
  await api.call('addFolders', [root]);
  await api.call('updateSettings', { log: { maxEntries: 100 } });
  await api.close();
  const client = await connectSdkClient(shelf.socketPath, 'chatty');
  try {
    for (let i = 0; i < 80; i++) await client.readResource({ uri: uriOf(root, 'a.txt') });
  } finally {
    await client.close();
  }
  await page.goto(shelf.url);
  await page.getByRole('tab', { name: /Traffic/ }).click();
  await expect(page.getByTestId('traffic-dropped')).toContainText(/Showing the last 100 messages: \d+ older ones were dropped \(the log keeps 100 messages/);
  await expect(page.getByRole('tab', { name: /Traffic/ })).toContainText('100');
  await page.getByRole('button', { name: 'Export JSONL' }).click();
  await expect(page.getByRole('status')).toContainText(/Exported the last 100 messages; \d+ older ones were dropped/);
});
