import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { docx } from '../../test/support/documents.js';
import { makeTree } from '../../test/support/fixtures.js';
import { seriousViolations } from './axeCheck.js';
import { expect, shoot, test } from './shelfFixture.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

/**
 * The Compatibility Doctor in the Connect panel, against a fake home: a
 * Cursor that has no config yet (red, with a one-click fix that writes it,
 * then green end to end) and a Gemini CLI whose entry names a command that
 * does not exist (red, and left as it is).
 */
test('the Connect panel’s Doctor shows each client red or green per step, and its one-click fix makes Cursor work', async ({ page, startShelf }) => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'doctor-home-'));
  const folder = await makeTree({ 'notes.txt': 'hello\n', 'photo.png': PNG, 'report.docx': await docx(['Quarterly figures']) });
  try {
    await mkdir(path.join(home, '.cursor'), { recursive: true });
    const gemini = path.join(home, '.gemini', 'settings.json');
    await mkdir(path.dirname(gemini), { recursive: true });
    const broken = JSON.stringify({ theme: 'x', mcpServers: { 'mcp-shelf': { command: 'no-such-mcp-shelf-command', args: ['connect'] } } });
    await writeFile(gemini, broken);
    const shelf = await startShelf([folder], { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });
    await page.goto(shelf.url);
    await page.getByRole('tab', { name: 'Connect a client' }).click();
    await page.getByRole('button', { name: 'Check my clients' }).click();

    const cursor = page.getByTestId('doctor-cursor');
    await expect(cursor).toContainText('needs a fix');
    await expect(cursor).toContainText('does not exist');
    const geminiCard = page.getByTestId('doctor-gemini-cli');
    await expect(geminiCard).toContainText('no-such-mcp-shelf-command is not on PATH');
    expect(await seriousViolations(page, 'doctor, red')).toEqual([]);
    await shoot(page, '20-doctor-red');

    await cursor.getByRole('button', { name: 'Rewrite the entry' }).click();
    await expect(cursor).toContainText('works', { timeout: 30_000 });
    for (const step of [
      'Connects (initialize, 2025-11-25)',
      'Lists the published files',
      'Reads a file',
      'An image through read_resource',
      'A document through read_resource',
    ]) {
      await expect(cursor.locator('.doctor-step.pass', { hasText: step })).toBeVisible();
    }
    await expect(cursor).toContainText('tools only');
    const written = JSON.parse(await readFile(path.join(home, '.cursor', 'mcp.json'), 'utf8')) as { mcpServers: Record<string, { args: string[] }> };
    expect(written.mcpServers['mcp-shelf']?.args).toContain(shelf.socketPath);
    // The Doctor and the fix of another client left Gemini's file as it was.
    expect(await readFile(gemini, 'utf8')).toBe(broken);
    expect(await seriousViolations(page, 'doctor, green')).toEqual([]);
    await shoot(page, '21-doctor-fixed');
  } finally {
    await rm(home, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  }
});
