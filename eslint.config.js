// @ts-check
import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers of ARCHITECTURE.md and what each may import. One table: a
 * layer lists the layers it may use; everything else is refused with a
 * message that points to the document.
 */
const WHY = 'see ARCHITECTURE.md, "Layers"';
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'net', 'http', 'https', 'child_process', 'stream', 'url', 'util', 'crypto', 'events', 'buffer'];
const LAYERS = {
  shared: { files: ['shared/**/*.ts'], dir: 'shared', may: [], node: false, electron: false },
  renderer: { files: ['renderer/**/*.{ts,tsx}'], dir: 'renderer', may: ['shared'], node: false, electron: false },
  core: { files: ['electron/core/**/*.ts'], dir: 'electron/core', may: ['shared'], node: true, electron: false },
  cli: { files: ['electron/cli/**/*.ts'], dir: 'electron/cli', may: ['shared', 'core'], node: true, electron: false },
  desktop: { files: ['electron/desktop/**/*.ts'], dir: 'electron/desktop', may: ['shared', 'core'], node: true, electron: true },
};

/**
 * The table's rules for one layer. Which layers it may use is checked on the
 * resolved path of every import (import-x/no-restricted-paths), so a relative
 * import into another layer is refused however it is spelled; Node and
 * Electron, which are module names, by no-restricted-imports.
 */
function layerZones(name) {
  const layer = LAYERS[name];
  return Object.entries(LAYERS)
    .filter(([other]) => other !== name && !layer.may.includes(other))
    .map(([other, o]) => ({ target: `./${layer.dir}`, from: `./${o.dir}`, message: `${name} may not import ${other} (${WHY}).` }));
}

function layerRules(name) {
  const layer = LAYERS[name];
  const zones = layerZones(name);
  const patterns = [];
  if (!layer.node) patterns.push({ group: nodeBuiltins, message: `${name} runs without Node (${WHY}).` });
  if (!layer.electron) patterns.push({ group: ['electron'], message: `only electron/desktop may import electron (${WHY}).` });
  return {
    files: layer.files,
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }],
      ...(patterns.length > 0 ? { 'no-restricted-imports': ['error', { patterns }] } : {}),
    },
  };
}

/**
 * core/ is a strict stack, lowest first (ARCHITECTURE.md, "The core's
 * stack"): a folder may import only folders on rows below its own, never
 * one on its row or above. Every folder of core must stand on a row, so a
 * new one is placed before anything can import it.
 */
const CORE_STACK = [
  ['base'],
  ['clientMemory', 'background'],
  ['transport', 'traffic', 'documents'],
  ['library'],
  ['delivery', 'search'],
  ['access'],
  ['changes'],
  ['mcp'],
  ['settings', 'clientSetup'],
  ['service'],
  ['webhost'],
];
const STACK_WHY = 'see ARCHITECTURE.md, "The core\'s stack"';

const coreFolders = readdirSync(new URL('./electron/core', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const unplaced = coreFolders.filter((f) => !CORE_STACK.flat().includes(f));
if (unplaced.length > 0) throw new Error(`eslint.config.js: electron/core/${unplaced.join(', ')} is on no row of CORE_STACK; place it (${STACK_WHY})`);

/** One zone per folder and each folder on its row or above: imports running sideways or up the stack are refused. */
function coreStackRule() {
  const zones = CORE_STACK.flatMap((row, level) =>
    row.flatMap((folder) =>
      CORE_STACK.slice(level)
        .flat()
        .filter((other) => other !== folder)
        .map((other) => ({
          target: `./electron/core/${folder}`,
          from: `./electron/core/${other}`,
          message: `core/${folder} may not import core/${other}: ${CORE_STACK.findIndex((r) => r.includes(other)) === level ? 'they share a row of' : 'it stands higher in'} the core's stack (${STACK_WHY}).`,
        })),
    ),
  );
  return {
    files: ['electron/core/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...layerZones('core'), ...zones] }] },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'results/**', 'test-results/**', 'playwright-report/**', 'bench/.data/**', '.venv-py/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'simple-import-sort': simpleImportSort, 'import-x': importX },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  ...Object.keys(LAYERS).map(layerRules),
  coreStackRule(),
  {
    // A module is one responsibility: past 450 lines (blank lines and comments count) it is split by what its parts do.
    files: ['electron/**/*.ts', 'shared/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }] },
  },
  {
    // A promise nobody awaits or catches loses its failure (issue 37: errors vanished unreported); a switch over a
    // union must name every member, so a new outcome or kind cannot fall through unhandled.
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
