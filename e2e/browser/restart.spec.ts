import net from 'node:net';

import { expect, shoot, test } from './shelfFixture.js';

/** A shelf with other settings on the same port (a new key), an open tab says to open its address, and that address works. */

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

test('a tab outlives a restart: it says how to get back in, and the new address opens the shelf', async ({ page, startShelf }) => {
  const port = await freePort();
  const first = await startShelf(['--ui-port', String(port)]);
  await page.goto(first.url);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  first.proc.kill('SIGTERM');
  await new Promise((r) => first.proc.once('exit', r));
  const second = await startShelf(['--ui-port', String(port)]);
  // The old key is refused by the new run: after a few tries the tab says what to do instead of "Reconnecting…" forever.
  await expect(page.getByTestId('locked-state')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('locked-state')).toContainText('prints a different one');
  await page.goto(second.url);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByTestId('locked-state')).toHaveCount(0);
  // A reload keeps working (the key is in this tab's storage, not in the address).
  await page.reload();
  await expect(page.getByTestId('empty-state')).toBeVisible();
});

test('when the server stops, the tab says so and keeps trying (it is not a key the tab lacks)', async ({ page, shelf }) => {
  let attempts = 0;
  page.on('websocket', () => attempts++);
  await page.goto(shelf.url);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  shelf.proc.kill('SIGTERM');
  await new Promise((r) => (shelf.proc.exitCode !== null ? r(null) : shelf.proc.once('exit', r)));
  await expect(page.getByTestId('connection-state')).toHaveText('MCP Shelf stopped — reconnecting…');
  // Several tries later (the old tab locked itself after three), it still says the server stopped.
  const before = attempts;
  await expect.poll(() => attempts, { timeout: 60_000 }).toBeGreaterThanOrEqual(before + 4);
  await expect(page.getByTestId('connection-state')).toHaveText('MCP Shelf stopped — reconnecting…');
  await expect(page.getByTestId('locked')).toHaveCount(0);
  await shoot(page, '40-server-stopped');
});
