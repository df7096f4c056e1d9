/** Without a key that works (none, or one of another shelf's) nothing can load or change: the window says how to get in. */
export function LockedState() {
  return (
    <main className="main">
      <div className="empty-state" data-testid="locked-state">
        <div className="drop-target">
          <h2 className="empty-title">Open MCP Shelf from its address</h2>
          <p>
            This tab has no key to the shelf. <code>mcp-shelf serve --ui</code> printed an address ending in <code>#token=…</code>: open that one. It stays the
            same from run to run; a shelf with other settings (another <code>--config-dir</code>, or its window file removed) prints a different one.
          </p>
        </div>
      </div>
    </main>
  );
}
