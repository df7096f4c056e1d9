import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  lua,
  makefile,
  markdown,
  php,
  python,
  ruby,
  rust,
  scss,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);

/** Past this many characters, text is shown plain: highlighting would stall the window. */
export const HIGHLIGHT_LIMIT = 200_000;

/** Highlighted HTML (escaped by highlight.js), or null to show the text plain. */
export function highlightHtml(text: string, language: string | null): string | null {
  if (!language || text.length > HIGHLIGHT_LIMIT || !hljs.getLanguage(language)) return null;
  try {
    return hljs.highlight(text, { language, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
}

/**
 * Highlighted HTML cut into lines that stand alone: a span open across a
 * line break (a multi-line comment or string) is closed at the break and
 * opened again on the next line, so each line can sit in its own row beside
 * its number. highlight.js output holds only `<span class="…">`, `</span>`
 * and escaped text.
 */
export function htmlLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  const special = /[<\n]/g;
  let line = '';
  for (let i = 0; i < html.length;) {
    const ch = html[i] as string;
    if (ch === '<') {
      const end = html.indexOf('>', i) + 1;
      const tag = html.slice(i, end);
      if (tag.startsWith('</')) open.pop();
      else open.push(tag);
      line += tag;
      i = end;
    } else if (ch === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
      i++;
    } else {
      special.lastIndex = i;
      const stop = special.exec(html)?.index ?? html.length;
      line += html.slice(i, stop);
      i = stop;
    }
  }
  lines.push(line);
  return lines;
}
