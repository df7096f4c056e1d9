import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { plantedEslint } from '../../support/plantedEslint.js';

/** No module in electron/ or shared/ grows past 450 lines (comments and blank lines count): lint refuses it. */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = plantedEslint();

async function maxLinesErrors(file: string, lines: number): Promise<string[]> {
  const code = Array.from({ length: lines }, (_, i) => (i % 3 === 0 ? '// a comment' : i % 3 === 1 ? '' : `export const x${i} = ${i};`)).join('\n');
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'max-lines').map((m) => m.message);
}

describe('the module size rule', () => {
  it.each(['electron/core/library/planted.ts', 'electron/cli/planted.ts', 'shared/planted.ts'])('refuses 451 lines in %s', async (file) => {
    expect((await maxLinesErrors(file, 451)).join('\n')).toMatch(/too many lines \(451\)\. Maximum allowed is 450/);
  });

  it('allows 450', async () => {
    expect(await maxLinesErrors('electron/core/library/planted.ts', 450)).toEqual([]);
  });
});
