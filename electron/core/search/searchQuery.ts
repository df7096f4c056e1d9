import { escapeSnippet } from '../../../shared/snippetMarks.js';
import { queryWords } from './identifierWords.js';

/**
 * A search as people type it: words (all must match), `prefix*` words, and
 * "quoted phrases" (their words must match, next to each other).
 */
export interface ParsedQuery {
  words: string[];
  prefixes: string[];
  phrases: string[];
  /** Every term, lowercased, for highlighting. */
  terms: string[];
}

/** Words of a phrase, lowercased (the phrase itself is checked in the text). */
const WORD = /[\p{L}\p{N}_]+/gu;

export function parseQuery(input: string): ParsedQuery {
  const phrases: string[] = [];
  const rest = input.replace(/"([^"]*)"/g, (_, phrase: string) => {
    if (phrase.trim()) phrases.push(phrase.trim().toLowerCase());
    return ' ';
  });
  const words: string[] = [];
  const prefixes: string[] = [];
  for (const raw of rest.split(/\s+/)) {
    if (!raw) continue;
    // A prefix is looked up as written (the index keeps whole identifiers too); a word as the index splits it.
    if (raw.endsWith('*')) for (const w of raw.toLowerCase().match(WORD) ?? []) prefixes.push(w);
    else for (const w of queryWords(raw)) words.push(w);
  }
  for (const p of phrases) for (const w of queryWords(p)) words.push(w);
  return { words, prefixes, phrases, terms: [...new Set([...words, ...prefixes])] };
}

/** Whether `text` holds every phrase (case-insensitive, any run of spaces between words). */
export function hasPhrases(text: string, phrases: readonly string[]): boolean {
  if (phrases.length === 0) return true;
  const lower = text.toLowerCase().replace(/\s+/g, ' ');
  return phrases.every((p) => lower.includes(p.replace(/\s+/g, ' ')));
}

const SNIPPET_CHARS = 160;

/**
 * The line where the query matches best (a phrase, else the most terms),
 * its number, and a snippet around the match with every term marked
 * **like this**.
 */
export function snippetOf(text: string, q: ParsedQuery): { line: number; snippet: string } | null {
  const lines = text.split(/\r?\n/);
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < lines.length; i++) {
    const lower = (lines[i] as string).toLowerCase();
    let score = 0;
    for (const p of q.phrases) if (lower.includes(p)) score += 10;
    for (const t of q.terms) if (lower.includes(t)) score += 1;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best < 0) return null;
  const line = lines[best] as string;
  const lower = line.toLowerCase();
  let first = Infinity; // no term on the line (a phrase without words): the snippet is empty
  for (const t of q.terms) {
    const at = lower.indexOf(t);
    if (at >= 0 && at < first) first = at;
  }
  const from = Math.max(0, first - Math.floor(SNIPPET_CHARS / 3));
  // The file's own asterisks are escaped, so only our marks read as **bold**.
  let cut = escapeSnippet(line.slice(from, from + SNIPPET_CHARS));
  const terms = [...q.terms].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (terms.length > 0) cut = cut.replace(new RegExp(`(${terms.join('|')})[\\p{L}\\p{N}_]*`, 'giu'), '**$&**');
  return { line: best + 1, snippet: `${from > 0 ? '…' : ''}${cut.trim()}${from + SNIPPET_CHARS < line.length ? '…' : ''}` };
}
