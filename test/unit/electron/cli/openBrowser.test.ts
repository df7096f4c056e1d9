import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { openBrowser } from '../../../../electron/cli/openBrowser.js';
import { eventually } from '../../../support/fixtures.js';
import { tempDirs } from '../../../support/tempDirs.js';

describe('openBrowser', () => {
  const tempDir = tempDirs('open-');
  const url = 'http://127.0.0.1:4321/#token=abc_DEF-123';
  const never = (reason: string) => {
    throw new Error(`no opener should have been started: ${reason}`);
  };

  it('BROWSER=none opens nothing; neither does Linux without a display', () => {
    expect(openBrowser(url, never, { BROWSER: 'none', DISPLAY: ':0' }, 'linux')).toBe('BROWSER=none');
    expect(openBrowser(url, never, {}, 'linux')).toBe('no display');
  });

  it('BROWSER names the program, which gets the whole address (its #token too)', async () => {
    const dir = await tempDir();
    const opened = path.join(dir, 'opened.txt');
    const browser = path.join(dir, 'browser.sh');
    await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    await chmod(browser, 0o755);
    expect(openBrowser(url, never, { BROWSER: browser }, 'linux')).toBeNull();
    expect(await eventually(() => readFile(opened, 'utf8').catch(() => ''), 5000, 'the browser to be started')).toBe(url);
  });

  it('a browser that cannot be started is reported, not thrown', async () => {
    const reasons: string[] = [];
    expect(openBrowser(url, (r) => reasons.push(r), { BROWSER: '/no/such/browser' }, 'linux')).toBeNull();
    await eventually(() => reasons.length > 0, 5000, 'the failure to be reported');
    expect(reasons[0]).toMatch(/\/no\/such\/browser: .*ENOENT/);
  });
});
