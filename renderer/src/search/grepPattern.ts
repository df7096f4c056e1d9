import { escapeSnippet } from '../../../shared/snippetMarks';

/** A regular expression's special characters, escaped (RE2 takes the same escapes). */
const escapeRegex = (s: string): string => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

/** The terms of a search query (`words`, `"a phrase"`, `prefix*`): a word, or a phrase's words joined by one space. */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const m of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const words = (m[1] ?? m[2] ?? '').replace(/[*"]/g, ' ').trim().split(/\s+/).filter(Boolean);
    if (words.length > 0) terms.push(words.join(' '));
  }
  return terms;
}

/** What grep looks for line by line: any of the terms, a phrase's words with any spaces between; null: nothing to look for. */
export function grepPatternOf(query: string): string | null {
  const terms = queryTerms(query);
  if (terms.length === 0) return null;
  return terms.map((t) => t.split(' ').map(escapeRegex).join('\\s+')).join('|');
}

/** A grep line as a search snippet: the query's words in `**`, the line's own `*` and `\` escaped (shared/snippetMarks.ts). */
export function markedLine(line: string, query: string): string {
  const pattern = grepPatternOf(query);
  if (!pattern) return escapeSnippet(line);
  let out = '';
  let at = 0;
  for (const m of line.matchAll(new RegExp(pattern, 'gi'))) {
    if (m[0].length === 0) continue;
    out += `${escapeSnippet(line.slice(at, m.index))}**${escapeSnippet(m[0])}**`;
    at = m.index + m[0].length;
  }
  return out + escapeSnippet(line.slice(at));
}
