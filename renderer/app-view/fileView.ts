import type { CallToolResult } from '@modelcontextprotocol/client';

import { ErrorCodes } from '../../shared/errorCodes';
import { ToolFailure } from './shelfCalls';

/**
 * What the read tool gave for a file, as the view shows it and hands it on.
 * Written against the model-facing shapes: the text in the first text item
 * (later text items are notes: what was shown, how to go on), an `image`
 * item, or an embedded resource (a blob today for images and binaries).
 */
/** A document's parts (pages, slides, sheets): how many, what they are called, and which this text holds. */
export interface DocumentParts {
  parts: number;
  partName: string;
  from: number;
  to: number;
}

export type FileView =
  | { kind: 'text'; text: string; notes: string[]; document?: DocumentParts }
  | { kind: 'image'; data: string; mimeType: string; notes: string[] }
  | { kind: 'binary'; mimeType: string; bytes: number | null; notes: string[] }
  | { kind: 'error'; code: number | null; message: string; reason: string | null };

export function fileView(result: CallToolResult): FileView {
  if (result.isError) {
    const f = ToolFailure.of(result);
    const reason = (f.data as { reason?: unknown } | undefined)?.reason;
    return { kind: 'error', code: f.code, message: f.message, reason: typeof reason === 'string' ? reason : null };
  }
  const [first, ...rest] = result.content;
  const notes = rest.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  // Where the read stopped, what it was (the read tool's _meta, never shown to a model).
  const meta = (result._meta?.['dev.mcpshelf/read'] ?? {}) as { described?: boolean; mimeType?: string; size?: number; document?: DocumentParts };
  if (meta.described)
    return {
      kind: 'binary',
      mimeType: meta.mimeType ?? 'application/octet-stream',
      bytes: meta.size ?? null,
      notes: first?.type === 'text' ? [first.text, ...notes] : notes,
    };
  if (!first) return { kind: 'text', text: '', notes };
  switch (first.type) {
    case 'text':
      return { kind: 'text', text: first.text, notes, ...(meta.document ? { document: meta.document } : {}) };
    case 'image':
      return { kind: 'image', data: first.data, mimeType: first.mimeType, notes };
    case 'resource': {
      const r = first.resource;
      if ('text' in r) return { kind: 'text', text: r.text, notes };
      const mime = r.mimeType ?? 'application/octet-stream';
      // An SVG is markup: shown as an image only from its text, never run as a document.
      if (mime.startsWith('image/') && mime !== 'image/svg+xml') return { kind: 'image', data: r.blob, mimeType: mime, notes };
      return { kind: 'binary', mimeType: mime, bytes: Math.floor((r.blob.length * 3) / 4), notes };
    }
    default:
      return {
        kind: 'binary',
        mimeType: 'application/octet-stream',
        bytes: null,
        notes: [...notes, first.type === 'resource_link' ? `Linked: ${first.uri}` : ''].filter(Boolean),
      };
  }
}

/** What to tell the person about a refused or failed read. */
export function errorAdvice(view: Extract<FileView, { kind: 'error' }>): string {
  if (view.code === ErrorCodes.readNotAllowed) {
    switch (view.reason) {
      case 'denied':
        return 'You denied this read in MCP Shelf. Try again to be asked again.';
      case 'timeout':
        return 'Nobody answered in MCP Shelf in time. Try again, then allow it in the MCP Shelf window.';
      case 'no-window':
        return 'This folder asks before each read, and no MCP Shelf window is open to ask in. Open MCP Shelf, then try again.';
      default:
        return 'MCP Shelf did not allow this read.';
    }
  }
  if (view.code === ErrorCodes.resourceTooLarge) return 'The file is larger than the read limit set in MCP Shelf (Settings).';
  if (view.code === ErrorCodes.documentTextUnavailable)
    return "MCP Shelf could not get this document's text (a scan without a text layer, encrypted or damaged).";
  if (view.code === ErrorCodes.resourceNotFound) return 'The file is no longer published (moved, deleted or hidden).';
  return 'MCP Shelf could not read this file.';
}
