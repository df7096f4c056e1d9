import { _electron as electron, expect, test } from '@playwright/test';

import { electronBinary } from '../../scripts/electron-binary.mjs';

const bin = electronBinary();

test('Electron: the window opens and shows the shelf (skipped where no Electron binary exists)', async () => {
  if (bin.path === null) {
    // Said loudly, not passed silently: this run did not exercise Electron.
    console.warn(`SKIPPED electron project: ${bin.reason}`);
    test.skip(true, `No Electron binary: ${bin.reason}`);
    return;
  }
  const app = await electron.launch({ executablePath: bin.path, args: ['.'] });
  try {
    const window = await app.firstWindow();
    await expect(window).toHaveTitle('MCP Shelf');
    const isolated = await window.evaluate(() => typeof (globalThis as { require?: unknown }).require === 'undefined');
    expect(isolated).toBe(true);
    const api = await window.evaluate(() => Object.keys((globalThis as unknown as { shelf: object }).shelf).sort());
    expect(api).toContain('listFolders');
  } finally {
    await app.close();
  }
});
