import { Parser } from 'htmlparser2';

import { ExtractionError } from '../extractionError.js';
import { readParts } from '../officeZip.js';
import { type FormatLimits, type FormatParts, mark, MAX_DEPTH, TextSink, tooDeep } from './formatLimits.js';

/**
 * The text of an OpenDocument file: ODT as one document, ODS sheet by sheet
 * (rows as tab-separated lines), ODP slide by slide. content.xml is inflated
 * within the Office bounds (officeZip.ts) and read by htmlparser2 in XML
 * mode, a streaming tokenizer that expands no entity a file declares and
 * keeps no tree. Repeated rows and cells (`number-rows-repeated`, how a
 * sheet says "a million empty rows") cost nothing while empty and stop at
 * the text limit otherwise.
 */

export type OdfKind = 'odt' | 'ods' | 'odp';

/** Columns read in a row, at most: a spreadsheet has 16,384 (LibreOffice, Excel); more is a repetition bomb. */
const MAX_COLUMNS = 16_384;
/** Runs of spaces (`text:s text:c="…"`) are cut to this. */
const MAX_SPACES = 100;
/** What a reader would not see as the document's text: styles, deleted text, comments, forms, alt text, speaker notes. */
const SKIPPED = new Set([
  'office:automatic-styles',
  'office:font-face-decls',
  'office:scripts',
  'office:forms',
  'office:annotation',
  'text:tracked-changes',
  'text:sequence-decls',
  'svg:title',
  'svg:desc',
  'presentation:notes',
  'table:shapes',
]);
const isCell = (name: string) => name === 'table:table-cell' || name === 'table:covered-table-cell';
const count = (value: string | undefined, max: number) => Math.min(max, Math.max(1, Number.parseInt(value ?? '1', 10) || 1));

export function odfText(kind: OdfKind, bytes: Uint8Array, limits: FormatLimits): FormatParts {
  const files = readParts(bytes, (name) => name === 'content.xml' || name === 'META-INF/manifest.xml', {
    maxBytes: limits.maxExpandedBytes,
    maxParts: limits.maxParts,
  });
  const manifest = files.get('META-INF/manifest.xml');
  if (manifest && new TextDecoder().decode(manifest).includes('encryption-data'))
    throw new ExtractionError('encrypted', 'The document is encrypted with a password');
  const content = files.get('content.xml');
  if (!content) throw new ExtractionError('corrupt', 'Not a readable OpenDocument file (no content.xml)');

  const sink = new TextSink(limits.maxChars);
  const names: string[] = [];
  const parts: string[] = [];
  let depth = 0;
  let skipAt = 0;
  /** Paragraphs open (a note's paragraphs sit inside one). */
  let para = 0;
  /** Tables open; a sheet is a table at the top. */
  let tables = 0;
  // The row being read: its text so far (at most what the sink has room for), its repeat, and empty cells not yet written.
  let row: string[] | null = null;
  let rowChars = 0;
  let rowRepeat = 1;
  let rowColumns = 0;
  let emptyCells = 0;
  let cell: string[] | null = null;
  let cellRepeat = 1;

  /** Text goes to the cell being read, else to the part. */
  const out = (s: string) => {
    if (cell) cell.push(s);
    else sink.push(s);
  };
  const addToRow = (s: string) => {
    if (!row || rowChars > limits.maxChars - sink.chars) return;
    row.push(s);
    rowChars += s.length;
  };
  const startPart = (name: string) => {
    sink.take();
    names.push(name);
  };
  const endPart = () => {
    parts.push(
      sink
        .take()
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    );
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (++depth > MAX_DEPTH) throw tooDeep();
        if (skipAt) return;
        if (SKIPPED.has(name)) {
          skipAt = depth;
          return;
        }
        if (name === 'table:table') {
          if (tables++ === 0 && kind === 'ods') startPart(mark('Sheet:', (attribs['table:name'] ?? '').replace(/\s+/g, ' ') || String(names.length + 1)));
        } else if (name === 'draw:page' && kind === 'odp') startPart(mark('Slide', names.length + 1));
        else if (name === 'table:table-row') {
          row = [];
          rowChars = 0;
          rowColumns = 0;
          emptyCells = 0;
          rowRepeat = count(attribs['table:number-rows-repeated'], Number.MAX_SAFE_INTEGER);
        } else if (isCell(name)) {
          cell = [];
          cellRepeat = count(attribs['table:number-columns-repeated'], MAX_COLUMNS);
        } else if (name === 'text:p' || name === 'text:h') para++;
        else if (name === 'text:s') out(' '.repeat(count(attribs['text:c'], MAX_SPACES)));
        else if (name === 'text:tab') out('\t');
        else if (name === 'text:line-break') out('\n');
      },
      ontext(text) {
        if (skipAt || para === 0) return;
        out(text.replace(/[ \t\n\r]+/g, ' '));
      },
      onclosetag(name) {
        const skipped = skipAt !== 0;
        if (skipAt === depth) skipAt = 0;
        depth--;
        if (skipped) return;
        if (name === 'text:p' || name === 'text:h') {
          para--;
          out(cell ? ' ' : '\n');
        } else if (isCell(name) && cell) {
          const value = cell.join('').replace(/\s+/g, ' ').trim();
          cell = null;
          if (value === '') emptyCells += cellRepeat;
          else {
            // Empty cells count only when a value follows them: a row's trailing emptiness is never written.
            for (let i = 0; i < cellRepeat && rowColumns < MAX_COLUMNS; i++) {
              if (rowColumns > 0 || emptyCells > 0) addToRow('\t'.repeat(Math.min(emptyCells, MAX_COLUMNS - rowColumns) + (rowColumns > 0 ? 1 : 0)));
              rowColumns += emptyCells + 1;
              emptyCells = 0;
              addToRow(value);
            }
          }
        } else if (name === 'table:table-row' && row) {
          const line = row.length > 0 ? `${row.join('')}\n` : '';
          row = null;
          // Empty rows are not written, however many a row repeats.
          for (let i = 0; line && i < rowRepeat && !sink.full; i++) sink.push(line);
        } else if (name === 'table:table') {
          if (--tables === 0 && kind === 'ods') endPart();
          else if (!cell) sink.push('\n');
        } else if (name === 'draw:page' && kind === 'odp') endPart();
      },
    },
    { xmlMode: true },
  );
  const xml = new TextDecoder().decode(content);
  if (kind === 'odt') startPart(mark('Document', 1));
  for (let at = 0; at < xml.length && !sink.full; at += 1 << 20) parser.write(xml.slice(at, at + (1 << 20)));
  if (!sink.full) parser.end();
  // A part cut short by the text limit, or a document's one part, ends here.
  if (parts.length < names.length) endPart();
  if (names.length === 0) throw new ExtractionError('corrupt', `Not a readable OpenDocument file (no ${kind === 'ods' ? 'sheets' : 'slides'})`);
  if (parts.every((p) => p === '')) throw new ExtractionError('no-text', 'The document has no text');
  return { names, parts };
}
