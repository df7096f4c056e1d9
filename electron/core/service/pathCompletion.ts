import { opendir } from 'node:fs/promises';
import path from 'node:path';

import { expandHome } from './folderRegistry.js';

/** Suggestions returned at most, and directory entries looked at (a folder of 100,000 entries costs no more). */
const MAX_SUGGESTIONS = 50;
const MAX_SCANNED = 5000;

/**
 * Folders whose path starts with what was typed, for the window's path
 * field in a browser (which has no folder picker): `~/Doc` → `~/Documents/`.
 * Only directory names are listed; hidden ones only when the typed name
 * starts with a dot. The prefix keeps the person's spelling (`~` stays).
 */
export async function completeFolderPath(typed: string): Promise<string[]> {
  if (!typed || typed.includes('\0') || typed.length > 4096) return [];
  const expanded = expandHome(typed);
  if (!path.isAbsolute(expanded)) return [];
  const endsWithSep = /[\\/]$/.test(typed);
  const dir = endsWithSep ? expanded : path.dirname(expanded);
  const start = endsWithSep ? '' : path.basename(expanded);
  const typedDir = endsWithSep ? typed : typed.slice(0, typed.length - start.length);
  const out: string[] = [];
  let handle;
  try {
    handle = await opendir(dir);
  } catch {
    return [];
  }
  let scanned = 0;
  try {
    for await (const d of handle) {
      if (++scanned > MAX_SCANNED) break;
      if (!d.isDirectory() || !d.name.startsWith(start)) continue;
      if (d.name.startsWith('.') && !start.startsWith('.')) continue;
      out.push(`${typedDir}${d.name}${path.sep}`);
    }
  } catch {
    // unreadable midway: what was read so far
  }
  return out.sort((a, b) => a.localeCompare(b)).slice(0, MAX_SUGGESTIONS);
}
