import { useEffect, useMemo, useRef } from 'react';

import { highlightHtml } from './highlight';

/** Past this, the view shows the beginning only (the full text is in the raw response). */
const SHOW_LIMIT = 1_000_000;

/** Matches the stylesheet: 19 px lines below 12 px of padding. */
const LINE_PX = 19;
const TOP_PX = 12;

/** Text with line numbers, highlighted when the language is known; `focusLine` is marked and scrolled to. */
export function CodeView({ text, language, focusLine }: { text: string; language: string | null; focusLine?: number }) {
  const focusRef = useRef<HTMLDivElement>(null);
  // Whichever ancestor scrolls (the code view, or the preview around a markdown source), the line comes to the middle.
  useEffect(() => {
    if (focusLine) focusRef.current?.scrollIntoView({ block: 'center' });
  }, [focusLine, text]);
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
      <div className="code-scroll" tabIndex={0} aria-label="File text">
        {focusLine !== undefined && (
          <div ref={focusRef} className="focus-line" data-testid="focus-line" style={{ top: TOP_PX + (focusLine - 1) * LINE_PX, height: LINE_PX }} aria-hidden="true" />
        )}
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
