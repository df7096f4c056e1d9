import path from 'node:path';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer table of ARCHITECTURE.md holds on resolved paths: an import into
 * a layer one may not use is refused however it is spelled (the rule used to
 * match import text, and relative imports from core into desktop slipped by).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layer rule', () => {
  it.each([
    [
      'core → desktop, relative',
      'electron/core/settings/planted.ts',
      "import { isAppUrl } from '../../desktop/windowOptions.js';\nexport const x = isAppUrl;\n",
      /core may not import desktop/,
    ],
    [
      'core → cli, relative',
      'electron/core/planted.ts',
      "import { openBrowser } from '../cli/openBrowser.js';\nexport const x = openBrowser;\n",
      /core may not import cli/,
    ],
    ['shared → core', 'shared/planted.ts', "import { VERSION } from '../electron/core/version.js';\nexport const x = VERSION;\n", /shared may not import core/],
    [
      'renderer → core',
      'renderer/src/planted.ts',
      "import { VERSION } from '../../electron/core/version.js';\nexport const x = VERSION;\n",
      /renderer may not import core/,
    ],
    [
      'cli → desktop',
      'electron/cli/planted.ts',
      "import { isAppUrl } from '../desktop/windowOptions.js';\nexport const x = isAppUrl;\n",
      /cli may not import desktop/,
    ],
  ])('refuses %s', async (_name, file, code, message) => {
    expect((await layerErrors(file, code)).join('\n')).toMatch(message);
  });

  it('allows what the table allows: desktop → core, cli → core, core → shared', async () => {
    expect(await layerErrors('electron/desktop/planted.ts', "import { VERSION } from '../core/version.js';\nexport const x = VERSION;\n")).toEqual([]);
    expect(await layerErrors('electron/cli/planted.ts', "import { VERSION } from '../core/version.js';\nexport const x = VERSION;\n")).toEqual([]);
    expect(await layerErrors('electron/core/planted.ts', "import { ErrorCodes } from '../../shared/errorCodes.js';\nexport const x = ErrorCodes;\n")).toEqual(
      [],
    );
  });
});
