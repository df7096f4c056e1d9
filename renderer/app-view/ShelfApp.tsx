import type { ContentBlock } from '@modelcontextprotocol/client';
import { type MouseEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';

import type { AppFindResult, AppFolder, AppSearchResult, BrowseResult } from '../../shared/shelfApp';
import type { Handoff } from './chatHandoff';
import { MAX_HANDOFF_CHARS } from './chatHandoff';
import { FileList, type ListRow } from './FileList';
import { type AddActions, type AddMode, FilePreview } from './FilePreview';
import { type HostLink, useHostState } from './hostLink';
import { type ShelfFile, useTree } from './useTree';
import { useWaitingChanges, WaitingChanges } from './WaitingChanges';

type Mode = 'names' | 'text';

/** Below this width the list and the preview take turns. */
const NARROW_PX = 640;
/** A search answered while the full-text index was being built is asked again this long after. */
const INDEXING_RETRY_MS = 1000;

const modalities = (m: { text?: object; image?: object } | undefined) => (m ? { text: true, image: m.image !== undefined } : null);

/**
 * The shelf inside the chat: the published folders as a tree, a filter by
 * name and a full-text search, a preview, and "Add to chat". Everything it
 * knows comes from the app's tools, called through the host.
 */
export function ShelfApp({ link }: { link: HostLink }) {
  const host = useHostState(link);
  const calls = host.status === 'ready' ? link.calls : null;
  const [status, setStatus] = useState<{ text: string; error?: boolean } | null>(null);
  const fail = useCallback((err: unknown) => setStatus({ text: err instanceof Error ? err.message : String(err), error: true }), []);
  const tree = useTree(calls, fail);
  const waiting = useWaitingChanges(calls);
  const [scope, setScope] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<Mode>('names');
  const [found, setFound] = useState<{ key: string; names?: AppFindResult; text?: AppSearchResult; busy: boolean; error?: string } | null>(null);
  const [open, setOpen] = useState<{ file: ShelfFile; focus?: { line: number; term?: string } } | null>(null);
  const [context, setContext] = useState<Handoff[]>([]);
  const [width, setWidth] = useState(() => window.innerWidth);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const narrow = width < NARROW_PX;

  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  // The view opens on what browse_shelf was asked (its input), then on what it found (its result, which follows).
  const seeded = useRef({ input: false, result: false });
  useEffect(() => {
    const input = host.input;
    if (!input || seeded.current.input) return;
    seeded.current.input = true;
    if (typeof input.folder === 'string') setScope(input.folder);
    if (typeof input.query === 'string') setQuery(input.query);
  }, [host.input]);
  useEffect(() => {
    const result = host.result?.structuredContent as BrowseResult | undefined;
    if (!result || seeded.current.result) return;
    seeded.current.result = true;
    if (result.folders) tree.setKnownFolders(result.folders);
    if (result.folder) setScope(result.folder);
    if (!result.query) return;
    setQuery(result.query);
    // Its answers stand in for the first filter and search (not a search made while the index was
    // being built: the view asks again); the text results first when no name matched.
    const names = result.moreFiles ? undefined : { matches: result.files, more: false };
    const text = result.indexing ? undefined : { hits: result.hits, indexing: false };
    setMode(result.files.length === 0 ? 'text' : 'names');
    setFound({ key: `${result.folder ?? ''}\u0000${result.query.trim()}`, ...(names ? { names } : {}), ...(text ? { text } : {}), busy: false });
  }, [host.result, tree]);

  const foldersByRoot = useMemo(() => new Map((tree.folders ?? []).map((f) => [f.root, f])), [tree.folders]);
  const q = query.trim();
  const key = `${scope ?? ''}\u0000${q}`;

  // Filter and search as the person types (debounced); each query's answers are kept while it stays.
  const foundRef = useRef(found);
  foundRef.current = found;
  // While the full-text index is still being built, a search's answer is partial: it is asked again a second later.
  const [retry, setRetry] = useState(0);
  useEffect(() => {
    if (!calls || !q) return;
    const known = foundRef.current;
    if (known?.key === key && (mode === 'names' ? known.names : known.text && !known.text.indexing)) return;
    let current = true;
    let again: ReturnType<typeof setTimeout> | null = null;
    setFound((f) => (f?.key === key ? { ...f, busy: true } : { key, busy: true }));
    const timer = setTimeout(
      () => {
        const run =
          mode === 'names' ? calls.find(q, scope ?? undefined).then((names) => ({ names })) : calls.search(q, scope ?? undefined).then((text) => ({ text }));
        run.then(
          (r) => {
            if (!current) return;
            setFound((f) => ({ ...(f?.key === key ? f : { key }), ...r, busy: false, error: undefined }));
            if ('text' in r && r.text.indexing) again = setTimeout(() => setRetry((n) => n + 1), INDEXING_RETRY_MS);
          },
          (err: unknown) =>
            current && setFound((f) => ({ ...(f?.key === key ? f : { key }), busy: false, error: err instanceof Error ? err.message : String(err) })),
        );
      },
      mode === 'names' ? 150 : 250,
    );
    return () => {
      current = false;
      clearTimeout(timer);
      if (again) clearTimeout(again);
    };
  }, [calls, q, key, mode, scope, retry]);

  const words = useMemo(() => (mode === 'names' ? q.toLowerCase().split(/\s+/).filter(Boolean) : []), [q, mode]);
  const folderName = useCallback((root: string) => foldersByRoot.get(root)?.name ?? root, [foldersByRoot]);
  const rows: ListRow[] = useMemo(() => {
    if (!q) return tree.rowsFor(scope);
    const answer = found?.key === key ? found : null;
    if (mode === 'names') return (answer?.names?.matches ?? []).map((f) => ({ type: 'file', key: `${f.folder}\u0000${f.path}`, level: 1, file: f }));
    return (answer?.text?.hits ?? []).map((h) => ({
      type: 'hit',
      key: `${h.folder}\u0000${h.path}`,
      level: 1,
      file: h,
      line: h.line,
      snippet: h.snippet,
      where: `${folderName(h.folder)}/${h.path.slice(0, -h.name.length).replace(/\/$/, '')}`,
    }));
  }, [q, tree, scope, found, key, mode, folderName]);

  const answer = q && found?.key === key ? found : null;
  const listNote = !q
    ? null
    : answer?.busy
      ? mode === 'names'
        ? 'Filtering…'
        : 'Searching…'
      : answer?.error
        ? answer.error
        : mode === 'names' && answer?.names
          ? `${answer.names.matches.length.toLocaleString()}${answer.names.more ? '+' : ''} file${answer.names.matches.length === 1 ? '' : 's'} by name`
          : mode === 'text' && answer?.text
            ? [
                `${answer.text.hits.length}${answer.text.nextCursor ? '+' : ''} file${answer.text.hits.length === 1 ? '' : 's'} by text`,
                answer.text.indexing ? 'the index is still being built' : '',
                answer.text.notSearched?.length ? `not searched: ${answer.text.notSearched.map(folderName).join(', ')} (asks first)` : '',
              ]
                .filter(Boolean)
                .join(' · ')
            : null;

  const caps = host.capabilities;
  const actions: AddActions = {
    message: modalities(caps.message),
    context: modalities(caps.updateModelContext),
    add: async (handoff: Handoff, how: AddMode) => {
      try {
        if (how === 'message') {
          const r = await link.app.sendMessage({ role: 'user', content: handoff.content });
          if (r.isError) throw new Error('The chat did not take the message');
          setStatus({ text: `Added ${handoff.label} to the chat.` });
        } else {
          const next = [...context.filter((c) => c.label !== handoff.label), handoff];
          const chars = next.reduce((n, c) => n + c.chars, 0);
          if (chars > MAX_HANDOFF_CHARS)
            throw new Error(
              `The chat's context would hold ${chars.toLocaleString()} characters, over ${MAX_HANDOFF_CHARS.toLocaleString()}: remove a file first.`,
            );
          await sendContext(next);
          setStatus({ text: `${handoff.label} is in the chat's context: the model gets it with your next message.` });
        }
      } catch (err) {
        fail(err);
      }
    },
  };
  const sendContext = async (next: Handoff[]) => {
    const content: ContentBlock[] = next.flatMap((h) => h.content);
    await link.app.updateModelContext({ content });
    setContext(next);
  };

  // "/" (or Ctrl+K) goes to the search box from anywhere but a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement;
      if ((e.key === '/' && !typing) || (e.key === 'k' && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Links in a preview leave through the host (a sandboxed frame cannot open them itself).
  const onClick = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a[target="_blank"]');
    const href = a?.getAttribute('href');
    if (!href) return;
    e.preventDefault();
    if (caps.openLinks) void link.app.openLink({ url: href }).catch(fail);
    else setStatus({ text: `This chat does not open links from apps: ${href}`, error: true });
  };

  // A relative link in a Markdown preview opens the file it names, when it is published.
  const openUri = useCallback(
    (uri: string) => {
      const folder = (tree.folders ?? []).find((f) => uri.startsWith(`${f.uri}/`));
      const rel = folder ? decodeURIComponent(uri.slice(folder.uri.length + 1)) : null;
      if (!calls || !folder || !rel) return setStatus({ text: `Not a published file: ${uri}`, error: true });
      calls.find(rel, folder.root).then((r) => {
        const file = r.matches.find((m) => m.path === rel);
        if (file) setOpen({ file });
        else setStatus({ text: `Not a published file: ${rel}`, error: true });
      }, fail);
    },
    [tree.folders, calls, fail],
  );

  const fullscreenOk = host.context.availableDisplayModes?.includes('fullscreen') ?? false;
  const isFullscreen = host.context.displayMode === 'fullscreen';
  const openFolder = open ? foldersByRoot.get(open.file.folder) : undefined;
  const showList = !narrow || !open;
  const showPreview = !narrow || open;

  if (host.status === 'failed' || (host.status === 'ready' && !caps.serverTools)) {
    return (
      <main className="app-shell app-message">
        <p role="alert">
          {host.status === 'failed'
            ? `MCP Shelf could not connect to this chat: ${host.error}`
            : 'This chat does not let apps reach their server, so MCP Shelf cannot show your files here. Ask for them in the conversation instead.'}
        </p>
      </main>
    );
  }

  return (
    <main className={`app-shell${narrow ? ' narrow' : ''}`} onClick={onClick}>
      <header className="app-top">
        <div className="brand">
          <span className="logo" aria-hidden="true" />
          <h1 className="brand-name">MCP Shelf</h1>
        </div>
        <FolderScope folders={tree.folders ?? []} value={scope} onChange={setScope} />
        <div className="app-search">
          <input
            ref={searchRef}
            className="input"
            type="search"
            value={query}
            placeholder={mode === 'names' ? 'Filter by name  ( / )' : 'Search file text  ( / )'}
            aria-label={mode === 'names' ? 'Filter files by name' : 'Search file text'}
            spellCheck={false}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || (e.key === 'Enter' && rows.length > 0)) {
                e.preventDefault();
                listRef.current?.focus();
              } else if (e.key === 'Escape' && query) {
                e.preventDefault();
                setQuery('');
              }
            }}
          />
          <div className="segmented" role="group" aria-label="Find by">
            <button type="button" aria-pressed={mode === 'names'} onClick={() => setMode('names')}>
              Names
            </button>
            <button type="button" aria-pressed={mode === 'text'} onClick={() => setMode('text')}>
              Text
            </button>
          </div>
        </div>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => void tree.refresh()} aria-label="Refresh the folders" title="Refresh">
          ↻
        </button>
        {fullscreenOk && (
          <button
            type="button"
            className="btn btn-small btn-ghost"
            onClick={() => void link.displayMode(isFullscreen ? 'inline' : 'fullscreen').catch(fail)}
            aria-pressed={isFullscreen}
            title={isFullscreen ? 'Back into the chat' : 'Full screen'}
          >
            {isFullscreen ? 'Exit full screen' : 'Full screen'}
          </button>
        )}
      </header>
      <WaitingChanges changes={waiting} folderName={folderName} />
      <div className="app-body">
        {showList && (
          <section className="app-side" aria-label="Published files">
            {listNote && (
              <p className={`search-status small ${answer?.error ? 'app-error-text' : 'muted'}`} role="status">
                {listNote}
              </p>
            )}
            <FileList
              rows={rows}
              role={q ? 'listbox' : 'tree'}
              label={q ? (mode === 'names' ? 'Files matching the filter' : 'Search results') : 'Published folders'}
              selectedUri={open?.file.uri ?? null}
              words={words}
              listRef={listRef}
              empty={
                host.status === 'connecting' || !tree.folders
                  ? 'Connecting…'
                  : q
                    ? answer?.busy
                      ? ''
                      : `No file matches “${q}”.`
                    : 'MCP Shelf publishes no folders yet: add some in the MCP Shelf window.'
              }
              onOpen={(file, at) =>
                setOpen({ file, ...(at ? { focus: { line: at.line, ...(mode === 'text' ? { term: q.split(/\s+/)[0]?.replace(/["*]/g, '') } : {}) } } : {}) })
              }
              onToggle={tree.toggle}
              onMore={(folder, dir) => void tree.load(folder, dir, true)}
            />
          </section>
        )}
        {showPreview && (
          <div className="app-main">
            {open && calls ? (
              <FilePreview
                key={open.file.uri}
                file={open.file}
                folderName={folderName(open.file.folder)}
                asks={openFolder?.asks ?? false}
                calls={calls}
                actions={actions}
                {...(open.focus ? { focus: open.focus } : {})}
                onOpenUri={openUri}
                {...(narrow ? { onBack: () => setOpen(null) } : {})}
              />
            ) : (
              <div className="empty-small centered app-hint">
                <p>Pick a file to preview it.</p>
                <p className="small">
                  <kbd>/</kbd> search · <kbd>↑</kbd> <kbd>↓</kbd> move · <kbd>Enter</kbd> open · <kbd>Ctrl</kbd>+<kbd>Enter</kbd> add to chat
                </p>
              </div>
            )}
          </div>
        )}
      </div>
      <footer className="app-foot">
        <p className={`small ${status?.error ? 'app-error-text' : ''}`} role="status" aria-live="polite" data-testid="app-status">
          {status?.text ?? ''}
        </p>
        {context.length > 0 && (
          <div className="app-context" data-testid="app-context">
            <span className="small muted">In context:</span>
            {context.map((c) => (
              <span key={c.label} className="chip">
                {c.label}
                <button
                  type="button"
                  className="chip-x"
                  aria-label={`Remove ${c.label} from the context`}
                  onClick={() => void sendContext(context.filter((x) => x !== c)).catch(fail)}
                >
                  ×
                </button>
              </span>
            ))}
          </div>
        )}
      </footer>
    </main>
  );
}

function FolderScope({ folders, value, onChange }: { folders: AppFolder[]; value: string | null; onChange: (root: string | null) => void }) {
  if (folders.length < 2) return null;
  return (
    <select className="input input-small app-scope" aria-label="Folder" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
      <option value="">All folders</option>
      {folders.map((f) => (
        <option key={f.root} value={f.root}>
          {f.name}
        </option>
      ))}
    </select>
  );
}
