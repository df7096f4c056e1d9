import { useState } from 'react';

import { useLastAttempt } from '../access/useLastAttempt';
import { AddFolder } from '../folders/AddFolder';
import { Preview } from '../preview/Preview';
import type { TabContext } from './tabs';

/** How the preview shows a file, kept while moving from file to file and tab to tab. */
export interface PreviewModes {
  /** The raw response instead of the rendered preview. */
  raw: boolean;
  setRaw: (raw: boolean) => void;
  /** The client's view, or what the read tool gives a model. */
  audience: 'client' | 'model';
  setAudience: (a: 'client' | 'model') => void;
}

export function usePreviewModes(): PreviewModes {
  const [raw, setRaw] = useState(false);
  const [audience, setAudience] = useState<'client' | 'model'>('client');
  return { raw, setRaw, audience, setAudience };
}

/** The Preview tab: the first-run welcome, loading, the selected file, or how to pick one. */
export function PreviewTab({ c }: { c: TabContext }) {
  const { folders, host, status, clients } = c.shelf;
  const { selected, preview, reading, updatedAt } = c.selection;
  const { focus } = c.open;
  const access = selected ? c.access.byUri.get(selected.uri) : undefined;
  const lastAttempt = useLastAttempt(c.api, selected?.uri ?? '', !!selected && !access, c.access.version);
  if (folders === null) {
    return (
      <div className="empty-small centered" data-testid="loading">
        <p className="muted">{c.live ? 'Loading your folders…' : 'Connecting to MCP Shelf…'}</p>
      </div>
    );
  }
  if (folders.length === 0) {
    return (
      <div className="empty-state" data-testid="empty-state">
        <div className="drop-target">
          <span className="drop-icon" aria-hidden="true" />
          <h2 className="empty-title">Share folders with your AI clients</h2>
          <p>MCP Shelf publishes the folders you choose, read-only, as MCP resources that Claude, VS Code, Cursor and other local clients can list and read.</p>
          <p className="muted">
            {host?.nativePicker ? 'Drop folders anywhere on this window, or' : 'Type the path of a folder to publish (~ is your home folder):'}
          </p>
          <AddFolder host={host} onPick={c.folderActions.pick} onAddPath={c.folderActions.addPath} complete={c.completePath} autoFocus />
          <p className="muted small">
            Then connect a client: the <strong>Connect a client</strong> tab has the config for Claude Desktop, VS Code, Cursor and Claude Code.
          </p>
        </div>
      </div>
    );
  }
  if (!selected) {
    return (
      <div className="empty-small centered">
        <p>Select a file to see exactly what an MCP client receives for it.</p>
        <p className="muted small">Use the tree on the left; press / to filter.</p>
        {clients.length === 0 && (
          <p className="small next-step" data-testid="next-step">
            Next: no client is connected yet.{' '}
            <button type="button" className="link small" onClick={c.showConnect}>
              Connect Claude, VS Code or Cursor
            </button>
          </p>
        )}
      </div>
    );
  }
  return (
    <Preview
      key={`${selected.uri}:${focus?.line ?? ''}`}
      readText={c.api.readResource}
      ocr={status?.ocr ?? false}
      updatedAt={updatedAt}
      openUri={c.open.openUri}
      raw={c.modes.raw}
      setRaw={c.modes.setRaw}
      readForModel={c.api.readForModel}
      fileLink={c.api.fileLink}
      audience={c.modes.audience}
      setAudience={c.modes.setAudience}
      openSettings={() => c.openSettings('reads')}
      focus={focus?.uri === selected.uri ? focus : undefined}
      resource={selected}
      hasText={selected.hasText === true}
      preview={preview}
      loading={reading}
      access={access}
      lastAttempt={lastAttempt}
      onHistory={() => c.showHistory(selected.uri)}
    />
  );
}
