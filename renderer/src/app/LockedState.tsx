/** Without a key that works (none, or an old one after a restart) nothing can load or change: the window says how to get in. */
export function LockedState() {
  return (
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
  );
}
