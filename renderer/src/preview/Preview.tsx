import './preview.css';

import { useEffect, useMemo, useState } from 'react';

import { textUriOf } from '../../../shared/documentUris';
import { READ_FAILURES } from '../../../shared/readFailure';
import type { AccessEntry, FileAccess, ModelPreview, ModelReadRequest, ReadPreview, ResourceContents, ResourceInfo } from '../../../shared/shelfApi';
import { describeAccess } from '../access/useAccess';
import { formatBytes, formatWhen } from '../format';
import { CopyButton } from '../ui/CopyButton';
import { CodeView } from './CodeView';
import { HexView } from './HexView';
import { type MarkdownContext, MarkdownPane } from './MarkdownView';
import { ModelView } from './ModelView';
import { base64Bytes, languageFor, type PreviewKind, previewKind, rawResponseText } from './previewKind';

/** Files whose text the server extracts (`?as=text`), when the caller does not say (it knows from the listed companions). */
const DOCUMENT = /\.(pdf|docx|xlsx|pptx|epub|odt|ods|odp|rtf|html?|xhtml|ipynb|eml|mbox)$/i;
/** Images whose text OCR reads, when the server has OCR on. */
const OCR_IMAGE = /\.(png|jpe?g|webp|tiff?)$/i;

/** What a read gave, in words: its MIME type, size and how it travels (a line of facts, not buttons). */
function describeShown(shown: ReadPreview | null, asText: boolean): string[] {
  if (!shown) return [];
  if (!shown.ok) return [`error ${shown.error.code}`];
  const c = shown.result.contents[0] as ResourceContents;
  const facts = [c.mimeType];
  if ('text' in c) facts.push(asText ? `extracted text, ${c.text.length.toLocaleString()} characters` : `text, ${formatBytes(shown.size)}`);
  else facts.push(`${formatBytes(shown.size)}, sent as base64`);
  const decoded = c._meta?.['dev.mcpshelf/decodedFrom'];
  if (typeof decoded === 'string') facts.push(`decoded from ${decoded}`);
  return facts;
}

/** A blob: URL for media and PDFs, revoked when the preview changes. */
function useBlobUrl(contents: ResourceContents | null, enabled: boolean): string | null {
  const url = useMemo(() => {
    if (!enabled || !contents || !('blob' in contents)) return null;
    return URL.createObjectURL(new Blob([base64Bytes(contents.blob) as BlobPart], { type: contents.mimeType }));
  }, [contents, enabled]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * Where the host serves this file under its own name (the web host, for
 * PDFs): the browser's viewer then titles it by that name, where a blob: URL
 * shows a random id. Undefined while asking; null when the host has none.
 * Asked again for each read, so a changed file is fetched anew.
 */
function useFileLink(contents: ResourceContents | null, enabled: boolean, fileLink?: (uri: string) => Promise<string | null>): string | null | undefined {
  const [link, setLink] = useState<{ for: ResourceContents; url: string | null } | null>(null);
  useEffect(() => {
    if (!enabled || !contents || !fileLink) return;
    let live = true;
    fileLink(contents.uri).then(
      (url) => live && setLink({ for: contents, url }),
      () => live && setLink({ for: contents, url: null }),
    );
    return () => {
      live = false;
    };
  }, [contents, enabled, fileLink]);
  if (!enabled || !contents || !fileLink) return null;
  return link?.for === contents ? link.url : undefined;
}

/** An image with its pixel size; a click switches between fitting the pane and actual size. */
export function ImageView({ src, name }: { src: string; name: string }) {
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [actual, setActual] = useState(false);
  return (
    <div className={`media-view checkerboard${actual ? ' actual-size' : ''}`}>
      <button
        type="button"
        className="image-button"
        onClick={() => setActual(!actual)}
        title={actual ? 'Fit to the pane' : 'Actual size'}
        aria-pressed={actual}
      >
        <img src={src} alt={name} data-testid="image-view" onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })} />
      </button>
      {size && (
        <span className="chip image-size" data-testid="image-size">
          {size.w} × {size.h} px · {actual ? 'actual size' : 'fit'}
        </span>
      )}
    </div>
  );
}

/** The body of a preview, by kind: what a person would want to see of what the client got. */
export function PreviewBody({
  preview,
  name,
  focusLine,
  focusTerm,
  markdown,
  openSettings,
  fileLink,
}: {
  preview: ReadPreview;
  name: string;
  focusLine?: number;
  /** The search hit's word, found on the focus line. */
  focusTerm?: string;
  markdown?: MarkdownContext;
  /** Opens the settings (offered when a file is over the read limit). */
  openSettings?: () => void;
  /** The host's address for a file, under its own name (see useFileLink). */
  fileLink?: (uri: string) => Promise<string | null>;
}) {
  const kind: PreviewKind = previewKind(preview);
  const contents = preview.ok ? (preview.result.contents[0] as ResourceContents) : null;
  const link = useFileLink(contents, kind === 'pdf', fileLink);
  const blobUrl = useBlobUrl(contents, kind === 'audio' || kind === 'video' || (kind === 'pdf' && link === null));
  const hexBytes = useMemo(
    () => (contents && 'blob' in contents && (kind === 'hex' || kind === 'pdf') ? base64Bytes(contents.blob, 1024 * 1024) : null),
    [contents, kind],
  );

  if (!preview.ok) {
    const data = preview.error.data as { size?: unknown; limit?: unknown } | undefined;
    const tooLarge =
      preview.error.code === 1004 && typeof data?.size === 'number' && typeof data.limit === 'number' ? { size: data.size, limit: data.limit } : null;
    return (
      <div className="preview-error" role="alert" data-testid="preview-error">
        <div className="error-code">Error {preview.error.code}</div>
        <div className="error-message">{preview.error.message}</div>
        {preview.error.data !== undefined && <pre className="mono small">{JSON.stringify(preview.error.data, null, 2)}</pre>}
        {tooLarge && (
          <p className="small">
            {formatBytes(tooLarge.size)} is over the read limit of {formatBytes(tooLarge.limit)}.{' '}
            {openSettings && (
              <button type="button" className="link small" onClick={openSettings}>
                Change the limit…
              </button>
            )}
          </p>
        )}
        <p className="muted small">This is the JSON-RPC error an MCP client gets for this resource.</p>
      </div>
    );
  }
  const c = contents as ResourceContents;
  switch (kind) {
    case 'image': {
      const src = 'text' in c ? `data:${c.mimeType};charset=utf-8,${encodeURIComponent(c.text)}` : `data:${c.mimeType};base64,${c.blob}`;
      return <ImageView src={src} name={name} />;
    }
    case 'audio':
      return <div className="media-view">{blobUrl && <audio controls src={blobUrl} data-testid="audio-view" />}</div>;
    case 'video':
      return <div className="media-view">{blobUrl && <video controls src={blobUrl} data-testid="video-view" />}</div>;
    case 'pdf':
      // Set once the address is known: an <object> whose data changes loads again.
      if (link === undefined) return <p className="muted">Reading…</p>;
      return (
        <object className="pdf-view" data={link ?? blobUrl ?? undefined} type="application/pdf" aria-label={name} data-testid="pdf-view">
          <p className="note">This window cannot display PDFs here; the bytes follow.</p>
          {hexBytes && <HexView bytes={hexBytes} />}
        </object>
      );
    case 'hex':
      return (
        <>
          {hexBytes && preview.size > hexBytes.length && (
            <p className="note">
              Showing the first {formatBytes(hexBytes.length)} of {formatBytes(preview.size)}.
            </p>
          )}
          <HexView bytes={hexBytes ?? new Uint8Array()} />
        </>
      );
    case 'json': {
      const text = 'text' in c ? c.text : '';
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not valid JSON after all: show it as it is
      }
      return <CodeView text={pretty} language="json" />;
    }
    case 'markdown': {
      const text = 'text' in c ? c.text : '';
      return (
        <MarkdownPane
          text={text}
          context={markdown ?? { baseUri: 'file:///', read: async () => ({ ok: false, error: { code: 0, message: '' } }), open: () => undefined }}
          {...(focusLine !== undefined ? { focusLine } : {})}
          {...(focusTerm !== undefined ? { focusTerm } : {})}
        />
      );
    }
    default:
      if ('text' in c && c.text === '') {
        return (
          <p className="note" data-testid="empty-file">
            This file is empty (0 bytes): a client gets an empty text.
          </p>
        );
      }
      return <CodeView text={'text' in c ? c.text : ''} language={languageFor(name, c.mimeType)} focusLine={focusLine} focusTerm={focusTerm} />;
  }
}

/** The selected resource: its identity, then what an MCP client receives for it. */
export function Preview({
  resource,
  preview,
  loading,
  access,
  lastAttempt,
  onHistory,
  readText,
  ocr = false,
  focus,
  updatedAt,
  openUri,
  hasText,
  raw: rawProp,
  setRaw: setRawProp,
  openSettings,
  readForModel,
  audience = 'client',
  setAudience,
  fileLink,
}: {
  resource: ResourceInfo;
  /** Whether the server lists a text companion (`?as=text`) for this file. */
  hasText?: boolean;
  preview: ReadPreview | null;
  loading: boolean;
  /** How often clients read this file (absent: never, as far as the history holds). */
  access?: FileAccess;
  /** With no reads: the newest history entry for the file (a failed attempt is said). */
  lastAttempt?: AccessEntry | null;
  /** Opens the history of this file. */
  onHistory?: () => void;
  /** Reads a document's text resource (`?as=text`), as a client would. */
  readText?: (uri: string) => Promise<ReadPreview>;
  /** The server reads images' text by OCR: they get the File/Text switch too. */
  ocr?: boolean;
  /** A search result to show: its line, in the document's text when it came from there. */
  focus?: { line: number; inText: boolean; term?: string };
  /** When the file changed on disk and the preview was read again. */
  updatedAt?: number | null;
  /** Opens another published file (a markdown link). */
  openUri?: (uri: string) => void;
  /** Opens the settings (the read limit). */
  openSettings?: () => void;
  /** Preview or raw response: the person's choice, kept from file to file. */
  raw?: boolean;
  setRaw?: (raw: boolean) => void;
  /** What a model gets through the read_resource tool (offered beside what a client gets when given). */
  readForModel?: (uri: string, request: ModelReadRequest) => Promise<ModelPreview>;
  /** Whose view: a client's resources/read or a model's read_resource, kept from file to file. */
  audience?: 'client' | 'model';
  setAudience?: (audience: 'client' | 'model') => void;
  /** The host's address for a file under its own name (a PDF's, on the web host). */
  fileLink?: (uri: string) => Promise<string | null>;
}) {
  const [ownRaw, setOwnRaw] = useState(false);
  const raw = rawProp ?? ownRaw;
  const setRaw = setRawProp ?? setOwnRaw;
  // An image has text while OCR is on (live, not as the listing had it when fetched); a document when the listing says so.
  const isDocument = OCR_IMAGE.test(resource.name) ? ocr : (hasText ?? DOCUMENT.test(resource.name));
  // A document opens on its text (a zip's bytes mean nothing to a person); a PDF keeps its rendered pages, an image shows itself.
  const [asText, setAsText] = useState(
    focus?.inText ?? (isDocument && !!readText && resource.mimeType !== 'application/pdf' && !resource.mimeType.startsWith('image/')),
  );
  const [text, setText] = useState<ReadPreview | null>(null);
  useEffect(() => {
    if (!asText || !readText || text) return;
    void readText(textUriOf(resource.uri)).then(setText);
  }, [asText, readText, resource.uri, text]);
  // The file changed: its text is read again too.
  useEffect(() => setText(null), [updatedAt]);
  const shown = asText ? text : preview;
  const shownUri = asText && audience === 'client' ? textUriOf(resource.uri) : resource.uri;
  return (
    <section className="preview" aria-label="Preview">
      <header className="preview-head">
        <div className="preview-title">
          <h2>{resource.title}</h2>
          <span className="muted small">{formatBytes(resource.size)}</span>
        </div>
        <div className="uri-line">
          <code className="uri mono" data-testid="resource-uri" title={shownUri}>
            {shownUri}
          </code>
          <CopyButton text={shownUri} label="Copy URI" />
        </div>
        {/* Facts about what is shown below (plain text: nothing here looks like a button that is not one). */}
        <p className="preview-facts small muted" data-testid="preview-facts">
          {(audience === 'model' ? ['what the read_resource tool gives a model'] : describeShown(shown, asText)).join(' · ')}
          {updatedAt && (
            <span className="preview-updated" data-testid="updated-mark" title="The file changed on disk; this is what a client gets now">
              {' · '}updated {new Date(updatedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })}
            </span>
          )}
        </p>
        <div className="preview-controls">
          {readForModel && setAudience && (
            <div className="segmented" role="group" aria-label="Whose view">
              <button
                type="button"
                aria-pressed={audience === 'client'}
                onClick={() => setAudience('client')}
                title="What resources/read gives a client: the file exactly"
              >
                Client gets
              </button>
              <button
                type="button"
                aria-pressed={audience === 'model'}
                onClick={() => setAudience('model')}
                data-testid="model-toggle"
                title="What the read_resource tool gives a model: pages of text, images it can see, binaries described"
              >
                Model gets
              </button>
            </div>
          )}
          {isDocument && readText && audience === 'client' && (
            <div className="segmented" role="group" aria-label="Document view">
              <button
                type="button"
                aria-pressed={asText}
                onClick={() => setAsText(true)}
                data-testid="text-toggle"
                title="The text a client gets from this URI with ?as=text"
              >
                Text
              </button>
              <button
                type="button"
                aria-pressed={!asText}
                onClick={() => setAsText(false)}
                data-testid="file-toggle"
                title="The file itself, as resources/read gives it"
              >
                File
              </button>
            </div>
          )}
          <div className="segmented" role="group" aria-label="Preview mode">
            <button type="button" aria-pressed={!raw} onClick={() => setRaw(false)}>
              Preview
            </button>
            <button type="button" aria-pressed={raw} onClick={() => setRaw(true)} data-testid="raw-toggle" title="The JSON-RPC result a client receives">
              Raw
            </button>
          </div>
        </div>
        <div className="access-line small" data-testid="access-line">
          <span className={`access-dot${access ? ' seen' : ''}`} aria-hidden="true" />
          <span className={access ? '' : 'muted'}>
            {access
              ? describeAccess(access, formatWhen)
              : lastAttempt?.failure
                ? `No client has read this file yet: the last attempt, by ${lastAttempt.client ?? 'an unnamed client'} ${formatWhen(lastAttempt.time)}, failed (${READ_FAILURES[lastAttempt.failure].label}).`
                : 'No client has read this file yet.'}
          </span>
          {(access || lastAttempt?.failure) && onHistory && (
            <button type="button" className="link small" onClick={onHistory}>
              See its history
            </button>
          )}
        </div>
      </header>
      <div className="preview-body">
        {audience === 'model' && readForModel ? (
          <ModelView resource={resource} readForModel={readForModel} updatedAt={updatedAt ?? null} raw={raw} />
        ) : (
          <>
            {((loading && !preview) || (asText && !text)) && <p className="muted">{asText ? 'Extracting the text…' : 'Reading…'}</p>}
            {shown &&
              (raw ? (
                <CodeView text={rawResponseText(shown)} language="json" />
              ) : asText && shown.ok ? (
                <CodeView
                  text={'text' in (shown.result.contents[0] as ResourceContents) ? (shown.result.contents[0] as { text: string }).text : ''}
                  language={null}
                  focusLine={focus?.inText ? focus.line : undefined}
                  focusTerm={focus?.inText ? focus.term : undefined}
                />
              ) : (
                <PreviewBody
                  preview={shown}
                  name={resource.name}
                  focusLine={focus && !focus.inText ? focus.line : undefined}
                  focusTerm={focus && !focus.inText ? focus.term : undefined}
                  markdown={readText && openUri ? { baseUri: resource.uri, read: readText, open: openUri } : undefined}
                  openSettings={openSettings}
                  fileLink={fileLink}
                />
              ))}
          </>
        )}
      </div>
    </section>
  );
}
