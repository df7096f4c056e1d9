import net from 'node:net';

import { expect, test } from './shelfFixture.js';

/** The settings sheet covers what settings.json holds, round trip; a value the server refuses is reported and not saved. */

test('settings round trip: change, apply, reopen; a port in use is refused with the reason', async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await page.getByTestId('open-settings').click();
  const sheet = page.getByTestId('settings-sheet');
  await expect(sheet.getByLabel('Largest file a client may read')).toBeFocused();
  await expect(sheet.getByLabel('Largest file a client may read')).toHaveValue('7');
  await sheet.getByLabel('Largest file a client may read').fill('2');
  await sheet.getByLabel(/Offer the read-only tools/).uncheck();
  await sheet.getByLabel('Traffic log keeps').fill('500');
  await sheet.getByLabel('An ask-before-read waits').fill('30');
  await sheet.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status')).toContainText('Settings saved');
  await expect(sheet).toHaveCount(0);

  await page.reload();
  await page.getByTestId('open-settings').click();
  await expect(sheet.getByLabel('Largest file a client may read')).toHaveValue('2');
  await expect(sheet.getByLabel(/Offer the read-only tools/)).not.toBeChecked();
  await expect(sheet.getByLabel('Traffic log keeps')).toHaveValue('500');
  await expect(sheet.getByLabel('An ask-before-read waits')).toHaveValue('30');

  // A port someone else holds: the server says so, and HTTP stays off.
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    await sheet.getByLabel(/Serve MCP over HTTP/).check();
    await sheet.getByLabel('Port').fill(String(port));
    await sheet.getByRole('button', { name: 'Apply' }).click();
    await expect(sheet.getByRole('alert')).toContainText('HTTP settings not applied');
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('open-settings').click();
    await expect(sheet.getByLabel(/Serve MCP over HTTP/)).not.toBeChecked();
  } finally {
    blocker.close();
  }
});
