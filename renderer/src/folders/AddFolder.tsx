import './folders.css';

import { type FormEvent, useEffect, useRef, useState } from 'react';

import type { HostInfo } from '../../../shared/shelfApi';
import { coversHome } from './coversHome';

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
  /** Null when the folder was published, else why not (shown under the field). */
  onAddPath: (path: string) => Promise<string | null>;
  autoFocus?: boolean;
  /** Folders on the host that start with what was typed. */
  complete?: (typed: string) => Promise<string[]>;
}) {
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  /** Why the path typed cannot be published: said at the field, until it is edited. */
  const [problem, setProblem] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  /** The home folder (or one above it) was typed: published only once the person says so. */
  const [confirming, setConfirming] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming !== null) cancelRef.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (!complete || !path.trim()) return setSuggestions([]);
    let current = true;
    const timer = setTimeout(
      () =>
        void complete(path).then(
          (s) => current && setSuggestions(s),
          () => undefined,
        ),
      120,
    );
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
  // onAddPath never rejects (it answers with the reason instead), so the event handler may let the promise go.
  const publish = async (typed: string) => {
    setConfirming(null);
    setBusy(true);
    const why = await onAddPath(typed);
    setBusy(false);
    setProblem(why);
    if (why === null) setPath('');
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = path.trim();
    if (!typed) return;
    // Said before asking the server: a relative path would resolve against wherever the server was started.
    if (!/^(\/|~($|[\\/])|[A-Za-z]:[\\/]|\\\\)/.test(typed)) {
      setProblem('Not a full path: give one that starts with / or ~ (your home folder).');
      return;
    }
    if (host && coversHome(typed, host.home) !== null) return setConfirming(typed);
    await publish(typed);
  };
  return (
    <form className="add-path" onSubmit={(e) => void submit(e)} noValidate>
      <div className="add-path-row">
        <label className="visually-hidden" htmlFor="add-path-input">
          Folder path
        </label>
        <input
          id="add-path-input"
          className="input"
          placeholder="/path/to/folder"
          value={path}
          onChange={(e) => {
            setPath(e.target.value);
            setProblem(null);
            setConfirming(null);
          }}
          aria-invalid={problem !== null}
          aria-describedby={problem !== null ? 'add-path-problem' : undefined}
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
      </div>
      {confirming !== null && (
        <div
          className="confirm-broad"
          role="alertdialog"
          aria-labelledby="confirm-broad-title"
          aria-describedby="confirm-broad-text"
          data-testid="confirm-home"
        >
          <p id="confirm-broad-title">
            <strong>
              {coversHome(confirming, host?.home ?? '') === 'above' ? 'Publish a folder that holds your whole home folder?' : 'Publish your whole home folder?'}
            </strong>
          </p>
          <p id="confirm-broad-text">
            Every file in <code>{host?.home}</code> — documents, mail, keys, other projects — becomes readable by the AI clients you connect, and the shelf
            indexes all of it. Publishing just the folders you mean is safer.
          </p>
          <div className="confirm-broad-actions">
            <button ref={cancelRef} type="button" className="btn btn-primary" onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void publish(confirming)}>
              Publish it anyway
            </button>
          </div>
        </div>
      )}
      {problem !== null && (
        <p className="field-problem" id="add-path-problem" role="alert" data-testid="path-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
