import './preview.css';

import { type CSSProperties, useEffect, useMemo, useRef, useState } from 'react';

import { CopyButton } from '../ui/CopyButton';
import { highlightHtml, htmlLines } from './highlight';
import { MAX_MARKS, rangesOf, showMarks } from './textMarks';

/** Past this, the view shows the beginning only (the full text is in the raw response). */
const SHOW_LIMIT = 1_000_000;

/** Matches the stylesheet: 19 px lines below 12 px of padding. */
const LINE_PX = 19;
const TOP_PX = 12;

/**
 * Text with line numbers, highlighted when the language is known;
 * `focusLine` is marked and scrolled to. With `focusTerm` (a search hit's
 * word) the find box starts with it, at its place on the focus line, so the
 * match is marked and Enter goes on to the next.
 */
export function CodeView({ text, language, focusLine, focusTerm }: { text: string; language: string | null; focusLine?: number; focusTerm?: string }) {
  const focusRef = useRef<HTMLDivElement>(null);
  const codeRef = useRef<HTMLDivElement>(null);
  // Wrapped, each line is a row of its own with its number beside its first part.
  const [wrap, setWrap] = useState(false);
  const [needle, setNeedle] = useState(focusTerm ?? '');
  /** The current match (0-based) among all, or -1 before Enter; matchLine is where it is. */
  const [match, setMatch] = useState(-1);
  /** A search hit's term waits for its matches, to select the one on the focus line. */
  const focusPending = useRef(focusTerm !== undefined);
  useEffect(() => {
    if (focusTerm === undefined) return;
    setNeedle(focusTerm);
    setMatch(-1);
    focusPending.current = true;
    // Not on text changes: an edit on disk keeps what the person typed into the find box.
  }, [focusTerm, focusLine]);
  // Whichever ancestor scrolls (the code view, or the preview around a markdown source), the line comes to the middle.
  useEffect(() => {
    if (focusLine) focusRef.current?.scrollIntoView({ block: 'center' });
  }, [focusLine, text, wrap]);
  const shown = text.length > SHOW_LIMIT ? text.slice(0, SHOW_LIMIT) : text;
  const html = useMemo(() => highlightHtml(shown, language), [shown, language]);
  const lines = useMemo(() => {
    let n = 1;
    for (let i = 0; i < shown.length; i++) if (shown.charCodeAt(i) === 10) n++;
    if (shown.endsWith('\n')) n--;
    return Math.max(n, 1);
  }, [shown]);
  const gutter = useMemo(() => Array.from({ length: lines }, (_, i) => i + 1).join('\n'), [lines]);
  const rows = useMemo(() => (wrap ? (html !== null ? htmlLines(html) : shown.split('\n')).slice(0, lines) : []), [wrap, html, shown, lines]);
  // Where the find text occurs (case-insensitive), at most 10,000 places.
  const matches = useMemo(() => {
    const at: number[] = [];
    const n = needle.toLowerCase();
    if (!n) return at;
    const hay = shown.toLowerCase();
    for (let i = hay.indexOf(n); i >= 0 && at.length < 10_000; i = hay.indexOf(n, i + n.length)) at.push(i);
    return at;
  }, [needle, shown]);
  const matchLine = useMemo(() => {
    const at = matches[match];
    if (at === undefined) return null;
    let line = 1;
    for (let i = 0; i < at; i++) if (shown.charCodeAt(i) === 10) line++;
    return line;
  }, [matches, match, shown]);
  useEffect(() => {
    if (!focusPending.current || needle !== focusTerm || focusLine === undefined || shown === '') return;
    focusPending.current = false;
    let start = 0;
    for (let line = 1; line < focusLine && start >= 0; line++) start = shown.indexOf('\n', start) + 1 || -1;
    const onLine = start < 0 ? -1 : matches.findIndex((at) => at >= start);
    setMatch(onLine >= 0 ? onLine : matches.length > 0 ? 0 : -1);
  }, [matches, needle, focusTerm, focusLine, shown]);
  // Every match marked, the current one more strongly (the first MAX_MARKS; the count covers all).
  useEffect(() => {
    const root = codeRef.current;
    if (!root || matches.length === 0) return;
    const parts = wrap ? [...root.querySelectorAll('.wline > code')] : [...root.querySelectorAll('pre.code > code')];
    const spans = matches.slice(0, MAX_MARKS).map((at) => [at, at + needle.length] as const);
    const all = showMarks('shelf-find', rangesOf(parts, spans, wrap));
    const current = matches[match];
    const one = showMarks('shelf-find-current', current === undefined ? [] : rangesOf(parts, [[current, current + needle.length]], wrap));
    return () => {
      all();
      one();
    };
  }, [matches, match, needle, wrap, html]);
  const findRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (matchLine !== null) findRef.current?.scrollIntoView({ block: 'center' });
  }, [matchLine, wrap]);
  // The line jumped to stays in view when the box is resized (a narrower window, the sidebar opened).
  useEffect(() => {
    const box = codeRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const mark = findRef.current ?? focusRef.current;
      if (!mark) return;
      const m = mark.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      if (m.top < b.top || m.bottom > b.bottom) mark.scrollIntoView({ block: 'center' });
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  const step = (back: boolean) => {
    if (matches.length === 0) return setMatch(-2);
    setMatch((m) => (m < 0 ? (back ? matches.length - 1 : 0) : (m + (back ? -1 : 1) + matches.length) % matches.length));
  };
  return (
    <div className={`code-view${wrap ? ' wrap' : ''}`} data-testid="code-view" data-language={language ?? 'plain'}>
      <div className="code-tools">
        <input
          className="input input-small"
          type="search"
          placeholder="Find in file"
          aria-label="Find in file"
          value={needle}
          onChange={(e) => {
            setNeedle(e.target.value);
            setMatch(-1);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              step(e.shiftKey);
            }
          }}
        />
        {match === -2 && <span className="small muted">Not found</span>}
        {match >= 0 && matches.length > 0 && (
          <span className="small muted" data-testid="find-count">
            {match + 1} of {matches.length.toLocaleString()}
          </span>
        )}
        <label className="check compact">
          <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} /> Wrap
        </label>
        <CopyButton text={text} label="Copy text" />
      </div>
      {text.length > SHOW_LIMIT && (
        <p className="note" data-testid="show-limit">
          Showing the first {SHOW_LIMIT.toLocaleString()} of {text.length.toLocaleString()} characters here; a client gets all of them.
        </p>
      )}
      <div className="code-scroll" tabIndex={0} aria-label="File text" ref={codeRef}>
        {matchLine !== null && !wrap && (
          <div
            ref={findRef}
            className="focus-line find-line"
            data-testid="find-line"
            style={{ top: TOP_PX + (matchLine - 1) * LINE_PX, height: LINE_PX }}
            aria-hidden="true"
          />
        )}
        {focusLine !== undefined && !wrap && (
          <div
            ref={focusRef}
            className="focus-line"
            data-testid="focus-line"
            style={{ top: TOP_PX + (focusLine - 1) * LINE_PX, height: LINE_PX }}
            aria-hidden="true"
          />
        )}
        {wrap ? (
          <div className={`code wrapped${html !== null ? ' hljs' : ''}`} style={{ '--gutter-ch': String(lines).length } as CSSProperties}>
            {rows.map((row, i) => {
              const line = i + 1;
              const found = line === matchLine;
              const focused = line === focusLine;
              return (
                <div
                  key={line}
                  ref={found ? findRef : focused ? focusRef : undefined}
                  className={`wline${found ? ' find-line' : focused ? ' focus-row' : ''}`}
                  data-testid={found ? 'find-line' : focused ? 'focus-line' : undefined}
                >
                  <span className="ln" aria-hidden="true">
                    {line}
                  </span>
                  {html !== null ? <code dangerouslySetInnerHTML={{ __html: row }} /> : <code>{row}</code>}
                </div>
              );
            })}
          </div>
        ) : (
          <>
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
          </>
        )}
      </div>
    </div>
  );
}
