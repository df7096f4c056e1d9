import type { ClientInfo, FolderInfo, ServerStatus } from '../../../shared/shelfApi';
import type { ConnectionState } from '../api/wsClient';
import { filesLabel, shelfFiles } from '../folders/folderCounts';

/** The window's top bar: the sidebar button, the name, what is served to how many clients, the socket, Settings. */
export function TopBar({
  connection,
  folders,
  clients,
  status,
  toggleSidebar,
  openSettings,
}: {
  connection: ConnectionState;
  folders: FolderInfo[] | null;
  clients: ClientInfo[];
  status: ServerStatus | null;
  toggleSidebar: () => void;
  openSettings: () => void;
}) {
  // The same numbers as the folder rows (the server's counts), not the pages of the tree loaded so far.
  const shelfTotal = shelfFiles(folders);
  return (
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
            This tab has no key to MCP Shelf. Open the address <code>mcp-shelf serve --ui</code> printed.
          </span>
        ) : (
          <span data-testid="connection-state">
            {connection === 'connecting'
              ? 'Connecting to MCP Shelf…'
              : connection === 'stopped'
                ? 'MCP Shelf stopped — reconnecting…'
                : 'Reconnecting to MCP Shelf…'}
          </span>
        )}
      </div>
      <span className="spacer" />
      {status && (
        <code className="topbar-socket mono" title="The socket clients connect to">
          {status.socketPath}
        </code>
      )}
      {connection === 'open' && (
        <button type="button" className="btn btn-small" onClick={openSettings} data-testid="open-settings">
          Settings
        </button>
      )}
    </header>
  );
}
