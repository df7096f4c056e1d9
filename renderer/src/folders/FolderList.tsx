import { useState } from 'react';

import type { FolderInfo, FolderOptions } from '../../../shared/shelfApi';
import { formatBytes } from '../format';
import { FolderOptionsEditor } from './FolderOptionsEditor';
import { hiddenCount, HiddenList } from './HiddenList';

const STATE_LABEL: Record<FolderInfo['state'], string> = {
  indexing: 'Indexing',
  watching: 'Watching',
  polling: 'Polling',
  missing: 'Missing',
  disabled: 'Disabled',
  error: 'Error',
};

export function baseName(p: string): string {
  return p.split(/[\\/]/).filter(Boolean).pop() ?? p;
}

/** The published folders, each with its numbers, watch state, errors and controls. */
export function FolderList({
  folders,
  onRemove,
  onToggle,
  onOptions,
}: {
  folders: FolderInfo[];
  onRemove: (path: string) => void;
  onToggle: (path: string, enabled: boolean) => void;
  onOptions: (path: string, options: Partial<Omit<FolderOptions, 'enabled'>>) => Promise<void>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  /** The folder whose Remove waits for a second click (nothing on disk changes, but clients lose its files). */
  const [confirming, setConfirming] = useState<string | null>(null);
  const [explaining, setExplaining] = useState<string | null>(null);
  return (
    <ul className="folder-list" aria-label="Published folders">
      {folders.map((f) => (
        <li key={f.path} className={`folder-card state-${f.state}`} data-testid="folder-card">
          <div className="folder-head">
            <span className={`dot dot-${f.state}`} aria-hidden="true" />
            <div className="folder-titles">
              <span className="folder-name">{baseName(f.path)}</span>
              <span className="folder-path mono" title={f.path}>
                {/* Marks keep the path's slashes in place inside the right-to-left ellipsis box. */}
                {`\u200E${f.path}\u200E`}
              </span>
            </div>
            <label className="switch" title={f.options.enabled ? 'Published: click to pause' : 'Paused: click to publish'}>
              <input
                type="checkbox"
                role="switch"
                checked={f.options.enabled}
                onChange={(e) => onToggle(f.path, e.target.checked)}
                aria-label={`Publish ${baseName(f.path)}`}
              />
              <span className="switch-track" aria-hidden="true" />
            </label>
          </div>
          <div className="folder-meta">
            <span>{f.fileCount.toLocaleString()} files</span>
            <span>{formatBytes(f.totalBytes)}</span>
            {hiddenCount(f) > 0 && (
              <button
                type="button"
                className="link small"
                onClick={() => setExplaining(explaining === f.path ? null : f.path)}
                aria-expanded={explaining === f.path}
                data-testid="hidden-count"
              >
                {hiddenCount(f).toLocaleString()} hidden
              </button>
            )}
            <span className={`badge badge-${f.state}`}>{STATE_LABEL[f.state]}</span>
            {!f.saved && <span className="badge" title="Given on the command line; not saved">this run</span>}
            {f.options.askBeforeRead && (
              <span className="badge badge-ask" title="Each client read waits until you allow it" data-testid="badge-ask">
                asks first
              </span>
            )}
          </div>
          {f.error && <div className="folder-error">{f.error}</div>}
          {explaining === f.path && <HiddenList folder={f} />}
          <div className="folder-actions">
            <button
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => setEditing(editing === f.path ? null : f.path)}
              aria-expanded={editing === f.path}
              aria-label={`Options of ${baseName(f.path)}`}
            >
              Options
            </button>
            {confirming === f.path ? (
              <span className="confirm" role="group" aria-label={`Confirm removing ${baseName(f.path)}`}>
                <span className="small muted">Stop publishing? Files stay on disk.</span>
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  onClick={() => {
                    setConfirming(null);
                    onRemove(f.path);
                  }}
                  autoFocus
                >
                  Remove
                </button>
                <button type="button" className="btn btn-small" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() => setConfirming(f.path)}
                title="Stop publishing this folder (nothing on disk changes)"
                aria-label={`Remove ${baseName(f.path)}`}
              >
                Remove
              </button>
            )}
          </div>
          {editing === f.path && <FolderOptionsEditor folder={f} onSave={(o) => onOptions(f.path, o)} onClose={() => setEditing(null)} />}
        </li>
      ))}
    </ul>
  );
}
