import PostalMime, { type Address, type Email } from 'postal-mime';

import { ExtractionError } from '../extractionError.js';
import { type FormatLimits, type FormatParts, mark, TextSink } from './formatLimits.js';
import { htmlText } from './htmlText.js';

/**
 * Mail as text: an .eml is one message, an .mbox many (`--- Message N ---`).
 * Each gives the headers a reader looks at (From, To, Cc, Date, Subject), its
 * text part, or its HTML part as text (htmlText), and its attachments listed
 * by name, type and size. MIME is parsed by postal-mime, which bounds MIME
 * nesting, the size of a message's headers and nested messages.
 */

/** MIME parts nested in one message, at most (postal-mime's default is 256). */
const MAX_MIME_DEPTH = 64;
/** A message's headers, in all, at most (bytes; the default is 2 MiB). */
const MAX_HEADER_BYTES = 1024 * 1024;

const who = (a: Address | undefined): string => {
  if (!a) return '';
  if (a.group) return `${a.name}: ${a.group.map(who).join(', ')}`;
  return a.name ? `${a.name} <${a.address}>` : a.address;
};

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function messageText(email: Email, sink: TextSink): string {
  const lines: string[] = [];
  const header = (name: string, value: string | undefined) => {
    if (value) lines.push(`${name}: ${value.replace(/\s+/g, ' ').trim()}`);
  };
  header('From', who(email.from));
  header('To', email.to?.map(who).join(', '));
  header('Cc', email.cc?.map(who).join(', '));
  header('Date', email.date);
  header('Subject', email.subject);
  const body = email.text?.trim() ? email.text : email.html ? htmlText(email.html, new TextSink(sink.room), { title: false }) : '';
  lines.push(
    '',
    body
      .replace(/\r\n/g, '\n')
      .replace(/^>(>*From )/gm, '$1')
      .trim(),
  );
  if (email.attachments.length > 0) {
    lines.push('', 'Attachments:');
    for (const a of email.attachments) {
      const bytes = typeof a.content === 'string' ? a.content.length : a.content.byteLength;
      const inline = a.disposition === 'inline' || a.related ? ', inline' : '';
      lines.push(`- ${a.filename ?? '(no name)'} (${a.mimeType}, ${size(bytes)}${inline})`);
    }
  }
  return lines.join('\n').trim();
}

async function parse(raw: Uint8Array): Promise<Email> {
  try {
    return await PostalMime.parse(raw, { maxNestingDepth: MAX_MIME_DEPTH, maxHeadersSize: MAX_HEADER_BYTES, attachmentEncoding: 'arraybuffer' });
  } catch (err) {
    const message = (err as Error).message;
    throw new ExtractionError(/depth|nest|size|exceed/i.test(message) ? 'too-large' : 'corrupt', `Not a readable message (${message})`);
  }
}

/** Messages of an mbox read at most; the text says where it stopped. */
const MAX_MESSAGES = 100_000;
/**
 * Bytes of an mbox's messages read at most, then the text says where it
 * stopped: postal-mime reads 3–5 MB a second in the worker (BENCHMARKS.md,
 * "Formats"), so this stays well inside the worker's 30 s, and a big mailbox
 * gives its first messages every time rather than a timeout.
 */
const MAX_MBOX_BYTES = 48 * 1024 * 1024;

/** Each message of an mbox, one at a time: it starts at a line beginning "From " (the envelope line, left out). */
function* mboxMessages(bytes: Uint8Array): Generator<Uint8Array> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = buf.subarray(0, 5).toString('latin1') === 'From ' ? 0 : buf.indexOf('\nFrom ') + 1;
  if (start === 0 && buf.subarray(0, 5).toString('latin1') !== 'From ')
    throw new ExtractionError('corrupt', 'Not an mbox file (no line starts a message with "From ")');
  while (start < buf.length) {
    const next = buf.indexOf('\nFrom ', start);
    const end = next < 0 ? buf.length : next + 1;
    const afterEnvelope = buf.indexOf('\n', start);
    yield buf.subarray(afterEnvelope < 0 || afterEnvelope >= end ? end : afterEnvelope + 1, end);
    start = end;
  }
}

export async function mailText(kind: 'eml' | 'mbox', bytes: Uint8Array, limits: FormatLimits): Promise<FormatParts> {
  const sink = new TextSink(limits.maxChars);
  const parts: string[] = [];
  let read = 0;
  let readBytes = 0;
  for (const raw of kind === 'eml' ? [bytes] : mboxMessages(bytes)) {
    if (sink.full) break;
    if (++read > MAX_MESSAGES || readBytes > MAX_MBOX_BYTES) {
      const why = read > MAX_MESSAGES ? `${MAX_MESSAGES.toLocaleString('en')} messages` : `${MAX_MBOX_BYTES / 1024 / 1024} MiB of messages`;
      if (parts.length > 0) parts[parts.length - 1] += `\n\n[… the mailbox goes on: only its first ${why} are read]`;
      break;
    }
    readBytes += raw.byteLength;
    const text = messageText(await parse(raw), sink);
    if (text === '') continue;
    sink.push(text);
    parts.push(sink.take());
  }
  if (parts.length === 0) throw new ExtractionError('no-text', 'The mail has no text');
  return { parts, names: parts.map((_, i) => mark('Message', i + 1)) };
}
