import type { FolderInfo } from '../../../shared/shelfApi';
import { formatBytes } from '../format';

/** "1 file", "2,048 files". */
export const filesLabel = (n: number): string => `${n.toLocaleString()} ${n === 1 ? 'file' : 'files'}`;

/** Whether a folder's numbers are final: while it is being indexed they move (and sizes fill in), so they are not shown as facts. */
export const counting = (f: FolderInfo): boolean => f.state === 'indexing';

/**
 * A folder's numbers, from the one source the server keeps (FolderInfo),
 * as the sidebar row shows them: "counting…" while they move, nothing
 * that looks like a count for a folder that is off or missing.
 */
export function folderSummary(f: FolderInfo): { files: string; size: string | null } {
  if (!f.options.enabled) return { files: 'off', size: null };
  if (f.state === 'missing') return { files: 'missing', size: null };
  if (f.state === 'error') return { files: 'not published', size: null };
  if (counting(f)) return { files: 'counting…', size: null };
  // Listed, but sizes still being read: the total would climb, so it is not shown as one.
  if (f.sizing) return { files: filesLabel(f.fileCount), size: 'counting…' };
  return { files: filesLabel(f.fileCount), size: formatBytes(f.totalBytes) };
}

/** The whole shelf's file count for the top bar, from the same numbers as the rows (null while any folder is still counting). */
export function shelfFiles(folders: readonly FolderInfo[] | null): number | null {
  if (!folders) return null;
  let n = 0;
  for (const f of folders) {
    if (!f.options.enabled) continue;
    if (counting(f)) return null;
    n += f.fileCount;
  }
  return n;
}
