import { useEffect, useState } from 'react';

import type { ModelContent, ModelPreview, ModelReadRequest, ResourceInfo } from '../../../shared/shelfApi';
import { formatBytes } from '../format';
import { CodeView } from './CodeView';
import { languageFor, rawToolResultText } from './previewKind';

/** Clients whose profile differs (their clientInfo name), to see a file as each would. */
const AS_CLIENT: Array<{ name: string; label: string }> = [
  { name: '', label: 'any client' },
  { name: 'claude-code', label: 'Claude Code' },
  { name: 'claude-ai', label: 'Claude Desktop' },
  { name: 'Visual Studio Code', label: 'VS Code' },
  { name: 'cursor-vscode', label: 'Cursor' },
];

function ContentItem({ item, index, name }: { item: ModelContent; index: number; name: string }) {
  switch (item.type) {
    case 'text':
      // The first text is the file's (a page of it); later ones are notes to the model.
      return index === 0 ? (
        item.text === '' ? (
          <p className="note">An empty text.</p>
        ) : (
          <CodeView text={item.text} language={languageFor(name, '')} />
        )
      ) : (
        <p className="model-note" data-testid="model-note">
          {item.text}
        </p>
      );
    case 'image':
      return (
        <div className="media-view checkerboard model-image">
          <img src={`data:${item.mimeType};base64,${item.data}`} alt={`${name}, as the model sees it`} data-testid="model-image" />
        </div>
      );
    case 'resource_link':
      return (
        <p className="model-link small" data-testid="model-link">
          <span className="chip">resource link</span> <code className="mono">{item.name}</code>
          {item.mimeType && <span className="muted"> · {item.mimeType}</span>}
          {item.size !== undefined && <span className="muted"> · {formatBytes(item.size)}</span>}
          <span className="muted"> — a client that attaches resources can offer the file itself</span>
        </p>
      );
    case 'resource':
      return (
        <p className="model-link small">
          <span className="chip">embedded original</span> <code className="mono">{item.resource.mimeType}</code>
        </p>
      );
  }
}

/**
 * What a model gets for a file through the read_resource tool: a page of
 * text with the note that says where it stops, an image block at the size
 * the model sees, or the lines that describe a binary. Pages go on as the
 * model would go on.
 */
export function ModelView({
  resource,
  readForModel,
  updatedAt,
  raw,
}: {
  resource: ResourceInfo;
  readForModel: (uri: string, request: ModelReadRequest) => Promise<ModelPreview>;
  updatedAt?: number | null;
  raw: boolean;
}) {
  const [client, setClient] = useState('');
  const [at, setAt] = useState<{ offset?: number; column?: number }>({});
  const [shown, setShown] = useState<ModelPreview | null>(null);
  useEffect(() => {
    let live = true;
    setShown(null);
    void readForModel(resource.uri, { ...at, ...(client ? { client } : {}) }).then((p) => live && setShown(p));
    return () => {
      live = false;
    };
  }, [readForModel, resource.uri, at, client, updatedAt]);
  const next = shown?.ok ? shown.position.next : null;
  const paged = shown?.ok && shown.position.totalLines !== undefined && (next || (shown.position.firstLine ?? 1) > 1 || (shown.position.startColumn ?? 1) > 1);
  return (
    <div className="model-view" data-testid="model-view">
      <div className="model-bar small">
        <label className="muted">
          As{' '}
          <select className="input input-small" value={client} onChange={(e) => setClient(e.target.value)} aria-label="As which client">
            {AS_CLIENT.map((c) => (
              <option key={c.name} value={c.name}>
                {c.label}
              </option>
            ))}
          </select>{' '}
          gets it from <code className="mono">read_resource</code>
        </label>
        {shown?.ok && (
          <span className="chip" data-testid="model-detail" title={`Profile: ${shown.profile}`}>
            {shown.detail}
          </span>
        )}
        <span className="spacer" />
        {paged && (
          <div className="segmented" role="group" aria-label="Pages">
            <button type="button" onClick={() => setAt({})} disabled={!at.offset}>
              First page
            </button>
            <button type="button" onClick={() => next && setAt(next)} disabled={!next} data-testid="model-next">
              Next page
            </button>
          </div>
        )}
      </div>
      {!shown && <p className="muted">Reading as the model would…</p>}
      {shown && raw && <CodeView text={rawToolResultText(shown)} language="json" />}
      {shown && !raw && !shown.ok && (
        <div className="preview-error" role="alert">
          <div className="error-code">Error {shown.error.code}</div>
          <div className="error-message">{shown.error.message}</div>
          <p className="muted small">This is the isError result a model gets from read_resource for this file.</p>
        </div>
      )}
      {shown && !raw && shown.ok && shown.content.map((item, i) => <ContentItem key={i} item={item} index={i} name={resource.name} />)}
    </div>
  );
}
