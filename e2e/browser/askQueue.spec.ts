import { rm } from 'node:fs/promises';

import { ARM_DELAY_MS } from '../../renderer/src/access/armDelay.js';
import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { connectSdkClient } from '../../test/support/shelfProcess.js';
import { askBeforeRead, expect, publishByPath, shoot, test } from './shelfFixture.js';

/** Asks that wait behind another: each counts down to its own deadline. */

let root: string;
test.beforeEach(async () => {
  root = await makeTree({ 'one.md': '# One\n', 'two.md': '# Two\n' }, 'e2e-ask-queue-');
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('the second of two asks shows the time it has left, not its whole timeout again', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await publishByPath(page, root);
  await expect(page.getByTestId('folder-card')).toContainText('Watching');
  await askBeforeRead(page, root);
  await expect(page.locator('.toast')).toHaveCount(0);
  // The page's clock stands still and moves only as the test says (the server's own deadline is real: 60 s, not reached).
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 100));
  const client = await connectSdkClient(shelf.socketPath, 'Queue Tester');
  try {
    const first = client.readResource({ uri: uriOf(root, 'one.md') }).catch((e: unknown) => e);
    const prompt = page.getByRole('alertdialog');
    await expect(page.getByTestId('ask-path')).toHaveText('one.md');
    const second = client.readResource({ uri: uriOf(root, 'two.md') }).catch((e: unknown) => e);
    await expect(prompt).toContainText('1 more read is waiting');
    await expect(prompt).toContainText('denied in 60 s.');
    await page.clock.runFor(40_000);
    await expect(prompt).toContainText('denied in 20 s.');
    await page.getByTestId('ask-deny').click();
    // Denied by the click, not by the server's 60 s deadline.
    expect(await first).toMatchObject({ data: { reason: 'denied' } });
    await expect(page.getByTestId('ask-path')).toHaveText('two.md');
    // It came with the first: 40 s of its 60 are gone.
    await expect(prompt).toContainText(/denied in 2\d s\./);
    await shoot(page, '40-ask-queued', { frozenClock: true });
    // The prompt arms its buttons ARM_DELAY_MS after it shows a new ask (on the page's clock, which stands still here).
    await page.clock.runFor(ARM_DELAY_MS + 100);
    await page.getByTestId('ask-deny').click();
    expect(await second).toMatchObject({ data: { reason: 'denied' } });
  } finally {
    await page.clock.resume();
    await client.close();
  }
});
