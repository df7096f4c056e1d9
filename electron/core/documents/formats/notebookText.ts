import { ExtractionError } from '../extractionError.js';
import { type FormatLimits, type FormatParts, mark, TextSink } from './formatLimits.js';
import { htmlText } from './htmlText.js';

/**
 * A Jupyter notebook's text (nbformat 4), cell by cell: `--- Cell N ---`,
 * markdown as written, code in a fence with the kernel's language, then its
 * outputs' text (streams, results, errors without their colour codes).
 * Images and other binary outputs are listed by type and size, never
 * dumped. V8's JSON.parse keeps no recursion stack, so deep nesting costs
 * only memory, which the worker's heap limit bounds.
 */

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A notebook's multiline strings are a string or a list of lines. */
const lines = (v: Json | undefined): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.filter((l) => typeof l === 'string').join('') : '');
// eslint-disable-next-line no-control-regex -- terminal colour codes in tracebacks are control characters
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** A fence longer than any run of backticks in the code. */
function fence(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function sizeOf(data: string): string {
  // base64: three bytes for four characters
  const bytes = Math.floor((data.replace(/\s/g, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One output's text, or a line saying what it holds when it is not text. */
function outputText(output: JsonObject, sink: TextSink): string {
  const type = output.output_type;
  if (type === 'stream') return lines(output.text);
  if (type === 'error') {
    const traceback = lines(Array.isArray(output.traceback) ? output.traceback.map((l) => (typeof l === 'string' ? `${l}\n` : '')) : []);
    return (traceback || `${String(output.ename)}: ${String(output.evalue)}`).replace(ANSI, '');
  }
  if (!isObject(output.data)) return '';
  const data = output.data;
  const shown: string[] = [];
  if (data['text/plain'] !== undefined) shown.push(lines(data['text/plain']));
  else if (data['text/markdown'] !== undefined) shown.push(lines(data['text/markdown']));
  else if (data['text/html'] !== undefined) shown.push(htmlText(lines(data['text/html']), new TextSink(sink.room), { title: false }));
  for (const [mime, value] of Object.entries(data)) {
    if (mime.startsWith('text/') || mime === 'application/json') continue;
    shown.push(`[${mime} output${typeof value === 'string' || Array.isArray(value) ? `, ${sizeOf(lines(value))}` : ''}]`);
  }
  return shown.join('\n');
}

export function notebookText(bytes: Uint8Array, limits: FormatLimits): FormatParts {
  let nb: Json;
  try {
    nb = JSON.parse(new TextDecoder().decode(bytes)) as Json;
  } catch (err) {
    throw new ExtractionError('corrupt', `Not a readable notebook (${(err as Error).message})`);
  }
  if (!isObject(nb) || !Array.isArray(nb.cells)) {
    const old = isObject(nb) && Array.isArray(nb.worksheets);
    throw new ExtractionError(
      old ? 'unsupported' : 'corrupt',
      old ? 'The notebook is in nbformat 3, which is not read (open and save it in Jupyter to update it)' : 'Not a readable notebook (it has no cells)',
    );
  }
  const metadata = isObject(nb.metadata) ? nb.metadata : {};
  const info = isObject(metadata.language_info) ? metadata.language_info : isObject(metadata.kernelspec) ? metadata.kernelspec : {};
  const language = String(info.name ?? info.language ?? '').replace(/[^\w+#.-]/g, '');
  const sink = new TextSink(limits.maxChars);
  const parts: string[] = [];
  for (const cell of nb.cells) {
    if (sink.full) break;
    if (!isObject(cell)) continue;
    const source = lines(cell.source).replace(/\s+$/, '');
    const attachments = isObject(cell.attachments) ? Object.keys(cell.attachments) : [];
    if (cell.cell_type === 'code') {
      const f = fence(source);
      sink.push(`${f}${language}\n${source}\n${f}\n`);
      const outputs = Array.isArray(cell.outputs) ? cell.outputs.filter(isObject) : [];
      const shown = outputs.map((o) => outputText(o, sink).replace(/\s+$/, '')).filter((t) => t !== '');
      if (shown.length > 0) sink.push(`Output:\n${shown.join('\n')}\n`);
    } else sink.push(`${source}\n`);
    if (attachments.length > 0) sink.push(`[attachments: ${attachments.join(', ')}]\n`);
    parts.push(sink.take().trim());
  }
  if (parts.every((p) => p === '')) throw new ExtractionError('no-text', 'The notebook has no text');
  return { parts, names: parts.map((_, i) => mark('Cell', i + 1)) };
}
