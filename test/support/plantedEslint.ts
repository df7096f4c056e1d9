import path from 'node:path';

import { ESLint } from 'eslint';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * ESLint with the repo's config, for files a test plants by name (lintText):
 * they do not exist, so no TypeScript project holds them, and the
 * type-aware rules (which need one) are off.
 */
export function plantedEslint(): ESLint {
  return new ESLint({
    cwd: ROOT,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        '@typescript-eslint/switch-exhaustiveness-check': 'off',
      },
    },
  });
}
