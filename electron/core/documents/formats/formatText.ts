import { ExtractionError } from '../extractionError.js';
import { epubText } from './epubText.js';
import type { FormatLimits, FormatParts } from './formatLimits.js';
import { mark, TextSink } from './formatLimits.js';
import { decodeHtml, htmlText } from './htmlText.js';
import { mailText } from './mailText.js';
import { notebookText } from './notebookText.js';
import { odfText } from './odfText.js';
import { rtfText } from './rtfText.js';

/** The kinds read here (documentKinds.ts lists their extensions). */
export type FormatKind = 'epub' | 'odt' | 'ods' | 'odp' | 'rtf' | 'html' | 'ipynb' | 'eml' | 'mbox';

/** A document of one of these kinds as parts of text, for extractText.ts to join and mark. */
export async function formatText(kind: FormatKind, bytes: Uint8Array, limits: FormatLimits): Promise<FormatParts> {
  switch (kind) {
    case 'epub':
      return epubText(bytes, limits);
    case 'odt':
    case 'ods':
    case 'odp':
      return odfText(kind, bytes, limits);
    case 'rtf':
      return rtfText(bytes, limits);
    case 'html': {
      const text = htmlText(decodeHtml(bytes), new TextSink(limits.maxChars), { title: true });
      if (text === '') throw new ExtractionError('no-text', 'The page has no visible text');
      return { names: [mark('Document', 1)], parts: [text] };
    }
    case 'ipynb':
      return notebookText(bytes, limits);
    case 'eml':
    case 'mbox':
      return mailText(kind, bytes, limits);
  }
}
