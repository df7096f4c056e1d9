import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { plantedEslint } from '../../support/plantedEslint.js';

/**
 * The layer table of ARCHITECTURE.md holds on resolved paths: an import into
 * a layer one may not use is refused however it is spelled (the rule used to
 * match import text, and relative imports from core into desktop slipped by).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = plantedEslint();

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

describe("the core's stack", () => {
  it.each([
    [
      'library → mcp (up)',
      'electron/core/library/planted.ts',
      "import { SERVER_INFO } from '../mcp/shelfServer.js';\nexport const x = SERVER_INFO;\n",
      /core\/library may not import core\/mcp: it stands higher in the core's stack/,
    ],
    [
      'transport → mcp (up)',
      'electron/core/transport/planted.ts',
      "import { McpHttp } from '../mcp/httpMcp.js';\nexport const x = McpHttp;\n",
      /core\/transport may not import core\/mcp/,
    ],
    [
      'base → library (up), spelled through the layer above',
      'electron/core/base/planted.ts',
      "import { Library } from '../../core/library/library.js';\nexport const x = Library;\n",
      /core\/base may not import core\/library/,
    ],
    [
      'delivery → search (the same row)',
      'electron/core/delivery/planted.ts',
      "import { Grep } from '../search/grep.js';\nexport const x = Grep;\n",
      /core\/delivery may not import core\/search: they share a row of the core's stack/,
    ],
  ])('refuses %s', async (_name, file, code, message) => {
    expect((await layerErrors(file, code)).join('\n')).toMatch(message);
  });

  it('allows imports down the stack, and keeps the layer table for core', async () => {
    expect(await layerErrors('electron/core/mcp/planted.ts', "import { Library } from '../library/library.js';\nexport const x = Library;\n")).toEqual([]);
    expect(
      await layerErrors('electron/core/library/planted.ts', "import { ShelfError } from '../base/shelfError.js';\nexport const x = ShelfError;\n"),
    ).toEqual([]);
    expect(
      (await layerErrors('electron/core/library/planted.ts', "import { isAppUrl } from '../../desktop/windowOptions.js';\nexport const x = isAppUrl;\n")).join(
        '\n',
      ),
    ).toMatch(/core may not import desktop/);
  });
});
