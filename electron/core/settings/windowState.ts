import path from 'node:path';

import writeFileAtomic from 'write-file-atomic';

import { readRegularText } from '../base/regularFile.js';
import { moveLinkAside } from './configDir.js';

export interface Bounds {
  width: number;
  height: number;
  x?: number;
  y?: number;
}

export const DEFAULT_BOUNDS: Bounds = { width: 1280, height: 820 };

/** The window's last size and place, kept beside the settings. */
export async function loadBounds(dir: string): Promise<Bounds> {
  try {
    const v = JSON.parse(await readRegularText(path.join(dir, 'window.json'), { maxBytes: 64 * 1024, noFollow: true })) as Partial<Bounds>;
    const ok = (n: unknown, min: number) => typeof n === 'number' && Number.isFinite(n) && n >= min;
    if (ok(v.width, 400) && ok(v.height, 300)) {
      return {
        width: v.width as number,
        height: v.height as number,
        ...(ok(v.x, -100000) && ok(v.y, -100000) ? { x: v.x as number, y: v.y as number } : {}),
      };
    }
  } catch {
    // first run or an unreadable file: the default size
  }
  return DEFAULT_BOUNDS;
}

export async function saveBounds(dir: string, bounds: Bounds): Promise<void> {
  const file = path.join(dir, 'window.json');
  await moveLinkAside(file);
  await writeFileAtomic(file, JSON.stringify(bounds), { mode: 0o600 });
}
