import './settings.css';

import { type Ref, useEffect, useRef, useState } from 'react';

import type { Settings, SettingsPatch, ShelfApi } from '../../../shared/shelfApi';
import { formatBytes } from '../format';
import { useDialogFocus } from '../ui/useDialogFocus';

const MIB = 1024 * 1024;

/** Where the sheet opens: its first field, or the access history's bounds (from the History tab). */
export type SettingsSection = 'reads' | 'history';

/** A size setting edited in MiB (whole ones unless `fractional`), kept in bytes; empty while typing is NaN. */
function MibInput({
  bytes,
  onBytes,
  label,
  fractional = false,
  inputRef,
  describedBy,
}: {
  bytes: number;
  onBytes: (bytes: number) => void;
  label?: string;
  fractional?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  describedBy?: string;
}) {
  const shown = Number.isNaN(bytes) ? '' : String(fractional ? +(bytes / MIB).toFixed(2) : Math.round(bytes / MIB));
  return (
    <>
      <input
        ref={inputRef}
        className="input input-small input-num"
        type="number"
        min={1}
        max={1024}
        step={fractional ? 'any' : 1}
        required
        value={shown}
        onChange={(e) => onBytes(e.target.value.trim() === '' ? Number.NaN : Number(e.target.value) * MIB)}
        aria-label={label}
        aria-describedby={describedBy}
      />{' '}
      MiB
    </>
  );
}

/**
 * Everything settings.json holds besides the folders, in one sheet: what
 * clients may read, HTTP, the tools, the logs' bounds. Saved on Apply; a
 * value the server refuses (a port in use) is reported and nothing changes.
 */
export function SettingsSheet({
  api,
  at,
  onClose,
  notify,
  fail,
  readLimitInForce,
}: {
  api: ShelfApi;
  at: SettingsSection;
  onClose: () => void;
  notify: (m: string) => void;
  fail: (e: unknown) => void;
  /** The limit this run uses (differs from the setting when the command line set one). */
  readLimitInForce: number | null;
}) {
  const [s, setS] = useState<Settings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** OCR's languages as typed ("eng+deu"), kept apart while editing. */
  const [languages, setLanguages] = useState<string | null>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const historyRef = useRef<HTMLInputElement>(null);
  const loaded = s !== null;
  const sheetRef = useRef<HTMLFormElement>(null);
  useDialogFocus(sheetRef, onClose, loaded);

  useEffect(() => {
    api.getSettings().then(setS, fail);
  }, [api, fail]);
  useEffect(() => {
    if (loaded) (at === 'history' ? historyRef : firstRef).current?.focus();
  }, [loaded, at]);

  if (!s) return null;
  const set = (patch: Partial<Settings>) => setS({ ...s, ...patch });
  const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

  const save = async () => {
    const patch: SettingsPatch = {
      maxReadBytes: Math.round(s.maxReadBytes),
      tools: s.tools,
      askTimeoutSeconds: s.askTimeoutSeconds,
      http: { enabled: s.http.enabled, port: s.http.port },
      log: { maxEntries: s.log.maxEntries, maxBytes: s.log.maxBytes },
      history: { maxAgeDays: s.history.maxAgeDays, maxBytes: s.history.maxBytes },
      delivery: { textBudget: s.delivery.textBudget, imageMaxSide: s.delivery.imageMaxSide, imageMaxBytes: Math.round(s.delivery.imageMaxBytes) },
      ocr: { enabled: s.ocr.enabled, languages: languages === null ? s.ocr.languages : languages.split(/[+,\s]+/).filter((l) => l !== '') },
    };
    setSaving(true);
    setError(null);
    try {
      await api.updateSettings(patch);
      notify('Settings saved');
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <form
        ref={sheetRef}
        className="modal settings"
        role="dialog"
        aria-modal="true"
        aria-labelledby="settings-title"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        data-testid="settings-sheet"
      >
        <h2 id="settings-title">Settings</h2>
        <fieldset>
          <legend>What clients may read</legend>
          <label className="field">
            <span>Largest file a client may read</span>
            <span className="with-unit">
              <MibInput bytes={s.maxReadBytes} onBytes={(maxReadBytes) => set({ maxReadBytes })} fractional inputRef={firstRef} describedBy="read-limit-note" />
            </span>
          </label>
          <p className="small muted" id="read-limit-note">
            For resources/read, one message: past 7 MiB, a file’s base64 reply can exceed the 10 MiB message limit of the official SDK clients. The tools read
            files of any size a page at a time.
          </p>
          {readLimitInForce !== null && readLimitInForce !== s.maxReadBytes && (
            <p className="small" data-testid="read-limit-override">
              This run uses {formatBytes(readLimitInForce)}, set on the command line (--max-read-bytes); the value here applies when the shelf starts without
              it.
            </p>
          )}
          <label className="check">
            <input type="checkbox" checked={s.tools} onChange={(e) => set({ tools: e.target.checked })} /> Offer the read-only tools (list, read, search, grep)
            to clients that only use tools
          </label>
          <label className="field">
            <span>An ask-before-read waits</span>
            <span className="with-unit">
              <input
                className="input input-small input-num"
                type="number"
                min={1}
                max={3600}
                required
                value={s.askTimeoutSeconds}
                onChange={(e) => set({ askTimeoutSeconds: num(e.target.value) })}
              />{' '}
              s
            </span>
          </label>
        </fieldset>
        <fieldset>
          <legend>What the tools give a model</legend>
          <label className="field">
            <span>Text a read gives at most</span>
            <span className="with-unit">
              <input
                className="input input-small input-num"
                type="number"
                min={1000}
                max={10_000_000}
                step={1000}
                required
                value={s.delivery.textBudget}
                onChange={(e) => set({ delivery: { ...s.delivery, textBudget: num(e.target.value) } })}
                aria-describedby="budget-note"
              />{' '}
              characters
            </span>
          </label>
          <p className="small muted" id="budget-note">
            About a quarter as many tokens. A longer file is read a page at a time; Claude Code gets at most 75,000 (its tool output stops at 25,000 tokens).
          </p>
          <label className="field">
            <span>Images at most</span>
            <span className="with-unit">
              <input
                className="input input-small input-num"
                type="number"
                min={64}
                max={8000}
                required
                value={s.delivery.imageMaxSide}
                onChange={(e) => set({ delivery: { ...s.delivery, imageMaxSide: num(e.target.value) } })}
                aria-label="Longest side of an image, in pixels"
              />{' '}
              px a side,{' '}
              <MibInput
                bytes={s.delivery.imageMaxBytes}
                onBytes={(imageMaxBytes) => set({ delivery: { ...s.delivery, imageMaxBytes } })}
                label="Largest image in MiB"
                fractional
              />
            </span>
          </label>
        </fieldset>
        <fieldset>
          <legend>Text in images and scans</legend>
          <label className="check">
            <input type="checkbox" checked={s.ocr.enabled} onChange={(e) => set({ ocr: { ...s.ocr, enabled: e.target.checked } })} data-testid="ocr-enabled" />{' '}
            Read the words in images and scanned PDF pages (OCR)
          </label>
          <label className="field">
            <span>Languages</span>
            <input
              className="input input-small"
              value={languages ?? s.ocr.languages.join('+')}
              onChange={(e) => setLanguages(e.target.value)}
              disabled={!s.ocr.enabled}
              pattern="[a-z_]+([+, ][a-z_]+)*"
              required
              aria-describedby="ocr-note"
            />
          </label>
          <p className="small muted" id="ocr-note">
            Tesseract codes joined with +, such as eng+deu. English ships; put another language’s .traineddata in the settings folder’s ocr-languages folder.
            Text found is kept with the rest of the documents’ text.
          </p>
        </fieldset>
        <fieldset>
          <legend>Streamable HTTP</legend>
          <label className="check">
            <input type="checkbox" checked={s.http.enabled} onChange={(e) => set({ http: { ...s.http, enabled: e.target.checked } })} /> Serve MCP over HTTP on{' '}
            {s.http.host}
          </label>
          <label className="field">
            <span>Port</span>
            <input
              className="input input-small input-num"
              type="number"
              min={0}
              max={65535}
              required
              value={s.http.port}
              onChange={(e) => set({ http: { ...s.http, port: num(e.target.value) } })}
              disabled={!s.http.enabled}
            />
          </label>
          <p className="small muted">Clients send the bearer token shown in the Clients tab; it is made once and kept in settings.</p>
        </fieldset>
        <fieldset>
          <legend>Logs</legend>
          <label className="field">
            <span>Traffic log keeps</span>
            <span className="with-unit">
              <input
                className="input input-small input-num"
                type="number"
                min={100}
                max={1_000_000}
                required
                value={s.log.maxEntries}
                onChange={(e) => set({ log: { ...s.log, maxEntries: num(e.target.value) } })}
              />{' '}
              messages, <MibInput bytes={s.log.maxBytes} onBytes={(maxBytes) => set({ log: { ...s.log, maxBytes } })} label="Traffic log size in MiB" /> at most
            </span>
          </label>
          <label className="field">
            <span>Access history keeps</span>
            <span className="with-unit">
              <input
                ref={historyRef}
                className="input input-small input-num"
                type="number"
                min={1}
                max={3650}
                required
                value={s.history.maxAgeDays}
                onChange={(e) => set({ history: { ...s.history, maxAgeDays: num(e.target.value) } })}
              />{' '}
              days,{' '}
              <MibInput bytes={s.history.maxBytes} onBytes={(maxBytes) => set({ history: { ...s.history, maxBytes } })} label="Access history size in MiB" /> at
              most
            </span>
          </label>
        </fieldset>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="ask-actions settings-actions">
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            Apply
          </button>
        </div>
      </form>
    </div>
  );
}
