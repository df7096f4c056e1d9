/** Shown over the whole window while files are dragged over it. */
export function DropOverlay() {
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div className="drop-overlay-box">
        <span className="drop-icon" aria-hidden="true" />
        <p>Drop folders to publish them</p>
        <p className="muted small">Files alone cannot be published.</p>
      </div>
    </div>
  );
}
