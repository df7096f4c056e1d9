import { diffArrays } from 'diff';

import type { DiffHunk, DiffLine } from '../../../shared/changeTypes.js';

/**
 * The diff of a proposed change, line by line, as the prompt shows it and
 * dryRun returns it: hunks with three lines of context, long unchanged runs
 * between them folded away. The lines both texts begin and end with are cut
 * first (linear); what is left is diffed as arrays of line numbers (one per
 * distinct line) by jsdiff's Myers diff within a bound of work: its cost is
 * about (lines × edits), so the edits it may look for shrink as the text
 * grows. Past the bound, what is left is one hunk (every old line removed,
 * every new one added) — exact, only less minimal — so a hostile pair of
 * texts cannot hold the main thread. The bound is work, not time: a 25 ms
 * clock gave a 60-line change as the whole file replaced on a busy machine;
 * and jsdiff's own line splitting took 0.5 s on 200,000 lines, its array
 * diff of the same 20 ms.
 */

const CONTEXT = 3;
/** Lines × edits the diff may consider (about 20 ms here, BENCHMARKS.md). */
const DIFF_WORK = 2_000_000;
/** The edits considered whatever the size: small changes to a large file are still shown line by line. */
const MIN_EDITS = 256;
const MAX_EDITS = 2_000;

export interface LineDiff {
  hunks: DiffHunk[];
  added: number;
  removed: number;
}

const splitLines = (text: string): string[] => {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** Runs of kept, removed and added lines (indices into a and b), minimal where the bound allows. */
function editRuns(a: string[], b: string[], from: number, aTo: number, bTo: number): Array<{ op: DiffLine['op']; count: number }> {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const aIds = a.slice(from, aTo).map(idOf);
  const bIds = b.slice(from, bTo).map(idOf);
  const maxEditLength = Math.max(MIN_EDITS, Math.min(MAX_EDITS, Math.floor(DIFF_WORK / Math.max(1, aIds.length + bIds.length))));
  const changes = diffArrays(aIds, bIds, { maxEditLength });
  if (!changes) return [...(aIds.length ? [{ op: '-' as const, count: aIds.length }] : []), ...(bIds.length ? [{ op: '+' as const, count: bIds.length }] : [])];
  return changes.map((c) => ({ op: c.added ? '+' : c.removed ? '-' : ' ', count: c.count ?? c.value.length }));
}

export function lineDiff(oldText: string, newText: string): LineDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  if (start === a.length && start === b.length) return { hunks: [], added: 0, removed: 0 };
  const runs = [{ op: ' ' as const, count: start }, ...editRuns(a, b, start, a.length - end, b.length - end), { op: ' ' as const, count: end }];
  // Hunks: changed lines with CONTEXT kept lines around them; a longer kept run between changes splits them (folded).
  // Only the kept lines that are context are made into lines: a 200,000-line file with one change makes seven.
  const hunks: DiffHunk[] = [];
  let current: { lines: DiffLine[]; oldBefore: number; newBefore: number } | null = null;
  let ai = 0;
  let bi = 0;
  let added = 0;
  let removed = 0;
  const open = () => (current ??= { lines: [], oldBefore: ai, newBefore: bi });
  const kept = (from: number, count: number) => {
    for (let k = from; k < from + count; k++) current?.lines.push({ op: ' ', text: a[ai + k] as string, old: ai + k + 1, new: bi + k + 1 });
  };
  const close = () => {
    if (!current) return;
    const oldLines = current.lines.filter((l) => l.op !== '+').length;
    const newLines = current.lines.filter((l) => l.op !== '-').length;
    // As diff -u writes it: a side with no lines starts at the line before the hunk.
    hunks.push({
      oldStart: oldLines > 0 ? current.oldBefore + 1 : current.oldBefore,
      oldLines,
      newStart: newLines > 0 ? current.newBefore + 1 : current.newBefore,
      newLines,
      lines: current.lines,
    });
    current = null;
  };
  runs.forEach((r, index) => {
    if (r.op === ' ') {
      const last = index === runs.length - 1;
      if (current && !last && r.count <= 2 * CONTEXT) kept(0, r.count);
      else {
        if (current) {
          kept(0, Math.min(CONTEXT, r.count));
          close();
        }
        if (!last) {
          const c = Math.min(CONTEXT, r.count);
          ai += r.count - c;
          bi += r.count - c;
          open();
          kept(0, c);
          ai += c;
          bi += c;
          return;
        }
      }
      ai += r.count;
      bi += r.count;
      return;
    }
    const hunk = open();
    for (let k = 0; k < r.count; k++) {
      if (r.op === '-') hunk.lines.push({ op: '-', text: a[ai] as string, old: ++ai });
      else hunk.lines.push({ op: '+', text: b[bi] as string, new: ++bi });
    }
    if (r.op === '-') removed += r.count;
    else added += r.count;
  });
  close();
  return { hunks, added, removed };
}

/** Hunks as a unified diff (`--- a/path`, `+++ b/path`, `@@ -1,3 +1,4 @@`), cut at `budget` characters with a note of what was left out. */
export function unifiedText(rel: string, created: boolean, hunks: DiffHunk[], budget: number): string {
  const out = [created ? '--- /dev/null' : `--- a/${rel}`, `+++ b/${rel}`];
  let used = out.join('\n').length;
  let shown = 0;
  for (const h of hunks) {
    const text = [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines.map((l) => `${l.op}${l.text}`)].join('\n');
    if (used + text.length + 1 > budget && shown > 0) {
      out.push(`[… ${hunks.length - shown} more hunk(s) not shown: the diff is longer than a reply may be]`);
      break;
    }
    out.push(text.length > budget ? `${text.slice(0, budget)}\n[… this hunk is cut: it is longer than a reply may be]` : text);
    used += text.length + 1;
    shown++;
  }
  return out.join('\n');
}
