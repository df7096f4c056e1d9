import type { DiffHunk, DiffLine } from '../../../shared/changeTypes';

/** One row of the side-by-side view: the old line on the left, the new on the right (either may be absent). */
export interface SplitRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

/**
 * A hunk as side-by-side rows: kept lines on both sides; a run of removed
 * lines faces the run of added lines that follows it, line by line, the
 * longer run's rest facing blanks (as reviewers expect a replaced block).
 */
export function splitRows(hunk: DiffHunk): SplitRow[] {
  const rows: SplitRow[] = [];
  const lines = hunk.lines;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as DiffLine;
    if (line.op === ' ') {
      rows.push({ left: line, right: line });
      i++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && (lines[i] as DiffLine).op === '-') removed.push(lines[i++] as DiffLine);
    while (i < lines.length && (lines[i] as DiffLine).op === '+') added.push(lines[i++] as DiffLine);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) rows.push({ left: removed[k] ?? null, right: added[k] ?? null });
  }
  return rows;
}

const firstOld = (h: DiffHunk) => h.lines.find((l) => l.old !== undefined)?.old;
const lastOld = (h: DiffHunk) => h.lines.findLast((l) => l.old !== undefined)?.old;

/**
 * Unchanged lines folded away before a hunk (the core folds long unchanged
 * runs): from the start of the file for the first hunk, else since the
 * previous one. Counted from the old text's line numbers, which every kept
 * and removed line carries; 0 when the hunk has no old line (a new file).
 */
export function foldedBefore(hunk: DiffHunk, previous: DiffHunk | undefined): number {
  const start = firstOld(hunk);
  if (start === undefined) return 0;
  const end = previous ? lastOld(previous) : 0;
  return end === undefined ? 0 : Math.max(0, start - end - 1);
}
