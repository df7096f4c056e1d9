import { useEffect, useState } from 'react';

import { textUriOf } from '../../../shared/documentUris';
import type { GrepResults, NotIndexedReason, NotIndexedReport, SearchHit, ShelfApi } from '../../../shared/shelfApi';
import { baseName } from '../folders/FolderList';
import { formatBytes } from '../format';
import { grepPatternOf, markedLine } from './grepPattern';
import { Snippet } from './Snippet';
import type { Indexing } from './useSearch';

/** Files named at most; the rest are counted. */
const NAMED = 8;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function reasonText(reason: NotIndexedReason, maxBytes: number): string {
  switch (reason) {
    case 'too-big':
      return `over ${formatBytes(maxBytes)}`;
    case 'binary':
      return 'not text';
    case 'unreadable':
      return 'no text could be read';
    case 'full':
      return 'the index is full';
  }
}

/**
 * What a content search cannot find: the files its index left out (too big,
 * not text, no text to extract, the index full) named and counted, the ones
 * still waiting, and one button that greps just the left-out files for the
 * query's words, with their lines opening like hits.
 */
export function NotIndexed({
  api,
  folder,
  query,
  indexing,
  onOpen,
  fail,
}: {
  api: ShelfApi;
  folder: string;
  query: string;
  indexing: NonNullable<Indexing>;
  onOpen: (hit: SearchHit) => void;
  fail: (err: unknown) => void;
}) {
  const [report, setReport] = useState<NotIndexedReport | null>(null);
  const [grep, setGrep] = useState<{ for: string; results: GrepResults | null } | null>(null);
  const pattern = grepPatternOf(query);
  const asked = `${folder}\u0000${pattern ?? ''}`;

  useEffect(() => {
    let current = true;
    // Asked again as the index moves (a file left out, or taken in when it changed); not on every slice of it.
    const timer = setTimeout(() => {
      api.notIndexed({ ...(folder ? { folder } : {}), limit: NAMED }).then((r) => current && setReport(r), fail);
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, folder, indexing.indexed, indexing.pending, fail]);

  const counts = report ? (Object.entries(report.counts) as Array<[NotIndexedReason, number]>).filter(([, n]) => n > 0) : [];
  const left = counts.reduce((sum, [, n]) => sum + n, 0) + (report?.untracked ?? 0);
  if (!report || left === 0) return null;
  const shown = grep && grep.for === asked ? grep.results : undefined;

  const run = () => {
    if (!pattern) return;
    const key = asked;
    setGrep({ for: key, results: null });
    api.grepNotIndexed(pattern, { ...(folder ? { folder } : {}), ignoreCase: true }).then(
      (r) => setGrep((g) => (g?.for === key ? { for: key, results: r } : g)),
      (err: unknown) => {
        setGrep(null);
        fail(err);
      },
    );
  };

  return (
    <section className="not-indexed" aria-label="Not in the search index" data-testid="not-indexed">
      <p className="not-indexed-head">
        <strong>{plural(left, 'file is', 'files are')} not in the search index</strong>
        <span className="muted"> — search cannot find words in {left === 1 ? 'it' : 'them'}: </span>
        {counts.map(([reason, n]) => `${n.toLocaleString()} ${reasonText(reason, report.maxIndexedBytes)}`).join(', ')}
        {report.untracked > 0 && `, ${report.untracked.toLocaleString()} more not named`}
      </p>
      <ul className="not-indexed-files">
        {report.files.map((f) => (
          <li key={f.uri} title={`${f.folder}/${f.path}`}>
            <span className="mono">{f.path}</span>{' '}
            <span className="muted small">
              {formatBytes(f.size)} · {reasonText(f.reason, report.maxIndexedBytes)}
            </span>
          </li>
        ))}
        {left > report.files.length && <li className="muted small">and {plural(left - report.files.length, 'other', 'others')}</li>}
      </ul>
      {pattern && (
        <button type="button" className="btn btn-small" onClick={run} disabled={shown === null}>
          {shown === null ? 'Grepping…' : `Grep ${left === 1 ? 'it' : `these ${left.toLocaleString()}`} for “${query.trim()}”`}
        </button>
      )}
      {shown && (
        <div className="grep-results" data-testid="grep-results">
          <p className="small muted" aria-live="polite">
            grep: {plural(shown.matches, 'matching line', 'matching lines')} in {plural(shown.files.length, 'file', 'files')}
            {shown.nextCursor ? ' (the first ones)' : ''}
          </p>
          {shown.files.map((f) =>
            f.lines.map((l) => {
              const hit: SearchHit = {
                uri: f.document ? textUriOf(f.uri) : f.uri,
                fileUri: f.uri,
                folder: f.folder,
                path: f.path,
                score: 0,
                line: l.line,
                snippet: markedLine(l.text.slice(0, 400), query),
              };
              return (
                <button type="button" key={`${f.uri}:${l.line}`} className="grep-line" onClick={() => onOpen(hit)} data-testid="grep-line">
                  <span className="hit-name">{baseName(f.path)}</span>
                  <span className="hit-lineno mono muted">{l.line}</span>
                  <Snippet text={hit.snippet} />
                </button>
              );
            }),
          )}
        </div>
      )}
    </section>
  );
}
