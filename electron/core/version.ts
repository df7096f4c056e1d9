import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This package's root folder and version, found by walking up to our
 * package.json: works from sources (tests), from dist/ and from a bundle.
 */
function findPackage(): { root: string; version: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mcp-shelf' && pkg.version) return { root: dir, version: pkg.version };
    } catch {
      // not here; keep walking up
    }
    dir = path.dirname(dir);
  }
  return { root: process.cwd(), version: '0.0.0' };
}

const pkg = findPackage();
export const VERSION = pkg.version;
export const PACKAGE_ROOT = pkg.root;
/** Where the built renderer lives (electron-vite output). */
export const RENDERER_DIR = path.join(PACKAGE_ROOT, 'out', 'renderer');
