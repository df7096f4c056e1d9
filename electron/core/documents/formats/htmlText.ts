import { Parser } from 'htmlparser2';

import { MAX_DEPTH, TextSink, tooDeep } from './formatLimits.js';

/**
 * The visible text of an HTML (or XHTML) page, with htmlparser2: a
 * streaming tokenizer (no tree is built, entities are the HTML set, never a
 * document's own), so memory follows the text kept, not the markup. Left
 * out: script, style, template, noscript and what a browser would not show
 * (the hidden attribute, inline display:none). Blocks become lines, table
 * cells tabs, list items "- ".
 */

/** Elements whose content is never visible text. */
const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'svg', 'canvas']);
/** Elements that start and end a line. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'legend',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
]);
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

export interface HtmlTextOptions {
  /** Put the page's <title> first (a web page's; an EPUB chapter's repeats the book's). */
  title: boolean;
  /** XHTML (EPUB chapters): `<a id="x"/>` closes itself. */
  xhtml?: boolean;
}

/** Characters fed to the parser at a time, so a full sink stops the work early. */
const FEED = 1 << 20;

/** A title longer than this is cut (it is kept apart from the sink). */
const MAX_TITLE = 1000;

/** The visible text of `html`, appended to `sink` and returned (the part's text). */
export function htmlText(html: string, sink: TextSink, options: HtmlTextOptions): string {
  let depth = 0;
  /** The depth of the element whose content is being left out (0: none). */
  let skipAt = 0;
  let pre = 0;
  let inHead = false;
  let inTitle = false;
  let title = '';
  /** The last character given to the sink: spaces and line breaks are not repeated. */
  let last = '\n';
  const emit = (s: string) => {
    if (s === '') return;
    sink.push(s);
    last = s[s.length - 1] as string;
  };
  const breakLine = () => {
    if (last !== '\n') emit('\n');
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (++depth > MAX_DEPTH) throw tooDeep();
        if (skipAt) return;
        if (SKIPPED.has(name) || 'hidden' in attribs || (attribs.style !== undefined && HIDDEN_STYLE.test(attribs.style))) {
          skipAt = depth;
          return;
        }
        // In <head> only the title is text; the rest there is metadata.
        if (name === 'head') inHead = true;
        else if (name === 'title') inTitle = true;
        else if (name === 'br') emit('\n');
        else if (name === 'li') {
          breakLine();
          emit('- ');
        } else if (name === 'td' || name === 'th') {
          if (last !== '\n') emit('\t');
        } else if (BLOCKS.has(name)) breakLine();
        if (name === 'pre' || name === 'textarea') pre++;
      },
      ontext(text) {
        if (skipAt) return;
        if (inTitle) {
          if (options.title && title.length < MAX_TITLE) title += text.slice(0, MAX_TITLE);
          return;
        }
        if (inHead) return;
        if (pre) return emit(text);
        const squeezed = text.replace(/[ \t\n\r\f]+/g, ' ');
        emit(last === ' ' || last === '\n' || last === '\t' ? squeezed.replace(/^ /, '') : squeezed);
      },
      onclosetag(name) {
        const skipped = skipAt !== 0;
        if (skipAt === depth) skipAt = 0;
        depth--;
        if (skipped) return;
        if (name === 'head') inHead = false;
        else if (name === 'title') inTitle = false;
        else if (name === 'pre' || name === 'textarea') pre = Math.max(0, pre - 1);
        if (name === 'li' || BLOCKS.has(name)) breakLine();
      },
    },
    { recognizeSelfClosing: options.xhtml ?? false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  for (let at = 0; at < html.length && !sink.full; at += FEED) parser.write(html.slice(at, at + FEED));
  if (!sink.full) parser.end();
  const body = tidy(sink.take());
  const heading = title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE);
  return heading && !body.startsWith(heading) ? `${heading}\n\n${body}` : body;
}

/** Spaces at line ends, and runs of blank lines, go. */
function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The bytes of a page as text: its BOM, else the charset its first bytes declare, else UTF-8. */
export function decodeHtml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const declared = /<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ?? /<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1];
  if (declared) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // a label TextDecoder does not know: UTF-8 below
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}
