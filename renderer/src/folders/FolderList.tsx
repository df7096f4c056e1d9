import './folders.css';

import { useState } from 'react';

import type { FolderInfo, FolderOptions } from '../../../shared/shelfApi';
import { formatBytes } from '../format';
import { filesLabel, folderSummary } from './folderCounts';
import { FolderOptionsDialog } from './FolderOptionsEditor';
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

/**
 * The published folders, one line each (name, numbers, options, the
 * switch), so the file tree below gets the height. A row opens for its
 * path, what is hidden and Remove; options open in a dialog.
 */
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
  const [open, setOpen] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  /** The folder whose Remove waits for a second click (nothing on disk changes, but clients lose its files). */
  const [confirming, setConfirming] = useState<string | null>(null);
  const [explaining, setExplaining] = useState<string | null>(null);
  const edited = folders.find((f) => f.path === editing) ?? null;
  return (
    <>
      <ul className="folder-list" aria-label="Published folders">
        {folders.map((f) => {
          const name = baseName(f.path);
          const isOpen = open === f.path;
          const detailsId = `folder-details-${f.path.replace(/[^A-Za-z0-9]/g, '_')}`;
          return (
            <li key={f.path} className={`folder-row state-${f.state}${isOpen ? ' open' : ''}`} data-testid="folder-card">
              <div className="folder-line">
                <button
                  type="button"
                  className="folder-disclosure"
                  onClick={() => setOpen(isOpen ? null : f.path)}
                  aria-expanded={isOpen}
                  aria-controls={detailsId}
                  title={f.path}
                  data-testid="folder-disclosure"
                >
                  <span className={`chevron${isOpen ? ' open' : ''}`} aria-hidden="true" />
                  <span className={`dot dot-${f.state}`} aria-hidden="true" />
                  <span className="folder-name">{name}</span>
                  <span className="visually-hidden">, {STATE_LABEL[f.state]}</span>
                </button>
                {f.options.askBeforeRead && (
                  <span className="badge badge-ask" title="Each client read waits until you allow it" data-testid="badge-ask">
                    asks
                  </span>
                )}
                {f.options.changes === 'ask' && (
                  <span className="badge badge-changes" title="Models may propose changes here; each waits until you approve it" data-testid="badge-changes">
                    changes
                  </span>
                )}
                <span
                  className="folder-count"
                  data-testid="folder-count"
                  title={f.options.enabled && f.state !== 'indexing' && !f.sizing ? `${filesLabel(f.fileCount)}, ${formatBytes(f.totalBytes)}` : undefined}
                >
                  {folderSummary(f).files}
                  {folderSummary(f).size && <span className="folder-size"> · {folderSummary(f).size}</span>}
                </span>
                <button
                  type="button"
                  className="icon-btn"
                  onClick={() => setEditing(f.path)}
                  aria-haspopup="dialog"
                  aria-label={`Options of ${name}`}
                  title="Options"
                >
                  <span className="kebab" aria-hidden="true" />
                </button>
                <label className="switch" title={f.options.enabled ? 'Published: click to pause' : 'Paused: click to publish'}>
                  <input
                    type="checkbox"
                    role="switch"
                    checked={f.options.enabled}
                    onChange={(e) => onToggle(f.path, e.target.checked)}
                    aria-label={`Publish ${name}`}
                  />
                  <span className="switch-track" aria-hidden="true" />
                </label>
              </div>
              {f.error && <div className="folder-error">{f.error}</div>}
              {isOpen && (
                <div className="folder-details" id={detailsId}>
                  <span className="folder-path mono" title={f.path}>
                    {/* Marks keep the path's slashes in place inside the right-to-left ellipsis box. */}
                    {`\u200E${f.path}\u200E`}
                  </span>
                  <div className="folder-meta">
                    <span className={`badge badge-${f.state}`}>{STATE_LABEL[f.state]}</span>
                    {!f.saved && (
                      <span className="badge" title="Given on the command line; not saved">
                        this run
                      </span>
                    )}
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
                    <span className="spacer" />
                    {confirming === f.path ? (
                      <span className="confirm" role="group" aria-label={`Confirm removing ${name}`}>
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
                        aria-label={`Remove ${name}`}
                      >
                        Remove
                      </button>
                    )}
                  </div>
                  {explaining === f.path && <HiddenList folder={f} />}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {edited && <FolderOptionsDialog folder={edited} onSave={(o) => onOptions(edited.path, o)} onClose={() => setEditing(null)} />}
    </>
  );
}
