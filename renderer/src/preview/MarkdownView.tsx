import './preview.css';

import { useEffect, useState } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

import type { ReadPreview } from '../../../shared/shelfApi';
import { CodeView } from './CodeView';
import { highlightHtml } from './highlight';

export interface MarkdownContext {
  /** The document's own URI: relative links and images resolve against it. */
  baseUri: string;
  /** Reads a published file as a client would (for relative images). */
  read: (uri: string) => Promise<ReadPreview>;
  /** Opens a published file in the preview (a relative link). */
  open: (uri: string) => void;
}

const EXTERNAL = /^(https?:|mailto:)/i;

/** A relative image, read from the shelf like any file and shown as a data: URL (the window loads nothing else). */
function ShelfImage({ src, alt, context }: { src: string; alt: string; context: MarkdownContext }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    const uri = new URL(src, context.baseUri).href;
    void context.read(uri).then((p) => {
      if (!current) return;
      const c = p.ok ? p.result.contents[0] : null;
      if (c && 'blob' in c) setUrl(`data:${c.mimeType};base64,${c.blob}`);
      else if (c && 'text' in c && c.mimeType === 'image/svg+xml') setUrl(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(c.text)}`);
      else setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [src, context]);
  if (failed)
    return (
      <span className="md-missing" title={src}>
        [image not published: {alt || src}]
      </span>
    );
  return url ? <img src={url} alt={alt} /> : <span className="muted small">{alt || 'image'}…</span>;
}

/**
 * GitHub-flavoured Markdown (tables, task lists, strikethrough), code blocks
 * highlighted like the code view, relative images read from the shelf,
 * relative links opening the linked file here and web links in the browser
 * — never navigating the window away.
 */
export function MarkdownView({ text, context }: { text: string; context: MarkdownContext }) {
  const components: Components = {
    a({ href, children }) {
      if (!href) return <span>{children}</span>;
      if (href.startsWith('#')) return <a href={href}>{children}</a>;
      if (EXTERNAL.test(href)) {
        return (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        );
      }
      const uri = new URL(href, context.baseUri);
      uri.hash = '';
      return (
        <a
          href={uri.href}
          onClick={(e) => {
            e.preventDefault();
            context.open(uri.href);
          }}
        >
          {children}
        </a>
      );
    },
    img({ src, alt }) {
      if (typeof src !== 'string' || src === '') return null;
      if (/^data:/i.test(src)) return <img src={src} alt={alt ?? ''} />;
      if (EXTERNAL.test(src)) return <span className="md-missing">[remote image not loaded: {alt || src}]</span>;
      return <ShelfImage src={src} alt={alt ?? ''} context={context} />;
    },
    // A task list's box: named, so a screen reader says which items are done (GFM gives it no label).
    input({ type, checked }) {
      if (type !== 'checkbox') return null;
      return <input type="checkbox" checked={!!checked} disabled aria-label={checked ? 'Done' : 'Not done'} />;
    },
    code({ className, children }) {
      const language = /language-([\w+-]+)/.exec(className ?? '')?.[1] ?? null;
      const source = String(children ?? '');
      const html = language ? highlightHtml(source.replace(/\n$/, ''), language) : null;
      return html !== null ? (
        <code className={`hljs ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <code className={className}>{children}</code>
      );
    },
  };
  return (
    <article className="markdown" data-testid="markdown-view">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </Markdown>
    </article>
  );
}

/**
 * Markdown as it renders, or its source (highlighted, where a search hit's
 * line is shown): the window's preview and the in-chat app's share it.
 */
export function MarkdownPane({
  text,
  context,
  focusLine,
  focusTerm,
  startInSource = focusLine !== undefined,
}: {
  text: string;
  context: MarkdownContext;
  focusLine?: number;
  focusTerm?: string;
  /** Open on the source (default: when a search hit's line is to be shown). */
  startInSource?: boolean;
}) {
  const [source, setSource] = useState(startInSource);
  return (
    <div className="markdown-wrap">
      <div className="segmented small-seg" role="group" aria-label="Markdown view">
        <button type="button" aria-pressed={!source} onClick={() => setSource(false)}>
          Rendered
        </button>
        <button type="button" aria-pressed={source} onClick={() => setSource(true)}>
          Source
        </button>
      </div>
      {source ? (
        <CodeView text={text} language="markdown" {...(focusLine !== undefined ? { focusLine } : {})} {...(focusTerm !== undefined ? { focusTerm } : {})} />
      ) : (
        <MarkdownView text={text} context={context} />
      )}
    </div>
  );
}
