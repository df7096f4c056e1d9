import '../preview/preview.css';

import { Fragment, useMemo } from 'react';

import type { DiffHunk, DiffLine } from '../../../shared/changeTypes';
import { highlightHtml, htmlLines } from '../preview/highlight';
import { foldedBefore, splitRows } from './diffRows';

export type DiffLayout = 'unified' | 'split';

/** Highlighting per line: each side of a hunk (old: kept and removed, new: kept and added) highlighted as one text, then cut into lines. */
type Marked = Map<DiffLine, string>;

function markHunk(hunk: DiffHunk, language: string | null, into: Marked): void {
  if (!language) return;
  for (const side of ['-', '+'] as const) {
    const lines = hunk.lines.filter((l) => l.op === ' ' || l.op === side);
    const html = highlightHtml(lines.map((l) => l.text).join('\n'), language);
    if (html === null) continue;
    const cut = htmlLines(html);
    // A kept line is on both sides: the new side's marks stand for it (they are the same text).
    lines.forEach((l, i) => cut[i] !== undefined && into.set(l, cut[i] as string));
  }
}

function Text({ line, marked }: { line: DiffLine; marked: Marked }) {
  const html = marked.get(line);
  // highlight.js escapes the text it returns; plain text is rendered as text.
  return html !== undefined ? <span dangerouslySetInnerHTML={{ __html: html }} /> : <span>{line.text}</span>;
}

const OP_CLASS: Record<DiffLine['op'], string> = { ' ': 'diff-kept', '+': 'diff-added', '-': 'diff-removed' };
const OP_LABEL: Record<DiffLine['op'], string> = { ' ': '', '+': 'added', '-': 'removed' };

function Fold({ lines, columns }: { lines: number; columns: number }) {
  if (lines <= 0) return null;
  return (
    <tr className="diff-fold" data-testid="diff-fold">
      <td colSpan={columns}>
        ⋯ {lines.toLocaleString()} unchanged {lines === 1 ? 'line' : 'lines'}
      </td>
    </tr>
  );
}

/**
 * A diff as the change prompt shows it: unified (old and new numbers, one
 * column of text) or side by side, added and removed lines coloured and
 * marked for screen readers, the unchanged runs the core folded away shown
 * as "⋯ n unchanged lines" between hunks.
 */
export function DiffView({ hunks, layout, language }: { hunks: DiffHunk[]; layout: DiffLayout; language: string | null }) {
  const marked = useMemo(() => {
    const m: Marked = new Map();
    for (const h of hunks) markHunk(h, language, m);
    return m;
  }, [hunks, language]);

  if (layout === 'split') {
    return (
      <table className="diff diff-split" data-testid="diff" data-layout="split">
        <colgroup>
          <col className="diff-num-col" />
          <col />
          <col className="diff-num-col" />
          <col />
        </colgroup>
        <tbody>
          {hunks.map((h, i) => (
            <Fragment key={`${h.oldStart}:${h.newStart}`}>
              <Fold lines={foldedBefore(h, hunks[i - 1])} columns={4} />
              {splitRows(h).map(({ left, right }, k) => (
                <tr key={k} className="diff-row">
                  <SideCells line={left} number={left?.old} marked={marked} />
                  <SideCells line={right} number={right?.new} marked={marked} right />
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <table className="diff diff-unified" data-testid="diff" data-layout="unified">
      <colgroup>
        <col className="diff-num-col" />
        <col className="diff-num-col" />
        <col className="diff-sign-col" />
        <col />
      </colgroup>
      <tbody>
        {hunks.map((h, i) => (
          <Fragment key={`${h.oldStart}:${h.newStart}`}>
            <Fold lines={foldedBefore(h, hunks[i - 1])} columns={4} />
            {h.lines.map((l, k) => (
              <tr key={k} className={`diff-row ${OP_CLASS[l.op]}`} data-op={l.op}>
                <td className="diff-num">{l.old}</td>
                <td className="diff-num">{l.new}</td>
                <td className="diff-sign" aria-label={OP_LABEL[l.op] || undefined}>
                  {l.op === ' ' ? '' : l.op === '-' ? '−' : '+'}
                </td>
                <td className="diff-text">
                  <Text line={l} marked={marked} />
                </td>
              </tr>
            ))}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

/** One side of a side-by-side row: its line number and text, or blank where the other side has a line. */
function SideCells({ line, number, marked, right = false }: { line: DiffLine | null; number: number | undefined; marked: Marked; right?: boolean }) {
  const tone = line ? OP_CLASS[line.op] : 'diff-blank';
  return (
    <>
      <td className={`diff-num${right ? ' diff-num-right' : ''} ${tone}`}>{number}</td>
      <td className={`diff-text ${tone}`} aria-label={line && line.op !== ' ' ? OP_LABEL[line.op] : undefined}>
        {line && <Text line={line} marked={marked} />}
      </td>
    </>
  );
}
