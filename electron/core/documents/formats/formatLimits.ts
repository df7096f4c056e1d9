import { ExtractionError } from '../extractionError.js';

/**
 * What the formats' readers (EPUB, ODF, RTF, HTML, notebooks, mail) work
 * within, given by extractText.ts so the bounds stay the Office formats'
 * ones: zip parts inflate to at most maxExpandedBytes, text stops at
 * maxChars, at most maxParts zip parts are read.
 */
export interface FormatLimits {
  maxChars: number;
  maxExpandedBytes: number;
  maxParts: number;
}

/** A document's text by part: each part's mark (`--- Chapter 2 ---`) and its text. */
export interface FormatParts {
  names: string[];
  parts: string[];
}

export const mark = (name: string, n: number | string) => `--- ${name} ${n} ---`;

/**
 * Elements open at once, at most. Past it a file is refused: htmlparser2
 * keeps its open elements in an array it shifts and searches, so nesting
 * costs time with the square of its depth (80,000 nested <div> took 8.4 s),
 * and 512 is where Chromium's parser stops nesting too.
 */
export const MAX_DEPTH = 512;

export const tooDeep = () => new ExtractionError('too-large', `Its elements are nested more than ${MAX_DEPTH} deep (a hostile file?)`);

/** Text gathered up to a limit: once full, more is dropped and `full` says so (extractText.ts notes the cut). */
export class TextSink {
  private readonly pieces: string[] = [];
  chars = 0;

  constructor(private readonly max: number) {}

  get full(): boolean {
    return this.chars > this.max;
  }

  /** Characters still to be taken. */
  get room(): number {
    return Math.max(0, this.max - this.chars);
  }

  push(s: string): void {
    if (this.full || s === '') return;
    this.pieces.push(s);
    this.chars += s.length;
  }

  /** The text so far, and a fresh start for the next part. */
  take(): string {
    const text = this.pieces.join('');
    this.pieces.length = 0;
    return text;
  }
}
