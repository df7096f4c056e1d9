import { changeRefused } from '../library/safeWrite.js';

/**
 * edit_resource's replacements: each oldText must occur exactly once in the
 * text as the edits before it left it; anything else is a clear error that
 * says where the nearest line is, and nothing is written. Exact, never fuzzy:
 * a whitespace-insensitive match is only reported, not applied (users lose
 * work to edits that guessed). One allowance: a file with CRLF line ends is
 * matched with the model's LF text turned into CRLF, since a model cannot
 * see which a file uses.
 */

export interface TextEdit {
  oldText: string;
  newText: string;
}

/** Lines looked at for the nearest one, and characters of each (the search is bounded whatever the file). */
const NEAREST_LINES = 50_000;
const NEAREST_CHARS = 400;

const count = (text: string, part: string, limit = 3): number[] => {
  const at: number[] = [];
  for (let i = text.indexOf(part); i >= 0 && at.length < limit; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
};
const lineOf = (text: string, index: number): number => {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
};
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const quoted = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);

/** Bigrams of a line, for how alike two lines are (Dice's coefficient). */
function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function alike(a: Map<string, number>, aSize: number, b: string): number {
  if (aSize === 0 || b.length < 2) return 0;
  let shared = 0;
  const seen = new Map<string, number>();
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const used = seen.get(g) ?? 0;
    if (used < (a.get(g) ?? 0)) shared++;
    seen.set(g, used + 1);
  }
  return (2 * shared) / (aSize + b.length - 1);
}

/** Where the text comes nearest to `oldText`, for the error: a whitespace-only difference, else the most alike line. */
function nearest(text: string, oldText: string, reveal: boolean): string {
  const squashed = squash(oldText);
  const lines = text.split('\n', NEAREST_LINES);
  const oldLines = oldText.split('\n');
  const head = squash(oldLines[0] ?? '');
  if (squashed !== '' && oldLines.length <= 200) {
    // The whole oldText, whitespace aside: a window of as many lines from each line whose start matches (bounded work).
    const span = oldLines.length;
    for (let i = 0; i + span <= lines.length; i++) {
      if (head !== '' && !squash(lines[i] as string).endsWith(head)) continue;
      if (squash(lines.slice(i, i + span).join('\n')) === squashed)
        return ` It matches line ${i + 1} if spaces, tabs and line breaks are ignored: copy that text exactly (indentation included).`;
    }
  }
  const first = (oldText.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, NEAREST_CHARS);
  if (first.length < 2) return '';
  const grams = bigrams(first);
  let best = { line: 0, score: 0 };
  for (let i = 0; i < lines.length; i++) {
    const l = (lines[i] as string).trim().slice(0, NEAREST_CHARS);
    if (Math.abs(l.length - first.length) > first.length) continue;
    const score = alike(grams, first.length - 1, l);
    if (score > best.score) best = { line: i + 1, score };
  }
  if (best.score < 0.5) return ' No line is near it.';
  // In a folder that asks before reads, the file's text goes back to the model only through a read the person allowed.
  return reveal ? ` The nearest line is ${best.line}: ${quoted((lines[best.line - 1] as string).trim())}.` : ` The nearest line is ${best.line}.`;
}

/** The text with every edit made, in order; throws error 1008 (no-match, ambiguous) naming the edit and the nearest line. */
export function applyEdits(uri: string, text: string, edits: readonly TextEdit[], reveal = true): string {
  const crlf = text.includes('\r\n');
  let out = text;
  edits.forEach((edit, i) => {
    const which = edits.length > 1 ? `edit ${i + 1} of ${edits.length}` : 'the edit';
    let { oldText, newText } = edit;
    let at = count(out, oldText);
    if (at.length === 0 && crlf && oldText.includes('\n') && !oldText.includes('\r\n')) {
      const asCrlf = oldText.replace(/\n/g, '\r\n');
      const found = count(out, asCrlf);
      if (found.length > 0) {
        oldText = asCrlf;
        newText = newText.replace(/\r?\n/g, '\r\n');
        at = found;
      }
    }
    if (at.length === 0)
      throw changeRefused(
        uri,
        'no-match',
        `Nothing was changed: the oldText of ${which} (${quoted(edit.oldText)}) is not in the file.${nearest(out, edit.oldText, reveal)}`,
      );
    if (at.length > 1) {
      const lines = at.map((p) => lineOf(out, p));
      throw changeRefused(
        uri,
        'ambiguous',
        `Nothing was changed: the oldText of ${which} occurs ${at.length === 2 ? 'twice' : '3 or more times'} (lines ${lines.join(', ')}${at.length > 2 ? ', …' : ''}); make it longer so it names one place.`,
      );
    }
    const pos = at[0] as number;
    out = out.slice(0, pos) + newText + out.slice(pos + oldText.length);
  });
  return out;
}
