import { rm } from 'node:fs/promises';

import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { askBeforeRead, expect, publishByPath, shoot, test } from './shelfFixture.js';

/** A tool read denied at the prompt is a failure in Traffic: shown as failed, and kept by "Errors only". */

let root: string;
test.beforeEach(async () => {
  root = await makeTree({ 'diary.md': '# Private\n' }, 'e2e-tool-error-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a read_resource tool call denied at the prompt shows as failed and stays under Errors only', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await askBeforeRead(page, root);
  const client = await connectSdkClient(shelf.socketPath, 'Denied Tester');
  try {
    const call = client.callTool({ name: 'read_resource', arguments: { uri: uriOf(root, 'diary.md') } });
    await expect(page.getByTestId('ask-path')).toHaveText('diary.md');
    // Armed (a click in the prompt's first moments is not taken): the allow buttons are enabled.
    await expect(page.getByTestId('ask-allow-once')).toBeEnabled();
    await page.getByTestId('ask-deny').click();
    expect(await call).toMatchObject({ isError: true });
  } finally {
    await client.close();
  }
  await page.getByRole('tab', { name: /^Traffic/ }).click();
  const answer = page.getByTestId('traffic-row').filter({ hasText: 'tools/call' }).filter({ hasText: 'failed' });
  await expect(answer).toHaveCount(1);
  await page.getByLabel('Errors only').check();
  await expect(answer).toHaveCount(1);
  await shoot(page, '40-traffic-tool-denied');
});
