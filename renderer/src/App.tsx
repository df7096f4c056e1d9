import { useCallback, useRef, useState } from 'react';
import { Group, Panel, Separator, useDefaultLayout, usePanelRef } from 'react-resizable-panels';

import type { ModelReadRequest, ResourceInfo, SearchHit, ShelfApi } from '../../shared/shelfApi';
import { snippetParts } from '../../shared/snippetMarks';
import { AskPrompt } from './access/AskPrompt';
import { HistoryPanel } from './access/HistoryPanel';
import { useAccess } from './access/useAccess';
import { useAskAlert } from './access/useAskAlert';
import type { HostExtras } from './api/hostApi';
import type { ConnectionState } from './api/wsClient';
import { useShelfState } from './app/useShelfState';
import { type Tab, TABS, useShortcuts } from './app/useShortcuts';
import { ClientsPanel } from './clients/ClientsPanel';
import { ConnectPanel } from './clients/ConnectPanel';
import { useFolderDrop } from './drop/useFolderDrop';
import { AddFolder } from './folders/AddFolder';
import { filesLabel, shelfFiles } from './folders/folderCounts';
import { FolderList } from './folders/FolderList';
import { useFolderActions } from './folders/useFolderActions';
import { Preview } from './preview/Preview';
import { useSelection } from './preview/useSelection';
import { ResourceTree } from './resources/ResourceTree';
import { SearchPanel } from './search/SearchPanel';
import { type SettingsSection, SettingsSheet } from './settings/SettingsSheet';
import { TrafficPanel } from './traffic/TrafficPanel';
import { useTraffic } from './traffic/useTraffic';
import { Toasts } from './ui/Toasts';
import { useToasts } from './ui/useToasts';

/**
 * The window's layout. State and behaviour live in hooks: what the server
 * holds (useShelfState), the selected file (useSelection), folder actions,
 * drops, keys, notices and the traffic log.
 */
export function App({ api, connection }: { api: ShelfApi & HostExtras; connection: ConnectionState }) {
  const { toasts, notify, dismiss, fail } = useToasts();
  const live = connection === 'open';
  const { host, folders, resources, status, clients, snippets, httpToken, now } = useShelfState(api, live, fail);
  const { selected, preview, reading, updatedAt, select: selectFile, clear: clearSelection } = useSelection(api, resources, folders, fail);
  const actions = useFolderActions(api, notify, fail);
  const drop = useFolderDrop(api.pathForFile, actions.addPaths, notify);
  const traffic = useTraffic(api, live, status?.traffic.maxEntries);
  const access = useAccess(api, live, fail);
  useAskAlert(access.asks);
  const [tab, setTab] = useState<Tab>('preview');
  // The sidebar's width is the person's: dragged, collapsed (button or Ctrl+B), and kept across reloads.
  const savedLayout = useDefaultLayout({ id: 'mcp-shelf-layout', storage: localStorage });
  const sidebarRef = usePanelRef();
  const toggleSidebar = useCallback(() => {
    const panel = sidebarRef.current;
    if (!panel) return;
    if (panel.isCollapsed()) panel.expand();
    else panel.collapse();
  }, [sidebarRef]);
  /** The file whose history the History tab shows (null: all). */
  const [historyUri, setHistoryUri] = useState<string | null>(null);
  /** The settings sheet: closed (null), or open at a section. */
  const [settingsAt, setSettingsAt] = useState<SettingsSection | null>(null);
  /** Preview or raw response, kept while moving from file to file. */
  const [rawMode, setRawMode] = useState(false);
  /** A search result being shown: the preview goes to its line. */
  const [focus, setFocus] = useState<{ uri: string; line: number; inText: boolean; term?: string } | null>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const onTabKey = useShortcuts(tab, setTab, filterRef, toggleSidebar);

  const select = useCallback(
    (r: Parameters<typeof selectFile>[0]) => {
      selectFile(r);
      setFocus(null);
      setTab('preview');
    },
    [selectFile],
  );
  const removeFolder = useCallback(
    (path: string) => {
      const showing = selected !== null && (resources.get(path)?.some((r) => r.uri === selected.uri) ?? false);
      void actions.remove(path).then(() => {
        if (showing) clearSelection();
      });
    },
    [actions, selected, resources, clearSelection],
  );
  const { pick, addPath, toggle: toggleFolder, setOptions: folderOptions } = actions;
  /**
   * The listed resource for a URI; while a folder's listing is still loading
   * (a big folder, the first seconds) the server is asked about the file
   * itself, so a search hit or a link opens at once rather than saying the
   * file is gone. Null: it is not published.
   */
  const resourceFor = useCallback(
    async (uri: string, hasText?: boolean): Promise<ResourceInfo | null> => {
      for (const list of resources.values()) {
        const found = list.find((r) => r.uri === uri);
        if (found) return found;
      }
      const read = await api.readResource(uri).catch(() => null);
      if (!read?.ok) return null;
      const name = decodeURIComponent(uri.replace(/^file:\/\//, ''));
      const title = name.split('/').pop() ?? name;
      const mimeType = read.result.contents[0]?.mimeType ?? 'application/octet-stream';
      return { uri, name: title, title, mimeType, size: read.size, annotations: { lastModified: '' }, ...(hasText ? { hasText: true as const } : {}) };
    },
    [api, resources],
  );
  const openUri = useCallback(
    (uri: string) => {
      void resourceFor(uri).then((found) => (found ? select(found) : notify('warning', 'That file is no longer published.')));
    },
    [resourceFor, select, notify],
  );
  const openHit = useCallback(
    (hit: SearchHit) => {
      void resourceFor(hit.fileUri, hit.uri !== hit.fileUri).then((found) => {
        if (!found) return notify('warning', 'That file is no longer published.');
        selectFile(found);
        // The snippet's first marked word goes into the preview's find box, at its place on the line.
        const term = snippetParts(hit.snippet).find((p) => p.marked)?.text;
        setFocus({ uri: hit.fileUri, line: hit.line, inText: hit.uri !== hit.fileUri, ...(term ? { term } : {}) });
        setTab('preview');
      });
    },
    [resourceFor, selectFile, notify],
  );
  const readText = useCallback((uri: string) => api.readResource(uri), [api]);
  const readForModel = useCallback((uri: string, request: ModelReadRequest) => api.readForModel(uri, request), [api]);
  // Client's or model's view: kept from file to file, like Raw response.
  const [audience, setAudience] = useState<'client' | 'model'>('client');
  const completePath = useCallback((typed: string) => api.completeFolderPath(typed), [api]);
  const showHistory = useCallback((uri: string | null) => {
    setHistoryUri(uri);
    setTab('history');
  }, []);

  const empty = folders !== null && folders.length === 0;
  // The same numbers as the folder rows (the server's counts), not the pages of the tree loaded so far.
  const shelfTotal = shelfFiles(folders);

  return (
    <div className="app" {...drop.handlers}>
      <header className="topbar">
        <button
          type="button"
          className="btn btn-ghost btn-small sidebar-toggle"
          onClick={toggleSidebar}
          aria-label="Show or hide the sidebar"
          title="Show or hide the sidebar (Ctrl+B)"
        >
          <span className="sidebar-toggle-icon" aria-hidden="true" />
        </button>
        <div className="brand">
          <span className="logo" aria-hidden="true" />
          <h1 className="brand-name">MCP Shelf</h1>
        </div>
        <div className="topbar-status" data-testid="topbar-status">
          <span className={`dot ${connection === 'open' ? 'dot-watching' : 'dot-missing'}`} aria-hidden="true" />
          {connection === 'open' ? (
            <span>
              Serving {shelfTotal === null ? 'files (counting…)' : filesLabel(shelfTotal)} · {clients.length} {clients.length === 1 ? 'client' : 'clients'}
            </span>
          ) : connection === 'locked' ? (
            <span data-testid="locked">
              This tab has no key to MCP Shelf. Open the address <code>mcp-shelf serve --ui</code> printed (after a restart it prints a new one).
            </span>
          ) : (
            <span>{connection === 'connecting' ? 'Connecting to MCP Shelf…' : 'Reconnecting to MCP Shelf…'}</span>
          )}
        </div>
        <span className="spacer" />
        {status && (
          <code className="topbar-socket mono" title="The socket clients connect to">
            {status.socketPath}
          </code>
        )}
        {connection === 'open' && (
          <button type="button" className="btn btn-small" onClick={() => setSettingsAt('reads')} data-testid="open-settings">
            Settings
          </button>
        )}
      </header>

      {connection === 'locked' ? (
        // Without a key that works (none, or an old one after a restart) nothing can load or change: the window says how to get in.
        <main className="main">
          <div className="empty-state" data-testid="locked-state">
            <div className="drop-target">
              <h2 className="empty-title">Open MCP Shelf from its address</h2>
              <p>
                This tab has no key to the shelf. <code>mcp-shelf serve --ui</code> printed an address ending in <code>#token=…</code>: open that one. After a
                restart the shelf prints a new address, and the old one no longer opens it.
              </p>
            </div>
          </div>
        </main>
      ) : (
        <Group className="layout" orientation="horizontal" {...savedLayout}>
          <Panel id="sidebar" className="sidebar-panel" defaultSize="30" minSize={220} maxSize="55" collapsible collapsedSize={0} panelRef={sidebarRef}>
            <aside className="sidebar" aria-label="Folders and files">
              <div className="sidebar-head">
                <h2>Folders</h2>
                {/* Not before the folders are known: the empty window has its own field, and text typed into one that is then replaced would be lost. */}
                {folders !== null && !empty && <AddFolder host={host} onPick={pick} onAddPath={addPath} complete={completePath} />}
              </div>
              {folders && folders.length > 0 && (
                <>
                  <FolderList folders={folders} onRemove={removeFolder} onToggle={toggleFolder} onOptions={folderOptions} />
                  <ResourceTree
                    folders={folders}
                    resources={resources}
                    selectedUri={selected?.uri ?? null}
                    onSelect={select}
                    filterRef={filterRef}
                    access={access.byUri}
                  />
                </>
              )}
              {empty && <p className="muted sidebar-empty">Nothing is published yet. Folders you add appear here, with their files below.</p>}
            </aside>
          </Panel>
          <Separator className="sidebar-resizer" aria-label="Resize the sidebar (double-click to hide or show it)" />
          <Panel id="main" minSize={320} className="main-panel">
            <main className="main">
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
                    {t.id === 'history' && access.asks.length > 0 && <span className="tab-count tab-count-alert">{access.asks.length} waiting</span>}
                  </button>
                ))}
              </div>
              <div className="panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
                {tab === 'preview' && empty && (
                  <div className="empty-state" data-testid="empty-state">
                    <div className="drop-target">
                      <span className="drop-icon" aria-hidden="true" />
                      <h2 className="empty-title">Share folders with your AI clients</h2>
                      <p>
                        MCP Shelf publishes the folders you choose, read-only, as MCP resources that Claude, VS Code, Cursor and other local clients can list
                        and read.
                      </p>
                      <p className="muted">
                        {host?.nativePicker ? 'Drop folders anywhere on this window, or' : 'Type the path of a folder to publish (~ is your home folder):'}
                      </p>
                      <AddFolder host={host} onPick={pick} onAddPath={addPath} complete={completePath} autoFocus />
                      <p className="muted small">
                        Then connect a client: the <strong>Connect a client</strong> tab has the config for Claude Desktop, VS Code, Cursor and Claude Code.
                      </p>
                    </div>
                  </div>
                )}
                {tab === 'preview' && folders === null && (
                  <div className="empty-small centered" data-testid="loading">
                    <p className="muted">{live ? 'Loading your folders…' : 'Connecting to MCP Shelf…'}</p>
                  </div>
                )}
                {tab === 'preview' &&
                  folders !== null &&
                  !empty &&
                  (selected ? (
                    <Preview
                      key={`${selected.uri}:${focus?.line ?? ''}`}
                      readText={readText}
                      ocr={status?.ocr ?? false}
                      updatedAt={updatedAt}
                      openUri={openUri}
                      raw={rawMode}
                      setRaw={setRawMode}
                      readForModel={readForModel}
                      audience={audience}
                      setAudience={setAudience}
                      openSettings={() => setSettingsAt('reads')}
                      focus={focus?.uri === selected.uri ? focus : undefined}
                      resource={selected}
                      hasText={selected.hasText === true}
                      preview={preview}
                      loading={reading}
                      access={access.byUri.get(selected.uri)}
                      onHistory={() => showHistory(selected.uri)}
                    />
                  ) : (
                    <div className="empty-small centered">
                      <p>Select a file to see exactly what an MCP client receives for it.</p>
                      <p className="muted small">Use the tree on the left; press / to filter.</p>
                      {clients.length === 0 && (
                        <p className="small next-step" data-testid="next-step">
                          Next: no client is connected yet.{' '}
                          <button type="button" className="link small" onClick={() => setTab('connect')}>
                            Connect Claude, VS Code or Cursor
                          </button>
                        </p>
                      )}
                    </div>
                  ))}
                {tab === 'traffic' && <TrafficPanel api={api} traffic={traffic} log={status?.traffic ?? null} notify={(m) => notify('info', m)} />}
                {tab === 'search' && folders && <SearchPanel api={api} folders={folders} onOpen={openHit} fail={fail} indexing={status?.search ?? null} />}
                {tab === 'history' && folders && (
                  <HistoryPanel
                    api={api}
                    folders={folders}
                    changes={access.version}
                    onOpen={openUri}
                    notify={(m) => notify('info', m)}
                    fail={fail}
                    initialUri={historyUri}
                    openRetention={() => setSettingsAt('history')}
                  />
                )}
                {tab === 'clients' && <ClientsPanel status={status} clients={clients} now={now} httpToken={httpToken} listClients={api.listClients} />}
                {tab === 'connect' && <ConnectPanel snippets={snippets} install={(c) => api.installClientConfig(c)} doctor={() => api.runDoctor()} />}
              </div>
            </main>
          </Panel>
        </Group>
      )}

      {drop.dragging && (
        <div className="drop-overlay" data-testid="drop-overlay">
          <div className="drop-overlay-box">
            <span className="drop-icon" aria-hidden="true" />
            <p>Drop folders to publish them</p>
            <p className="muted small">Files alone cannot be published.</p>
          </div>
        </div>
      )}
      {settingsAt && (
        <SettingsSheet
          api={api}
          at={settingsAt}
          onClose={() => setSettingsAt(null)}
          notify={(m) => notify('info', m)}
          fail={fail}
          readLimitInForce={status?.maxReadBytes ?? null}
        />
      )}
      <AskPrompt asks={access.asks} answer={access.answer} />
      <Toasts toasts={toasts} dismiss={dismiss} />
    </div>
  );
}
