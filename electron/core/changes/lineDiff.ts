import { structuredPatch } from 'diff';

import type { DiffHunk, DiffLine } from '../../../shared/changeTypes.js';

/**
 * The diff of a proposed change, line by line, as the prompt shows it and
 * dryRun returns it: hunks with three lines of context, long unchanged runs
 * between them folded away. The lines both texts begin and end with are cut
 * first (linear), and jsdiff's Myers diff runs on what is left within a
 * time bound; past it, what is left is one hunk (every old line removed,
 * every new one added) — exact, only less minimal — so a hostile pair of
 * texts cannot hold the main thread.
 */

const CONTEXT = 3;
/** Milliseconds jsdiff may take on what is left after the common start and end. */
const DIFF_MS = 25;

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

export function lineDiff(oldText: string, newText: string): LineDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  // Context reaches into the common parts; jsdiff sees the middle and its context only.
  const from = Math.max(0, start - CONTEXT);
  const aMid = a.slice(from, a.length - Math.max(0, end - CONTEXT));
  const bMid = b.slice(from, b.length - Math.max(0, end - CONTEXT));
  if (aMid.length === bMid.length && aMid.every((l, i) => l === bMid[i])) return { hunks: [], added: 0, removed: 0 };
  const asText = (lines: string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  const patch = structuredPatch('a', 'b', asText(aMid), asText(bMid), undefined, undefined, { context: CONTEXT, timeout: DIFF_MS });
  const hunks: DiffHunk[] = [];
  let added = 0;
  let removed = 0;
  const raw = patch?.hunks ?? [
    {
      oldStart: 1,
      oldLines: aMid.length,
      newStart: 1,
      newLines: bMid.length,
      lines: [...aMid.map((l) => `-${l}`), ...bMid.map((l) => `+${l}`)],
    },
  ];
  for (const h of raw) {
    let oldNo = h.oldStart + from;
    let newNo = h.newStart + from;
    const lines: DiffLine[] = [];
    for (const l of h.lines) {
      const op = l[0];
      if (op === '\\') continue; // "\ No newline at end of file"
      const text = l.slice(1);
      if (op === '+') {
        lines.push({ op: '+', text, new: newNo++ });
        added++;
      } else if (op === '-') {
        lines.push({ op: '-', text, old: oldNo++ });
        removed++;
      } else lines.push({ op: ' ', text, old: oldNo++, new: newNo++ });
    }
    hunks.push({ oldStart: h.oldStart + from, oldLines: h.oldLines, newStart: h.newStart + from, newLines: h.newLines, lines });
  }
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
