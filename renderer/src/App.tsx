import { useCallback, useRef, useState } from 'react';
import { Group, Panel, Separator, useDefaultLayout, usePanelRef } from 'react-resizable-panels';

import type { ShelfApi } from '../../shared/shelfApi';
import { AskPrompt } from './access/AskPrompt';
import { useAccess } from './access/useAccess';
import { useAskAlert } from './access/useAskAlert';
import type { HostExtras } from './api/hostApi';
import type { ConnectionState } from './api/wsClient';
import { LockedState } from './app/LockedState';
import { usePreviewModes } from './app/PreviewTab';
import { type TabContext, type TabId, TABS } from './app/tabs';
import { TopBar } from './app/TopBar';
import { useOpenFile } from './app/useOpenFile';
import { useShelfState } from './app/useShelfState';
import { useShortcuts } from './app/useShortcuts';
import { ChangePrompt } from './changes/ChangePrompt';
import { useChanges } from './changes/useChanges';
import { DropOverlay } from './drop/DropOverlay';
import { useFolderDrop } from './drop/useFolderDrop';
import { AddFolder } from './folders/AddFolder';
import { FolderList } from './folders/FolderList';
import { useFolderActions } from './folders/useFolderActions';
import { useSelection } from './preview/useSelection';
import { ResourceTree } from './resources/ResourceTree';
import { useSearchDraft } from './search/useSearch';
import { type SettingsSection, SettingsSheet } from './settings/SettingsSheet';
import { useTraffic } from './traffic/useTraffic';
import { Toasts } from './ui/Toasts';
import { useToasts } from './ui/useToasts';

/**
 * The window's layout: the top bar, a resizable sidebar (folders, the tree)
 * and the tabs (app/tabs.tsx). State and behaviour live in hooks: what the
 * server holds (useShelfState), the selected file (useSelection), opening
 * files (useOpenFile), folder actions, drops, keys, notices, traffic, access.
 */
export function App({ api, connection }: { api: ShelfApi & HostExtras; connection: ConnectionState }) {
  const { toasts, notify, dismiss, fail } = useToasts();
  const live = connection === 'open';
  const shelf = useShelfState(api, live, fail);
  const { host, folders, resources, status } = shelf;
  const selection = useSelection(api, resources, folders, fail);
  const folderActions = useFolderActions(api, notify, fail);
  const drop = useFolderDrop(api.pathForFile, folderActions.addPaths, notify);
  const traffic = useTraffic(api, live, status?.traffic.maxEntries);
  const access = useAccess(api, live, fail);
  const changes = useChanges(api, live, fail);
  useAskAlert(access.asks, changes.proposals);
  const modes = usePreviewModes();
  const searchDraft = useSearchDraft();
  const [tab, setTab] = useState<TabId>('preview');
  const showPreview = useCallback(() => setTab('preview'), []);
  const warn = useCallback((text: string) => notify('warning', text), [notify]);
  const info = useCallback((text: string) => notify('info', text), [notify]);
  const open = useOpenFile(api, resources, selection.select, showPreview, warn);
  // The sidebar's width is the person's: dragged, collapsed (button or Ctrl+B), and kept across reloads.
  const savedLayout = useDefaultLayout({ id: 'mcp-shelf-layout', storage: localStorage });
  const sidebarRef = usePanelRef();
  const toggleSidebar = useCallback(() => {
    const panel = sidebarRef.current;
    if (!panel) return;
    if (panel.isCollapsed()) panel.expand();
    else panel.collapse();
  }, [sidebarRef]);
  const [historyUri, setHistoryUri] = useState<string | null>(null);
  /** The settings sheet: closed (null), or open at a section. */
  const [settingsAt, setSettingsAt] = useState<SettingsSection | null>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const onTabKey = useShortcuts(tab, setTab, filterRef, toggleSidebar);

  const { selected, clear: clearSelection } = selection;
  const removeFolder = useCallback(
    (path: string) => {
      const showing = selected !== null && (resources.get(path)?.some((r) => r.uri === selected.uri) ?? false);
      void folderActions.remove(path).then(() => {
        if (showing) clearSelection();
      });
    },
    [folderActions, selected, resources, clearSelection],
  );
  const completePath = useCallback((typed: string) => api.completeFolderPath(typed), [api]);

  const context: TabContext = {
    api,
    live,
    shelf,
    selection,
    open,
    folderActions,
    completePath,
    traffic,
    access,
    changes,
    modes,
    searchDraft,
    historyUri,
    showHistory: (uri) => {
      setHistoryUri(uri);
      setTab('history');
    },
    showConnect: () => setTab('connect'),
    openSettings: setSettingsAt,
    notify: info,
    fail,
  };
  const empty = folders !== null && folders.length === 0;
  const shown = TABS.find((t) => t.id === tab) ?? TABS[0];

  return (
    <div className="app" {...drop.handlers}>
      <TopBar
        connection={connection}
        folders={folders}
        clients={shelf.clients}
        status={status}
        toggleSidebar={toggleSidebar}
        openSettings={() => setSettingsAt('reads')}
      />
      {connection === 'locked' ? (
        <LockedState />
      ) : (
        <Group className="layout" orientation="horizontal" {...savedLayout}>
          <Panel id="sidebar" className="sidebar-panel" defaultSize="30" minSize={220} maxSize="55" collapsible collapsedSize={0} panelRef={sidebarRef}>
            <aside className="sidebar" aria-label="Folders and files">
              <div className="sidebar-head">
                <h2>Folders</h2>
                {/* Not before the folders are known: the empty window has its own field, and text typed into one that is then replaced would be lost. */}
                {folders !== null && !empty && <AddFolder host={host} onPick={folderActions.pick} onAddPath={folderActions.addPath} complete={completePath} />}
              </div>
              {folders && folders.length > 0 && (
                <>
                  <FolderList folders={folders} onRemove={removeFolder} onToggle={folderActions.toggle} onOptions={folderActions.setOptions} />
                  <ResourceTree
                    folders={folders}
                    resources={resources}
                    selectedUri={selected?.uri ?? null}
                    onSelect={open.select}
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
                {TABS.map((t) => (
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
                    title={`${t.label} (Ctrl+${t.shortcut})`}
                  >
                    {t.label}
                    {'badge' in t && t.badge(context)}
                  </button>
                ))}
              </div>
              <div className="panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
                {shown.render(context)}
              </div>
            </main>
          </Panel>
        </Group>
      )}
      {drop.dragging && <DropOverlay />}
      {settingsAt && (
        <SettingsSheet
          api={api}
          at={settingsAt}
          onClose={() => setSettingsAt(null)}
          notify={info}
          fail={fail}
          readLimitInForce={status?.maxReadBytes ?? null}
        />
      )}
      <AskPrompt asks={access.asks} answer={access.answer} />
      {/* One prompt at a time: a read is quick to answer, a change is read with care, so asks go first. */}
      {access.asks.length === 0 && <ChangePrompt api={api} proposals={changes.proposals} answer={changes.answer} fail={fail} />}
      <Toasts toasts={toasts} dismiss={dismiss} />
    </div>
  );
}
