import type { ContentBlock } from '@modelcontextprotocol/client';

import type { AppFile } from '../../shared/shelfApp';
import type { FileView } from './fileView';

/**
 * What "Add to chat" hands the host: a line saying which file it is (so the
 * model knows the source and can read it again with read_resource), then
 * the file's text exactly — or the chosen pages, or the image.
 */

/** Characters of text one hand-off carries at most; past it the text is cut and the note says so. */
export const MAX_HANDOFF_CHARS = 400_000;

/** One part of a document's text: a page, slide or sheet, as the shelf marks them (`--- Page 3 ---`). */
export interface Part {
  label: string;
  /** Where its marker line starts, and where the next part's does (or the end). */
  start: number;
  end: number;
}

const MARKER = /^--- (.+) ---$/gm;

/** The parts of a document's text, in order; none when it has no markers. */
export function documentParts(text: string): Part[] {
  const starts: Array<{ label: string; at: number }> = [];
  for (const m of text.matchAll(MARKER)) starts.push({ label: m[1] as string, at: m.index });
  return starts.map((s, i) => ({ label: s.label, start: s.at, end: starts[i + 1]?.at ?? text.length }));
}

/** Parts `from`..`to` (1-based, inclusive, clamped) of the text. */
export function partsText(text: string, parts: readonly Part[], from: number, to: number): string {
  const a = parts[Math.max(1, Math.min(from, parts.length)) - 1];
  const b = parts[Math.max(1, Math.min(to, parts.length)) - 1];
  return a && b ? text.slice(a.start, b.end) : text;
}

/** "Page", "Slide", "Sheet" — what a document's parts are called, from its first marker. */
export function partName(parts: readonly Part[]): string {
  const word = /^(\w+)/.exec(parts[0]?.label ?? '')?.[1] ?? 'Part';
  return word === 'Document' ? 'Part' : word;
}

export interface Handoff {
  content: ContentBlock[];
  /** For the person: what was added ("plan.md", "report.pdf, pages 2–4"). */
  label: string;
  /** Characters of text it carries (for the context's bound). */
  chars: number;
  /** The text was longer than MAX_HANDOFF_CHARS and was cut. */
  cut: boolean;
}

export interface HandoffInput {
  file: AppFile;
  /** The folder's name, for the line that names the file. */
  folderName: string;
  view: FileView;
  /** A document's chosen parts (1-based, inclusive) and how many it has. */
  range?: { from: number; to: number; of: number; name: string };
}

const sizeText = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** The content blocks for one file; null when there is nothing to add (a failed read). */
export function handoffFor({ file, folderName, view, range }: HandoffInput): Handoff | null {
  if (view.kind === 'error') return null;
  const where = `${folderName}/${file.path}`;
  const part = range?.name.toLowerCase() ?? '';
  const rangeText =
    !range || (range.from === 1 && range.to === range.of)
      ? ''
      : range.from === range.to
        ? `, ${part} ${range.from} of ${range.of}`
        : `, ${part}s ${range.from}–${range.to} of ${range.of}`;
  const label = `${file.name}${rangeText}`;
  const notes = view.notes.length ? `\n${view.notes.join('\n')}` : '';
  if (view.kind === 'image') {
    return {
      content: [
        { type: 'text', text: `From MCP Shelf: ${where} (${file.uri})${notes}` },
        { type: 'image', data: view.data, mimeType: view.mimeType },
      ],
      label,
      chars: 0,
      cut: false,
    };
  }
  if (view.kind === 'binary') {
    const size = view.bytes ?? file.size;
    const text = `From MCP Shelf: ${where} (${file.uri}) — a binary file (${view.mimeType}${size !== undefined && size !== null ? `, ${sizeText(size)}` : ''}); its contents are not included. Read it with the read_resource tool if needed.${notes}`;
    return { content: [{ type: 'text', text }], label, chars: text.length, cut: false };
  }
  const full = view.text;
  const cut = full.length > MAX_HANDOFF_CHARS;
  const text = cut ? full.slice(0, MAX_HANDOFF_CHARS) : full;
  const cutNote = cut
    ? `\nOnly the first ${MAX_HANDOFF_CHARS.toLocaleString('en')} of ${full.length.toLocaleString('en')} characters follow; read_resource gives the rest.`
    : '';
  const head = `From MCP Shelf: ${where}${rangeText} (${file.textUri ?? file.uri}). Its text follows in the next block, exactly.${notes}${cutNote}`;
  return {
    content: [
      { type: 'text', text: head },
      { type: 'text', text },
    ],
    label,
    chars: text.length,
    cut,
  };
}
