import type { ReadFailure } from '../../../shared/readFailure.js';
import type { PublishedFolder } from './publishedFolder.js';
import { relativeBelow } from './uriPath.js';

export type MissingReason = Extract<ReadFailure, 'outside' | 'secret' | 'hidden' | 'ignored' | 'folder-off' | 'not-found' | 'invalid'>;

/** Directory levels of a missing path whose rules whyMissing looks at (then the whole path). */
const MAX_EXPLAIN_LEVELS = 64;

/**
 * Why absolute path `p` is no published file, for the owner (History and
 * Traffic): outside every folder, hidden by a rule (and which), its folder
 * off, or simply not there. Costs a rules check per directory level.
 */
export function whyMissing(folders: readonly PublishedFolder[], p: string): MissingReason {
  let best: { folder: PublishedFolder; rel: string } | null = null;
  for (const folder of folders) {
    for (const root of folder.realRoot === folder.root ? [folder.root] : [folder.realRoot, folder.root]) {
      const rel = relativeBelow(root, p);
      if (rel !== null && (!best || rel.length < best.rel.length)) best = { folder, rel };
    }
  }
  if (!best) return 'outside';
  if (best.folder.state === 'missing' || best.folder.state === 'stopped') return 'folder-off';
  // A client picks the path: its first levels and the whole are looked at, never thousands of prefixes of a made-up deep one.
  const parts = best.rel.split('/');
  const levels =
    parts.length <= MAX_EXPLAIN_LEVELS ? parts.map((_, i) => i + 1) : [...Array.from({ length: MAX_EXPLAIN_LEVELS }, (_, i) => i + 1), parts.length];
  for (const n of levels) {
    const rule = best.folder.rules.excludedBy(parts.slice(0, n).join('/'), n < parts.length, n <= MAX_EXPLAIN_LEVELS);
    if (rule) return rule === 'secret' ? 'secret' : rule === 'dotfile' ? 'hidden' : 'ignored';
  }
  return 'not-found';
}
