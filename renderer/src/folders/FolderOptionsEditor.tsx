import { useEffect, useRef, useState } from 'react';

import type { FolderInfo, FolderOptions } from '../../../shared/shelfApi';
import { askNotificationPermission } from '../access/useAskAlert';

/** A folder's options in a dialog over the window: Apply and Cancel always in view, whatever the sidebar's height. */
export function FolderOptionsDialog({
  folder,
  onSave,
  onClose,
}: {
  folder: FolderInfo;
  onSave: (options: Partial<Omit<FolderOptions, 'enabled'>>) => Promise<void>;
  onClose: () => void;
}) {
  const titleId = `opts-title-${folder.path.replace(/[^A-Za-z0-9]/g, '_')}`;
  const ref = useRef<HTMLDivElement>(null);
  // Focus into the dialog, and back to where it was when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('input')?.focus();
    return () => before?.focus();
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal folder-options-modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref} data-testid="folder-options">
        <h2 id={titleId}>Options of {folder.path.split(/[\\/]/).filter(Boolean).pop() ?? folder.path}</h2>
        <p className="small muted mono folder-options-path">{folder.path}</p>
        <FolderOptionsEditor folder={folder} onSave={onSave} onClose={onClose} />
      </div>
    </div>
  );
}

/** Per-folder rules (dotfiles, .gitignore, extra ignore patterns), asking before reads, and changes by AI. Applied live on save. */
export function FolderOptionsEditor({
  folder,
  onSave,
  onClose,
}: {
  folder: FolderInfo;
  onSave: (options: Partial<Omit<FolderOptions, 'enabled'>>) => Promise<void>;
  onClose: () => void;
}) {
  const [showHidden, setShowHidden] = useState(folder.options.showHidden);
  const [gitignore, setGitignore] = useState(folder.options.gitignore);
  const [patterns, setPatterns] = useState(folder.options.extraIgnore.join('\n'));
  const [askBeforeRead, setAskBeforeRead] = useState(folder.options.askBeforeRead);
  const [changes, setChanges] = useState(folder.options.changes);
  const [saving, setSaving] = useState(false);
  const id = `opts-${folder.path.replace(/[^A-Za-z0-9]/g, '_')}`;
  const save = async () => {
    // Turning asking on is the moment a waiting read may need to reach the owner in another tab: ask for notifications now, on this click.
    // Likewise when changes by AI start to ask: a proposal waits for the owner as a read does.
    if ((askBeforeRead && !folder.options.askBeforeRead) || (changes === 'ask' && folder.options.changes !== 'ask')) askNotificationPermission();
    setSaving(true);
    const extraIgnore = patterns
      .split('\n')
      .map((p) => p.trim())
      .filter(Boolean);
    await onSave({ showHidden, gitignore, extraIgnore, askBeforeRead, changes });
    setSaving(false);
    onClose();
  };
  return (
    <form
      className="folder-options"
      // onSave never rejects (a failure is told to the person there), so the handler may let its promise go.
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <label className="check">
        <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} />
        Publish dotfiles <span className="muted">(secrets like .env and keys stay hidden)</span>
      </label>
      <label className="check">
        <input type="checkbox" checked={gitignore} onChange={(e) => setGitignore(e.target.checked)} />
        Honour .gitignore
      </label>
      <label className="check">
        <input type="checkbox" checked={askBeforeRead} onChange={(e) => setAskBeforeRead(e.target.checked)} data-testid="ask-before-read" />
        Ask before each client read <span className="muted">(this window asks; listing is not affected)</span>
      </label>
      <div className="folder-changes">
        <label htmlFor={`${id}-changes`} className="field-label">
          Changes by AI
        </label>
        <select
          id={`${id}-changes`}
          className="input input-small"
          value={changes}
          onChange={(e) => setChanges(e.target.value === 'ask' ? 'ask' : 'off')}
          aria-describedby={`${id}-changes-why`}
          data-testid="folder-changes"
        >
          <option value="off">Off</option>
          <option value="ask">Ask me</option>
        </select>
        <span id={`${id}-changes-why`} className="muted small">
          {changes === 'ask'
            ? 'A model may propose new files and edits here; nothing is written until you approve it in this window.'
            : 'Models can only read here: the write tools do not reach this folder.'}
        </span>
      </div>
      <label htmlFor={`${id}-patterns`} className="field-label">
        Also ignore <span className="muted">(gitignore patterns, one per line)</span>
      </label>
      <textarea
        id={`${id}-patterns`}
        className="input mono"
        rows={3}
        value={patterns}
        onChange={(e) => setPatterns(e.target.value)}
        placeholder={'*.log\nbuild/'}
        spellCheck={false}
      />
      <div className="row-end">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          Apply
        </button>
      </div>
    </form>
  );
}
