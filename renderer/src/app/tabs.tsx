// The Traffic tab's sheet is imported with its entry (traffic/ keeps its own components as they are).
import '../traffic/traffic.css';

import type { ReactNode } from 'react';

import type { ShelfApi } from '../../../shared/shelfApi';
import { HistoryPanel } from '../access/HistoryPanel';
import type { AccessState } from '../access/useAccess';
import type { ChangesState } from '../changes/useChanges';
import { ClientsPanel } from '../clients/ClientsPanel';
import { ConnectPanel } from '../clients/ConnectPanel';
import type { FolderActions } from '../folders/useFolderActions';
import type { SelectionState } from '../preview/useSelection';
import { SearchPanel } from '../search/SearchPanel';
import type { SearchDraft } from '../search/useSearch';
import type { SettingsSection } from '../settings/SettingsSheet';
import { TrafficPanel } from '../traffic/TrafficPanel';
import type { TrafficState } from '../traffic/useTraffic';
import { type PreviewModes, PreviewTab } from './PreviewTab';
import type { OpenFile } from './useOpenFile';
import type { ShelfState } from './useShelfState';

/** What every tab may show or do: the window's hooks, gathered once by App. */
export interface TabContext {
  api: ShelfApi;
  live: boolean;
  shelf: ShelfState;
  selection: SelectionState;
  open: OpenFile;
  folderActions: FolderActions;
  completePath: (typed: string) => ReturnType<ShelfApi['completeFolderPath']>;
  traffic: TrafficState;
  access: AccessState;
  /** Changes by AI waiting for a decision. */
  changes: ChangesState;
  modes: PreviewModes;
  /** The Search tab's query, results and hit, kept while it is away. */
  searchDraft: SearchDraft;
  /** The file whose history the History tab shows (null: all). */
  historyUri: string | null;
  showHistory: (uri: string | null) => void;
  showConnect: () => void;
  openSettings: (at: SettingsSection) => void;
  notify: (text: string) => void;
  fail: (err: unknown) => void;
}

export interface TabDef {
  id: string;
  label: string;
  /** The digit that opens it with Ctrl/Cmd. */
  shortcut: string;
  /** A count beside the label (nothing: none). */
  badge?: (c: TabContext) => ReactNode;
  render: (c: TabContext) => ReactNode;
}

const count = (n: number) => (n > 0 ? <span className="tab-count">{n.toLocaleString()}</span> : null);

/** The window's tabs, in order: a new tab is one entry here. */
export const TABS = [
  { id: 'preview', label: 'Preview', shortcut: '1', render: (c) => <PreviewTab c={c} /> },
  {
    id: 'search',
    label: 'Search',
    shortcut: '2',
    render: (c) =>
      c.shelf.folders && (
        <SearchPanel
          api={c.api}
          folders={c.shelf.folders}
          onOpen={c.open.openHit}
          fail={c.fail}
          indexing={c.shelf.status?.search ?? null}
          draft={c.searchDraft}
        />
      ),
  },
  {
    id: 'traffic',
    label: 'Traffic',
    shortcut: '3',
    badge: (c) => count(c.traffic.entries.length),
    render: (c) => <TrafficPanel api={c.api} traffic={c.traffic} log={c.shelf.status?.traffic ?? null} notify={c.notify} />,
  },
  {
    id: 'history',
    label: 'History',
    shortcut: '4',
    badge: (c) => {
      const n = c.access.asks.length + c.changes.proposals.length;
      return n > 0 && <span className="tab-count tab-count-alert">{n} waiting</span>;
    },
    render: (c) =>
      c.shelf.folders && (
        <HistoryPanel
          api={c.api}
          folders={c.shelf.folders}
          changes={c.access.version}
          onOpen={c.open.openUri}
          notify={c.notify}
          fail={c.fail}
          initialUri={c.historyUri}
          openRetention={() => c.openSettings('history')}
        />
      ),
  },
  {
    id: 'clients',
    label: 'Clients',
    shortcut: '5',
    badge: (c) => count(c.shelf.clients.length),
    render: (c) => <ClientsPanel status={c.shelf.status} clients={c.shelf.clients} httpToken={c.shelf.httpToken} listClients={c.api.listClients} />,
  },
  {
    id: 'connect',
    label: 'Connect a client',
    shortcut: '6',
    render: (c) => <ConnectPanel snippets={c.shelf.snippets} install={(client) => c.api.installClientConfig(client)} doctor={() => c.api.runDoctor()} />,
  },
] as const satisfies readonly TabDef[];

export type TabId = (typeof TABS)[number]['id'];
