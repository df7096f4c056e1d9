import { type FormEvent, useEffect, useState } from 'react';

import type { HostInfo } from '../../../shared/shelfApi';

/**
 * "Add folder…": the native picker under Electron; a path field in a
 * browser, which cannot open a folder picker that reveals paths.
 */
export function AddFolder({
  host,
  onPick,
  onAddPath,
  autoFocus = false,
  complete,
}: {
  host: HostInfo | null;
  onPick: () => void;
  onAddPath: (path: string) => Promise<boolean>;
  autoFocus?: boolean;
  /** Folders on the host that start with what was typed. */
  complete?: (typed: string) => Promise<string[]>;
}) {
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  useEffect(() => {
    if (!complete || !path.trim()) return setSuggestions([]);
    let current = true;
    const timer = setTimeout(() => void complete(path).then((s) => current && setSuggestions(s), () => undefined), 120);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [complete, path]);
  if (host?.nativePicker) {
    return (
      <button type="button" className="btn btn-primary" onClick={onPick}>
        Add folder…
      </button>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!path.trim()) return;
    setBusy(true);
    const ok = await onAddPath(path.trim());
    setBusy(false);
    if (ok) setPath('');
  };
  return (
    <form className="add-path" onSubmit={submit}>
      <label className="visually-hidden" htmlFor="add-path-input">
        Folder path
      </label>
      <input
        id="add-path-input"
        className="input"
        placeholder="/path/to/folder"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        spellCheck={false}
        autoComplete="off"
        autoFocus={autoFocus}
        list="add-path-suggestions"
      />
      <datalist id="add-path-suggestions" data-testid="path-suggestions">
        {suggestions.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <button type="submit" className="btn btn-primary" disabled={busy || !path.trim()}>
        Publish
      </button>
    </form>
  );
}
