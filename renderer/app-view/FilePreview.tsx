import { useEffect, useMemo, useState } from 'react';

import type { ReadPreview } from '../../shared/shelfApi';
import { formatBytes } from '../src/format';
import { CodeView } from '../src/preview/CodeView';
import { type MarkdownContext, MarkdownPane } from '../src/preview/MarkdownView';
import { ImageView } from '../src/preview/Preview';
import { languageFor } from '../src/preview/previewKind';
import { documentParts, type Handoff, handoffFor, MAX_HANDOFF_CHARS, partName, partsText } from './chatHandoff';
import { errorAdvice, type FileView, fileView } from './fileView';
import type { ShelfCalls } from './shelfCalls';
import type { ShelfFile } from './useTree';

/** Types worth reading at once for a preview; anything else only when small, or when the person asks. */
const TEXTISH = /^text\/|json|xml|javascript|typescript|yaml|toml|x-sh|sql|csv|markdown/;
const SMALL = 256 * 1024;

function readsAtOnce(file: ShelfFile): boolean {
  return file.textUri !== undefined || file.mimeType.startsWith('image/') || TEXTISH.test(file.mimeType) || (file.size !== undefined && file.size <= SMALL);
}

export type AddMode = 'message' | 'context';

export interface AddActions {
  /** The host takes messages from the app (and images in them). */
  message: { text: boolean; image: boolean } | null;
  /** The host takes context updates from the app. */
  context: { text: boolean; image: boolean } | null;
  add(handoff: Handoff, mode: AddMode): Promise<void>;
}

type Load = { state: 'loading' } | { state: 'skipped' } | { state: 'done'; view: FileView };

/**
 * One file: read through the app's read tool (so ask-before-read asks and
 * the history files it as read by the app), shown with the window's own
 * views — code, Markdown, images — and handed to the chat as the person
 * chooses: all of it, or a document's pages.
 */
export function FilePreview({
  file,
  folderName,
  asks,
  calls,
  actions,
  focus,
  onOpenUri,
  onBack,
}: {
  file: ShelfFile;
  folderName: string;
  asks: boolean;
  calls: ShelfCalls;
  actions: AddActions;
  focus?: { line: number; term?: string };
  onOpenUri: (uri: string) => void;
  onBack?: () => void;
}) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [forced, setForced] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const [busy, setBusy] = useState<AddMode | null>(null);
  const target = file.textUri ?? file.uri;

  // One preview per file (the view keys it by URI): state starts afresh for another file.
  useEffect(() => {
    if (!forced && !readsAtOnce(file)) {
      setLoad({ state: 'skipped' });
      return;
    }
    let current = true;
    setLoad({ state: 'loading' });
    calls.read(target).then(
      (r) => current && setLoad({ state: 'done', view: fileView(r) }),
      (err: unknown) =>
        current && setLoad({ state: 'done', view: { kind: 'error', code: null, message: err instanceof Error ? err.message : String(err), reason: null } }),
    );
    return () => {
      current = false;
    };
  }, [calls, file, target, forced, attempt]);

  const view = load.state === 'done' ? load.view : null;
  // A document's parts: as the read tool says (the whole text may be longer than one read), else from its marks.
  const marked = useMemo(() => (view?.kind === 'text' && file.textUri && !view.document ? documentParts(view.text) : []), [view, file.textUri]);
  const doc = view?.kind === 'text' ? view.document : undefined;
  const partCount = doc ? doc.parts : marked.length;
  const name = doc ? (doc.partName === 'Document' ? 'Part' : doc.partName) : partName(marked);
  const chosen = useMemo(() => (partCount > 1 ? (range ?? { from: 1, to: partCount }) : null), [partCount, range]);
  const wholeRange = !chosen || (chosen.from === 1 && chosen.to === partCount);
  // A range of parts is read as such (the server cuts it from the whole text, and its note says what it holds).
  const [ranged, setRanged] = useState<{ key: string; view: FileView } | null>(null);
  const rangeKey = chosen && !wholeRange && doc ? `${chosen.from}-${chosen.to}` : null;
  useEffect(() => {
    if (!rangeKey) return;
    let current = true;
    calls.read(target, rangeKey).then(
      (r) => current && setRanged({ key: rangeKey, view: fileView(r) }),
      (err: unknown) =>
        current && setRanged({ key: rangeKey, view: { kind: 'error', code: null, message: err instanceof Error ? err.message : String(err), reason: null } }),
    );
    return () => {
      current = false;
    };
  }, [calls, target, rangeKey]);
  const shownView: FileView | null = useMemo(() => {
    if (wholeRange || !chosen || view?.kind !== 'text') return view;
    if (doc) return ranged?.key === rangeKey ? ranged.view : null;
    return { ...view, text: partsText(view.text, marked, chosen.from, chosen.to) };
  }, [view, chosen, wholeRange, doc, ranged, rangeKey, marked]);
  const handoff = useMemo(
    () => (shownView ? handoffFor({ file, folderName, view: shownView, ...(chosen ? { range: { ...chosen, of: partCount, name } } : {}) }) : null),
    [shownView, file, folderName, chosen, partCount, name],
  );

  const markdown: MarkdownContext = useMemo(
    () => ({
      baseUri: file.uri,
      read: async (uri: string): Promise<ReadPreview> => {
        const v = fileView(await calls.read(uri));
        if (v.kind === 'image') return { ok: true, result: { contents: [{ uri, mimeType: v.mimeType, blob: v.data }] }, size: 0, kind: 'blob' };
        if (v.kind === 'text')
          return {
            ok: true,
            result: { contents: [{ uri, mimeType: /\.svg$/i.test(uri) ? 'image/svg+xml' : 'text/plain', text: v.text }] },
            size: v.text.length,
            kind: 'text',
          };
        return { ok: false, error: { code: v.kind === 'error' ? (v.code ?? -32603) : -32603, message: v.kind === 'error' ? v.message : 'Not an image' } };
      },
      open: onOpenUri,
    }),
    [file.uri, calls, onOpenUri],
  );

  const isImage = handoff?.content.some((c) => c.type === 'image') ?? false;
  const why = (mode: AddMode): string | null => {
    const can = mode === 'message' ? actions.message : actions.context;
    if (!can) return mode === 'message' ? 'This chat does not take messages from apps' : 'This chat does not take context from apps';
    if (!handoff) return load.state === 'loading' ? 'Reading the file…' : 'Nothing to add';
    if (isImage && !can.image) return 'This chat takes no images from apps';
    return null;
  };
  const add = async (mode: AddMode) => {
    if (!handoff || why(mode)) return;
    setBusy(mode);
    try {
      await actions.add(handoff, mode);
    } finally {
      setBusy(null);
    }
  };
  // Ctrl/⌘+Enter adds the file, wherever the focus is in the view.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
      const mode: AddMode = actions.message ? 'message' : 'context';
      if (why(mode)) return;
      e.preventDefault();
      void add(mode);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const primary: AddMode = actions.message || !actions.context ? 'message' : 'context';
  const language = languageFor(file.name, file.mimeType);
  const isMarkdown = file.mimeType === 'text/markdown';
  const isSvg = file.mimeType === 'image/svg+xml';

  return (
    <section className="preview app-preview" aria-label={`Preview of ${file.name}`} data-testid="app-preview">
      <header className="preview-head app-preview-head">
        <div className="preview-title">
          {onBack && (
            <button type="button" className="btn btn-small btn-ghost" onClick={onBack} aria-label="Back to the files">
              ← Files
            </button>
          )}
          <h2 className="ellipsis" title={file.name}>
            {file.name}
          </h2>
        </div>
        <div className="app-path muted small ellipsis" title={`${folderName}/${file.path}`}>
          {folderName}/{file.path}
        </div>
        <div className="app-actions">
          <div className="chips">
            <span className="chip">{file.mimeType}</span>
            {file.size !== undefined && <span className="chip">{formatBytes(file.size)}</span>}
            {asks && <span className="chip chip-accent">asks first</span>}
          </div>
          <span className="spacer" />
          {(['message', 'context'] as const)
            .filter((m) => m === primary || (m === 'context' && actions.context && actions.message))
            .map((mode) => {
              const reason = why(mode);
              return (
                <button
                  key={mode}
                  type="button"
                  className={`btn ${mode === primary ? 'btn-primary' : ''}`}
                  disabled={reason !== null || busy !== null}
                  title={
                    reason ?? (mode === 'message' ? 'Sends it to the conversation as your message (Ctrl+Enter)' : 'The model gets it with your next message')
                  }
                  onClick={() => void add(mode)}
                  data-testid={mode === 'message' ? 'add-to-chat' : 'add-as-context'}
                >
                  {busy === mode ? 'Adding…' : mode === 'message' ? 'Add to chat' : 'Add as context'}
                </button>
              );
            })}
        </div>
        {chosen && (
          <div className="app-range" data-testid="page-range">
            <span className="small">{name}s</span>
            <RangeInput
              label={`First ${name.toLowerCase()}`}
              value={chosen.from}
              max={partCount}
              onChange={(from) => setRange({ from, to: Math.max(from, chosen.to) })}
            />
            <span aria-hidden="true">–</span>
            <RangeInput
              label={`Last ${name.toLowerCase()}`}
              value={chosen.to}
              max={partCount}
              onChange={(to) => setRange({ from: Math.min(chosen.from, to), to })}
            />
            <span className="small muted">of {partCount}</span>
            {!wholeRange && (
              <button type="button" className="btn btn-small btn-ghost" onClick={() => setRange(null)}>
                All
              </button>
            )}
          </div>
        )}
      </header>
      {shownView &&
        shownView.kind !== 'error' &&
        shownView.notes.map((n, i) => (
          <p key={i} className="note">
            {n}
          </p>
        ))}
      {handoff?.cut && (
        <p className="note">
          Adds the first {MAX_HANDOFF_CHARS.toLocaleString()} characters of {(shownView?.kind === 'text' ? shownView.text.length : 0).toLocaleString()}.
        </p>
      )}
      <div className="preview-body">
        {load.state === 'loading' && (
          <p className="empty-small" role="status">
            {asks ? 'Waiting for your answer in the MCP Shelf window (this folder asks before each read)…' : 'Reading…'}
          </p>
        )}
        {load.state === 'skipped' && (
          <div className="app-card">
            <p>
              No preview for this type ({file.mimeType}
              {file.size !== undefined ? `, ${formatBytes(file.size)}` : ''}). Add to chat gives its name, type and URI.
            </p>
            <button type="button" className="btn btn-small" onClick={() => setForced(true)}>
              Preview anyway
            </button>
          </div>
        )}
        {shownView?.kind === 'error' && (
          <div className="preview-error" role="alert" data-testid="app-read-error">
            <span className="error-code">{shownView.code ?? 'error'}</span>
            <span className="error-message">{shownView.message}</span>
            <p>{errorAdvice(shownView)}</p>
            <button type="button" className="btn btn-small" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        )}
        {shownView?.kind === 'image' && <ImageView src={`data:${shownView.mimeType};base64,${shownView.data}`} name={file.name} />}
        {shownView?.kind === 'binary' && (
          <div className="app-card">
            <p>
              A binary file ({shownView.mimeType}
              {shownView.bytes !== null ? `, ${formatBytes(shownView.bytes)}` : ''}). Add to chat gives its name, type and URI, not its bytes.
            </p>
          </div>
        )}
        {shownView?.kind === 'text' &&
          (isSvg ? (
            <ImageView src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(shownView.text)}`} name={file.name} />
          ) : isMarkdown ? (
            <MarkdownPane
              text={shownView.text}
              context={markdown}
              startInSource={false}
              {...(focus ? { focusLine: focus.line, ...(focus.term ? { focusTerm: focus.term } : {}) } : {})}
            />
          ) : (
            <CodeView
              text={shownView.text}
              language={file.textUri ? null : language}
              {...(focus && !chosen ? { focusLine: focus.line, ...(focus.term ? { focusTerm: focus.term } : {}) } : {})}
            />
          ))}
      </div>
    </section>
  );
}

function RangeInput({ label, value, max, onChange }: { label: string; value: number; max: number; onChange: (n: number) => void }) {
  return (
    <input
      className="input input-small input-num app-range-input"
      type="number"
      min={1}
      max={max}
      value={value}
      aria-label={label}
      onChange={(e) => {
        const n = Number.parseInt(e.target.value, 10);
        if (Number.isFinite(n)) onChange(Math.max(1, Math.min(max, n)));
      }}
    />
  );
}
