import { type Document, DOMParser, type Element } from '@xmldom/xmldom';

import { ExtractionError } from '../extractionError.js';
import { readParts } from '../officeZip.js';
import { type FormatLimits, type FormatParts, mark, TextSink } from './formatLimits.js';
import { htmlText } from './htmlText.js';

/**
 * An EPUB book's text, chapter by chapter in its spine's order (the reading
 * order its package document gives), `--- Chapter N ---` before each
 * content document that has text. The zip's text parts are inflated within
 * the Office bounds (officeZip.ts: declared sizes, and no part past what it
 * declares); images and fonts are never inflated. The package document is
 * read with xmldom, which expands no entities a file declares; chapters with
 * htmlText.
 */

const isTextPart = (name: string) => /\.(xml|opf|x?html?|ncx)$/i.test(name);

/** Font obfuscation (IDPF, Adobe) leaves the text readable; any other encryption of a chapter is DRM. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

const corrupt = (why: string) => new ExtractionError('corrupt', `Not a readable EPUB (${why})`);

function xml(bytes: Uint8Array | undefined, what: string): Document {
  if (!bytes) throw corrupt(`no ${what}`);
  return new DOMParser({ onError: () => undefined }).parseFromString(new TextDecoder().decode(bytes), 'text/xml');
}

/** A zip path from an href relative to the part at `base`. */
function resolveHref(base: string, href: string): string {
  const raw = href.split('#')[0] ?? '';
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // a stray % in a name: the href as written
  }
  const parts = base.split('/').slice(0, -1);
  for (const piece of path.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

const byLocalName = (doc: Document | Element, name: string): Element[] =>
  Array.from(doc.getElementsByTagName('*')).filter((e) => (e.localName ?? e.nodeName) === name);

export function epubText(bytes: Uint8Array, limits: FormatLimits): FormatParts {
  const files = readParts(bytes, isTextPart, { maxBytes: limits.maxExpandedBytes, maxParts: limits.maxParts });
  const container = xml(files.get('META-INF/container.xml'), 'META-INF/container.xml');
  const opfPath = byLocalName(container, 'rootfile')[0]?.getAttribute('full-path');
  if (!opfPath) throw corrupt('its container names no package document');
  const opf = xml(files.get(opfPath), opfPath);
  const hrefs = new Map<string, string>();
  for (const item of byLocalName(opf, 'item')) {
    const id = item.getAttribute('id');
    const href = item.getAttribute('href');
    if (id && href) hrefs.set(id, resolveHref(opfPath, href));
  }
  const spine = byLocalName(opf, 'itemref')
    .map((ref) => hrefs.get(ref.getAttribute('idref') ?? ''))
    .filter((p): p is string => p !== undefined);
  if (spine.length === 0) throw corrupt('its spine lists no chapters');
  const encryption = files.get('META-INF/encryption.xml');
  if (encryption) {
    const locked = byLocalName(xml(encryption, 'META-INF/encryption.xml'), 'EncryptedData').some((d) => {
      const method = byLocalName(d, 'EncryptionMethod')[0]?.getAttribute('Algorithm') ?? '';
      const target = byLocalName(d, 'CipherReference')[0]?.getAttribute('URI') ?? '';
      return !FONT_OBFUSCATION.has(method) && spine.includes(resolveHref('', target));
    });
    if (locked) throw new ExtractionError('encrypted', 'The EPUB is encrypted (DRM): its chapters cannot be read');
  }
  const sink = new TextSink(limits.maxChars);
  const parts: string[] = [];
  const decoder = new TextDecoder();
  for (const path of new Set(spine)) {
    if (sink.full) break;
    const chapter = files.get(path);
    if (!chapter) continue; // listed, but not in the zip (or not a text part): nothing to read
    const text = htmlText(decoder.decode(chapter), sink, { title: false, xhtml: true });
    if (text !== '') parts.push(text);
  }
  if (parts.length === 0) throw new ExtractionError('no-text', 'The book has no text');
  return { parts, names: parts.map((_, i) => mark('Chapter', i + 1)) };
}
