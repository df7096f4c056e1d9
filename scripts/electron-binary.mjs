// Finds the Electron binary without triggering electron's lazy download
// (which needs GitHub, unreachable on some machines).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** @returns {{ path: string } | { path: null, reason: string }} */
export function electronBinary() {
  const require = createRequire(import.meta.url);
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'the electron package is not installed (run npm install)' };
  }
  const pathFile = path.join(dir, 'path.txt');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!existsSync(pathFile) && !override) {
    return {
      path: null,
      reason:
        'no Electron binary is installed: electron downloads it from GitHub on first use, and this machine cannot reach GitHub. ' +
        'The headless server and the same window in a browser work without it: npm run serve -- --ui FOLDER',
    };
  }
  const rel = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const exe = override ? path.join(override, rel) : path.join(dir, 'dist', rel);
  if (!existsSync(exe)) return { path: null, reason: `the Electron binary is missing at ${exe}` };
  return { path: exe };
}
