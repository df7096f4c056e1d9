import { useMemo } from 'react';

import { highlightHtml } from './highlight';

/** Past this, the view shows the beginning only (the full text is in the raw response). */
const SHOW_LIMIT = 1_000_000;

/** Text with line numbers, highlighted when the language is known. */
export function CodeView({ text, language }: { text: string; language: string | null }) {
  const shown = text.length > SHOW_LIMIT ? text.slice(0, SHOW_LIMIT) : text;
  const html = useMemo(() => highlightHtml(shown, language), [shown, language]);
  const lines = useMemo(() => {
    let n = 1;
    for (let i = 0; i < shown.length; i++) if (shown.charCodeAt(i) === 10) n++;
    if (shown.endsWith('\n')) n--;
    return Math.max(n, 1);
  }, [shown]);
  const gutter = useMemo(() => Array.from({ length: lines }, (_, i) => i + 1).join('\n'), [lines]);
  return (
    <div className="code-view" data-testid="code-view" data-language={language ?? 'plain'}>
      {text.length > SHOW_LIMIT && <p className="note">Showing the first {SHOW_LIMIT.toLocaleString()} of {text.length.toLocaleString()} characters.</p>}
      <div className="code-scroll">
        <pre className="gutter" aria-hidden="true">
          {gutter}
        </pre>
        {html !== null ? (
          <pre className="code hljs">
            <code dangerouslySetInnerHTML={{ __html: html }} />
          </pre>
        ) : (
          <pre className="code">
            <code>{shown}</code>
          </pre>
        )}
      </div>
    </div>
  );
}
