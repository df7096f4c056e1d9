/**
 * A search hit's snippet is Markdown-like text: matched words are wrapped in
 * `**`, and a `*` or `\` that the file itself holds is escaped with `\`, so a
 * Markdown file's own `**bold**` is never taken for a match (by a model
 * reading the text, or by the window marking it).
 */

/** The file's text for a snippet: its own `*` and `\` escaped. */
export const escapeSnippet = (text: string): string => text.replace(/[\\*]/g, '\\$&');

/** A snippet as runs of text, each marked (a matched word) or not, with the escapes undone. */
export function snippetParts(snippet: string): Array<{ text: string; marked: boolean }> {
  const parts: Array<{ text: string; marked: boolean }> = [];
  let text = '';
  let marked = false;
  for (let i = 0; i < snippet.length; i++) {
    const c = snippet[i] as string;
    if (c === '\\' && i + 1 < snippet.length) {
      text += snippet[++i];
    } else if (c === '*' && snippet[i + 1] === '*') {
      if (text) parts.push({ text, marked });
      text = '';
      marked = !marked;
      i++;
    } else text += c;
  }
  if (text) parts.push({ text, marked });
  return parts;
}
