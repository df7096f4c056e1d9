// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * The layering (README, Development), enforced: shared/ is pure TypeScript; the
 * renderer sees only renderer/ and shared/; only main, preload and ipc may
 * import electron; electron/ never imports the renderer.
 */
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'net', 'http', 'https', 'child_process', 'stream', 'url', 'util', 'crypto', 'events', 'buffer'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'results/**', 'test-results/**', 'playwright-report/**', 'bench/.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: [...nodeBuiltins, 'electron', '**/electron/**', '**/renderer/**', 'react', 'react-dom'], message: 'shared/ is pure TypeScript: no Node, DOM or Electron.' }] },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: [...nodeBuiltins, 'electron', '**/electron/**'], message: 'The renderer talks only to ShelfApi (renderer/ and shared/).' }] },
      ],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts', 'electron/ipc.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['electron', '**/renderer/**'], message: 'Only main.ts, preload.ts and ipc.ts may import electron; electron/ never imports the renderer.' }] },
      ],
    },
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts', 'electron/ipc.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer.' }] }],
    },
  },
);
