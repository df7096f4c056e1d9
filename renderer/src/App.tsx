import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type {
  ClientConfigSnippet,
  ClientInfo,
  FolderInfo,
  FolderOptions,
  HostInfo,
  ReadPreview,
  ResourceInfo,
  ServerStatus,
  ShelfApi,
} from '../../shared/shelfApi';
import type { HostExtras } from './api/hostApi';
import type { ConnectionState } from './api/wsClient';
import { ClientsPanel } from './clients/ClientsPanel';
import { ConnectPanel } from './clients/ConnectPanel';
import { classifyDrop, dragHasFiles, readDrop } from './drop/dropHandler';
import { AddFolder } from './folders/AddFolder';
import { FolderList } from './folders/FolderList';
import { Preview } from './preview/Preview';
import { ResourceTree } from './resources/ResourceTree';
import { TrafficPanel } from './traffic/TrafficPanel';
import { useTraffic } from './traffic/useTraffic';
import { Toasts, type Toast } from './ui/Toasts';

type Tab = 'preview' | 'traffic' | 'clients' | 'connect';
const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'preview', label: 'Preview' },
  { id: 'traffic', label: 'Traffic' },
  { id: 'clients', label: 'Clients' },
  { id: 'connect', label: 'Connect a client' },
];

/** Every page of one folder's resources. */
async function loadAll(api: ShelfApi, folder: string): Promise<ResourceInfo[]> {
  const out: ResourceInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.listResources(folder, cursor);
    out.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export function App({ api, connection }: { api: ShelfApi & HostExtras; connection: ConnectionState }) {
  const [host, setHost] = useState<HostInfo | null>(null);
  const [folders, setFolders] = useState<FolderInfo[] | null>(null);
  const [resources, setResources] = useState<Map<string, ResourceInfo[]>>(() => new Map());
  const [status, setStatus] = useState<ServerStatus | null>(null);
  const [clients, setClients] = useState<ClientInfo[]>([]);
  const [snippets, setSnippets] = useState<ClientConfigSnippet[]>([]);
  const [httpToken, setHttpToken] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('preview');
  const [selected, setSelected] = useState<ResourceInfo | null>(null);
  const [preview, setPreview] = useState<ReadPreview | null>(null);
  const [reading, setReading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [now, setNow] = useState(Date.now());
  const traffic = useTraffic(api);
  const filterRef = useRef<HTMLInputElement>(null);
  const toastId = useRef(1);
  const dragDepth = useRef(0);

  const notify = useCallback((tone: Toast['tone'], text: string) => {
    setToasts((t) => [...t.slice(-3), { id: toastId.current++, tone, text }]);
  }, []);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const fail = useCallback((err: unknown) => notify('error', err instanceof Error ? err.message : String(err)), [notify]);

  const reloadResources = useCallback(
    async (list: FolderInfo[]) => {
      const next = new Map<string, ResourceInfo[]>();
      for (const f of list) if (f.state !== 'disabled') next.set(f.path, await loadAll(api, f.path));
      setResources(next);
    },
    [api],
  );

  // Folder events come in bursts while files change: reload the listing once things settle.
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const scheduleReload = useCallback(
    (list: FolderInfo[]) => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(() => void reloadResources(list).catch(fail), 200);
    },
    [reloadResources, fail],
  );

  useEffect(() => {
    void api.hostInfo().then(setHost, fail);
    void api
      .listFolders()
      .then((f) => {
        setFolders(f);
        return reloadResources(f);
      })
      .catch(fail);
    void api.getStatus().then((s) => {
      setStatus(s);
      if (s.httpUrl) void api.getSettings().then((st) => setHttpToken(st.http.token), fail);
    }, fail);
    void api.listClients().then(setClients, fail);
    void api.clientConfigs().then(setSnippets, fail);
    const offs = [
      api.on('folders', (f) => {
        setFolders(f);
        scheduleReload(f);
      }),
      api.on('status', (s) => {
        setStatus(s);
        void api.clientConfigs().then(setSnippets, () => undefined);
        if (s.httpUrl) void api.getSettings().then((st) => setHttpToken(st.http.token), () => undefined);
      }),
      api.on('clients', setClients),
    ];
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      offs.forEach((off) => off());
      clearInterval(tick);
    };
  }, [api, fail, reloadResources, scheduleReload]);

  const read = useCallback(
    (r: ResourceInfo) => {
      setReading(true);
      api
        .readResource(r.uri)
        .then(setPreview, fail)
        .finally(() => setReading(false));
    },
    [api, fail],
  );

  const select = useCallback(
    (r: ResourceInfo) => {
      setSelected(r);
      setPreview(null);
      setTab('preview');
      read(r);
    },
    [read],
  );

  // When the selected file changes on disk, show its new content; when it goes, say so.
  useEffect(() => {
    if (!selected) return;
    for (const list of resources.values()) {
      const now = list.find((r) => r.uri === selected.uri);
      if (now) {
        if (now.size !== selected.size || now.annotations.lastModified !== selected.annotations.lastModified) {
          setSelected(now);
          read(now);
        }
        return;
      }
    }
    if (resources.size > 0 || (folders?.length ?? 0) === 0) read(selected); // gone: the read shows the client's error
    // Only a new listing should trigger this, not a new selection.
  }, [resources]);

  const addPaths = useCallback(
    async (paths: string[]): Promise<boolean> => {
      if (paths.length === 0) return false;
      try {
        const result = await api.addFolders(paths);
        for (const r of result.refused) notify('warning', `${r.path}: ${r.reason}`);
        if (result.added.length > 0) notify('info', result.added.length === 1 ? `Publishing ${result.added[0]}` : `Publishing ${result.added.length} folders`);
        return result.added.length > 0;
      } catch (err) {
        fail(err);
        return false;
      }
    },
    [api, notify, fail],
  );

  const pick = useCallback(() => {
    void api.pickFolders().then((paths) => (paths ? addPaths(paths) : undefined), fail);
  }, [api, addPaths, fail]);

  const onDrop = useCallback(
    (dt: DataTransfer) => {
      const outcome = classifyDrop(readDrop(dt), api.pathForFile);
      if (outcome.noPaths) {
        notify('warning', 'This browser cannot see where dropped folders live. Type the folder’s path instead, or use the desktop app.');
        return;
      }
      if (outcome.refusedFiles.length > 0) {
        notify('warning', `Only folders can be published; ${outcome.refusedFiles.length === 1 ? `“${outcome.refusedFiles[0]}” is a file` : `${outcome.refusedFiles.length} files were skipped`}.`);
      }
      void addPaths(outcome.folders);
    },
    [api, addPaths, notify],
  );

  const removeFolder = useCallback(
    (path: string) => {
      void api.removeFolder(path).then(() => {
        if (selected && resources.get(path)?.some((r) => r.uri === selected.uri)) {
          setSelected(null);
          setPreview(null);
        }
        notify('info', `Stopped publishing ${path}`);
      }, fail);
    },
    [api, selected, resources, notify, fail],
  );
  const toggleFolder = useCallback((path: string, enabled: boolean) => void api.setFolderEnabled(path, enabled).catch(fail), [api, fail]);
  const folderOptions = useCallback(
    async (path: string, options: Partial<Omit<FolderOptions, 'enabled'>>) => {
      await api.setFolderOptions(path, options).then(() => undefined, fail);
    },
    [api, fail],
  );

  // Window-wide keys: / filters files, Ctrl/Cmd+1…4 switch panels.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
      if (e.key === '/' && !typing) {
        e.preventDefault();
        filterRef.current?.focus();
      } else if ((e.ctrlKey || e.metaKey) && /^[1-4]$/.test(e.key)) {
        e.preventDefault();
        setTab((TABS[Number(e.key) - 1] as { id: Tab }).id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const onTabKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const n = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : null;
    if (n === null) return;
    const next = TABS[(n + TABS.length) % TABS.length] as { id: Tab };
    setTab(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };

  const empty = folders !== null && folders.length === 0;
  const totalFiles = useMemo(() => [...resources.values()].reduce((n, l) => n + l.length, 0), [resources]);

  return (
    <div
      className="app"
      onDragEnter={(e) => {
        if (!dragHasFiles(e.dataTransfer)) return;
        dragDepth.current++;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (!dragHasFiles(e.dataTransfer)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        dragDepth.current = Math.max(0, dragDepth.current - 1);
        if (dragDepth.current === 0) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        dragDepth.current = 0;
        setDragging(false);
        onDrop(e.dataTransfer);
      }}
    >
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true" />
          <span className="brand-name">MCP Shelf</span>
        </div>
        <div className="topbar-status" data-testid="topbar-status">
          <span className={`dot ${connection === 'open' ? 'dot-watching' : 'dot-missing'}`} aria-hidden="true" />
          {connection === 'open' ? (
            <span>
              Serving {totalFiles.toLocaleString()} files · {clients.length} {clients.length === 1 ? 'client' : 'clients'}
            </span>
          ) : connection === 'locked' ? (
            <span data-testid="locked">
              This tab has no key to MCP Shelf. Open the address <code>mcp-shelf serve --ui</code> printed (after a restart it prints a new one).
            </span>
          ) : (
            <span>Reconnecting to MCP Shelf…</span>
          )}
        </div>
        <span className="spacer" />
        {status && (
          <code className="topbar-socket mono" title="The socket clients connect to">
            {status.socketPath}
          </code>
        )}
      </header>

      <div className="layout">
        <aside className="sidebar" aria-label="Folders and files">
          <div className="sidebar-head">
            <h2>Folders</h2>
            {!empty && <AddFolder host={host} onPick={pick} onAddPath={(p) => addPaths([p])} />}
          </div>
          {folders && folders.length > 0 && (
            <>
              <FolderList folders={folders} onRemove={removeFolder} onToggle={toggleFolder} onOptions={folderOptions} />
              <ResourceTree folders={folders} resources={resources} selectedUri={selected?.uri ?? null} onSelect={select} filterRef={filterRef} />
            </>
          )}
          {empty && <p className="muted sidebar-empty">Nothing is published yet. Folders you add appear here, with their files below.</p>}
        </aside>

        <main className="main">
          {empty ? (
            <div className="empty-state" data-testid="empty-state">
              <div className="drop-target">
                <span className="drop-icon" aria-hidden="true" />
                <h1>Share folders with your AI clients</h1>
                <p>
                  MCP Shelf publishes the folders you choose, read-only, as MCP resources that Claude, VS Code, Cursor and other local clients can list and
                  read.
                </p>
                <p className="muted">{host?.nativePicker ? 'Drop folders anywhere on this window, or' : 'Type the path of a folder to publish:'}</p>
                <AddFolder host={host} onPick={pick} onAddPath={(p) => addPaths([p])} autoFocus />
              </div>
            </div>
          ) : (
            <>
              <div className="tabs" role="tablist" aria-label="Panels" onKeyDown={onTabKey}>
                {TABS.map((t, i) => (
                  <button
                    key={t.id}
                    id={`tab-${t.id}`}
                    type="button"
                    role="tab"
                    aria-selected={tab === t.id}
                    aria-controls={`panel-${t.id}`}
                    tabIndex={tab === t.id ? 0 : -1}
                    className="tab"
                    onClick={() => setTab(t.id)}
                    title={`${t.label} (Ctrl+${i + 1})`}
                  >
                    {t.label}
                    {t.id === 'traffic' && traffic.entries.length > 0 && <span className="tab-count">{traffic.entries.length.toLocaleString()}</span>}
                    {t.id === 'clients' && clients.length > 0 && <span className="tab-count">{clients.length}</span>}
                  </button>
                ))}
              </div>
              <div className="panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
                {tab === 'preview' &&
                  (selected ? (
                    <Preview key={selected.uri} resource={selected} preview={preview} loading={reading} />
                  ) : (
                    <div className="empty-small centered">
                      <p>Select a file to see exactly what an MCP client receives for it.</p>
                      <p className="muted small">Use the tree on the left; press / to filter.</p>
                    </div>
                  ))}
                {tab === 'traffic' && <TrafficPanel api={api} traffic={traffic} />}
                {tab === 'clients' && <ClientsPanel status={status} clients={clients} now={now} httpToken={httpToken} />}
                {tab === 'connect' && <ConnectPanel snippets={snippets} install={(c) => api.installClientConfig(c)} />}
              </div>
            </>
          )}
        </main>
      </div>

      {dragging && (
        <div className="drop-overlay" data-testid="drop-overlay">
          <div className="drop-overlay-box">
            <span className="drop-icon" aria-hidden="true" />
            <p>Drop folders to publish them</p>
            <p className="muted small">Files alone cannot be published.</p>
          </div>
        </div>
      )}
      <Toasts toasts={toasts} dismiss={dismiss} />
    </div>
  );
}
