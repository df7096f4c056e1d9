import { ShelfError } from '../base/shelfError.js';
import { type DocumentKind, NAMED_PARTS, PART_NAMES } from '../documents/documentKinds.js';

/** A document's parts (pages, slides, sheets…) as the read tool names and selects them. */

/** What a model is told a document is. */
export function kindLabel(kind: DocumentKind): string {
  const labels: Record<DocumentKind, string> = {
    pdf: 'PDF',
    docx: 'Word document',
    xlsx: 'Excel workbook',
    pptx: 'PowerPoint presentation',
    epub: 'EPUB book',
    odt: 'OpenDocument text',
    ods: 'OpenDocument spreadsheet',
    odp: 'OpenDocument presentation',
    rtf: 'RTF document',
    html: 'web page',
    ipynb: 'Jupyter notebook',
    eml: 'mail message',
    mbox: 'mailbox',
    image: 'image (text by OCR)',
  };
  return labels[kind];
}

/** "3" or "2-5" or "4-" (to the last): the parts of a document to read. */
export function parsePages(pages: string): { from: number; to: number | null } {
  const m = /^\s*(\d{1,6})\s*(?:(-)\s*(\d{1,6})?\s*)?$/.exec(pages);
  if (!m) throw ShelfError.invalidParams(`pages is a page number or a range, such as "3" or "2-5" (not "${pages.slice(0, 40)}")`);
  const from = Number(m[1]);
  const to = m[2] ? (m[3] ? Number(m[3]) : null) : from;
  if (from < 1 || (to !== null && to < from)) throw ShelfError.invalidParams(`pages "${pages}" is not a range of pages (the first page is 1)`);
  return { from, to };
}

/**
 * The text of parts `range` of a document's extracted text: parts start at
 * their marks (`--- Page 3 ---`, `--- Sheet: Totals ---`), found in order.
 */
export function selectParts(
  text: string,
  kind: DocumentKind,
  total: number,
  range: { from: number; to: number | null },
): { text: string; from: number; to: number } {
  const name = PART_NAMES[kind];
  if (range.from > total) throw ShelfError.invalidParams(`pages ${range.from} is past the end: the ${kindLabel(kind)} has ${total} ${name.toLowerCase()}(s)`);
  const to = Math.min(range.to ?? total, total);
  const starts: number[] = [];
  const named = NAMED_PARTS.has(kind);
  const prefix = named ? `--- ${name}: ` : `--- ${name} `;
  for (let part = 1, at = 0; part <= to + 1; part++) {
    // Each part after the first starts on a line of its own: "\n--- Page 3 ---\n" (sheets by name: "\n--- Sheet: Totals ---").
    const mark = named ? prefix : `${prefix}${part} ---\n`;
    const found = part === 1 && text.startsWith(mark) ? -1 : text.indexOf(`\n${mark}`, at);
    if (found < 0 && part > 1) break;
    if (found < 0 && !text.startsWith(mark)) break;
    const start = found + 1;
    starts.push(start);
    at = start + mark.length;
  }
  const begin = starts[range.from - 1];
  if (begin === undefined) throw ShelfError.invalidParams(`pages ${range.from}: the ${kindLabel(kind)} has no such ${name.toLowerCase()}`);
  const end = starts[to] ?? text.length;
  return { text: text.slice(begin, end), from: range.from, to };
}
