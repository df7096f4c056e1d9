import { ErrorCodes } from '../../../shared/errorCodes.js';
import { ShelfError } from '../base/shelfError.js';
import type { DocumentKind } from './documentKinds.js';
import { ExtractLane, type LaneOutcome, type UnavailableReason } from './extractLane.js';
import type { OcrRequest } from './ocr.js';
import { OCR_DOCUMENT_MS } from './ocrLimits.js';
import type { CachedOutcome, TextDiskCache } from './textDiskCache.js';

export type { UnavailableReason } from './extractLane.js';

export interface DocumentTextOptions {
  /** The built extraction worker (extract-worker.js next to the host's bundle). */
  workerFile: URL | string;
  /** One document may take this long; then the worker is stopped and the read fails with `timeout`. */
  timeoutMs?: number;
  /** The worker's heap; a document that needs more fails with `too-large` and a new worker starts. */
  memoryMb?: number;
  /**
   * What one extraction may add to the process's memory, heap and buffers
   * together (the heap limit does not count ArrayBuffers, where pdf.js
   * inflates streams); past it the worker is stopped: `too-large`. Default:
   * the heap limit and 512 MiB of buffers.
   */
  processMemoryMb?: number;
  /** Extracted text kept in memory, in characters, for documents read again (by file identity). */
  cacheChars?: number;
  /** Outcomes kept on disk between runs (absent: extracted again after each start). */
  disk?: TextDiskCache | null;
  /** OCR of images and scanned PDF pages (null or absent: off); setOcr changes it. */
  ocr?: OcrRequest | null;
  /**
   * OCR's processor time for one document, after which its worker is
   * stopped (timeout): a backstop, as OCR leaves pages past OCR_DOCUMENT_MS
   * itself. Default: that and a minute for the page under way.
   */
  ocrTimeoutMs?: number;
}

export interface DocumentTextResult {
  text: string;
  parts: number;
}

type Outcome = DocumentTextResult | { reason: UnavailableReason; message: string };

/** Reasons that hold for a file version whatever the load, so they are kept on disk too (a timeout or a full queue may not recur). */
const LASTING: ReadonlySet<UnavailableReason> = new Set(['no-text', 'encrypted', 'corrupt', 'too-large', 'unsupported']);

/** An outcome read back from disk, if it is one we would have written. */
function fromDisk(kept: CachedOutcome | null): Outcome | null {
  if (!kept) return null;
  if ('text' in kept) return kept;
  return LASTING.has(kept.reason as UnavailableReason) ? { reason: kept.reason as UnavailableReason, message: kept.message } : null;
}

/** OCR's backstop: its own budget per document, and a minute for the page it was on. */
const OCR_TIMEOUT_MS = OCR_DOCUMENT_MS + 60_000;
/** What an outcome costs the in-memory cache, in characters: its text or message, its key and the entry around them. */
const outcomeChars = (key: string, o: Outcome): number => ('text' in o ? o.text.length : o.message.length) + key.length + 64;

/**
 * A document version that took too long is not tried again for this long,
 * whatever the text cache keeps or drops: else a client could start a 30 s
 * extraction again at will. Bounded: the oldest are forgotten first.
 */
const TIMEOUT_MEMORY_MS = 10 * 60 * 1000;
const MAX_TIMEOUTS = 1024;

/** The error a client gets when a document's text cannot be given. */
export function textUnavailable(uri: string, reason: UnavailableReason, message: string): ShelfError {
  return new ShelfError(ErrorCodes.documentTextUnavailable, `No text for this document: ${message}`, { uri, reason });
}

/**
 * Document text, extracted off the main thread (extractLane.ts): a text
 * worker for documents' text layers and an OCR worker for images and
 * scanned PDF pages, each one document at a time, bounded in time, heap and
 * the memory it adds to the process — so a long OCR never holds up another
 * document's text, and neither takes the thread that answers clients.
 * Results (text or the reason there is none) are kept by file identity (and
 * the OCR settings), so a document is extracted once per version.
 */
export class DocumentText {
  private readonly textLane: ExtractLane;
  private readonly ocrLane: ExtractLane;
  private ocr: OcrRequest | null;
  private readonly cache = new Map<string, Outcome>();
  private cachedChars = 0;
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  /** Recent timeouts by key, and until when they stand (see TIMEOUT_MEMORY_MS). */
  private readonly recentTimeouts = new Map<string, { until: number; outcome: Outcome }>();
  constructor(private readonly options: DocumentTextOptions) {
    const lane = { workerFile: options.workerFile, memoryMb: options.memoryMb, processMemoryMb: options.processMemoryMb };
    // The memory watched is the process's: each lane knows when the other is at work too (extractLane.ts).
    this.textLane = new ExtractLane({ ...lane, othersRunning: () => this.ocrLane.busy });
    this.ocrLane = new ExtractLane({ ...lane, othersRunning: () => this.textLane.busy });
    this.ocr = options.ocr ?? null;
  }

  /** Extractions run (not cache hits), for tests and the bench: text layers and OCR jobs. */
  get extractions(): number {
    return this.textLane.runs + this.ocrLane.runs;
  }

  /** Whether OCR is on (images then have text too). */
  get ocrOn(): boolean {
    return this.ocr !== null;
  }

  /** OCR's languages, or off (null). Outcomes are kept per setting, so a change reads again what it concerns. */
  setOcr(ocr: OcrRequest | null): void {
    this.ocr = ocr && ocr.languages.length > 0 ? { languages: [...ocr.languages], dataDirs: [...ocr.dataDirs] } : null;
  }

  /** Whether an OCR job is running now (for the bench and tests). */
  get ocrRunning(): boolean {
    return this.ocrLane.busy;
  }

  /** The cache key of a document version under the current OCR setting. */
  private keyOf(key: string): string {
    return this.ocr ? `${key}\u0000ocr:${this.ocr.languages.join('+')}` : key;
  }

  /**
   * The text of the document `key` names (its path and version), extracted
   * on first use. Throws textUnavailable (1006) when there is none.
   */
  /** `party`: who asks first (a client; '' the index), so the workers serve clients in turn. */
  async text(uri: string, key: string, kind: DocumentKind, read: () => Promise<Uint8Array>, party = ''): Promise<DocumentTextResult> {
    if (kind === 'image' && !this.ocr) throw textUnavailable(uri, 'unsupported', 'OCR is off, so images have no text');
    const outcome = await this.outcome(this.keyOf(key), kind, read, party);
    if ('reason' in outcome) throw textUnavailable(uri, outcome.reason, outcome.message);
    return outcome;
  }

  /** The cached outcome without extracting (null: not extracted yet). */
  peek(key: string): DocumentTextResult | null {
    const o = this.cache.get(this.keyOf(key));
    return o && !('reason' in o) ? o : null;
  }

  /** The text of `key` if it was extracted before (in memory, or on disk from an earlier run), without extracting it. */
  async known(key: string): Promise<DocumentTextResult | null> {
    const k = this.keyOf(key);
    const cached = this.cache.get(k);
    if (cached) return 'reason' in cached ? null : cached;
    const kept = fromDisk((await this.options.disk?.get(k).catch(() => null)) ?? null);
    if (kept) this.remember(k, kept);
    return kept && !('reason' in kept) ? kept : null;
  }

  private outcome(key: string, kind: DocumentKind, read: () => Promise<Uint8Array>, party: string): Promise<Outcome> {
    const timedOut = this.recentTimeouts.get(key);
    if (timedOut && timedOut.until > Date.now()) return Promise.resolve(timedOut.outcome);
    if (timedOut) this.recentTimeouts.delete(key);
    const cached = this.cache.get(key);
    if (cached) {
      // Least recently used goes first: a hit moves to the end.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    const running = this.inFlight.get(key);
    if (running) return running;
    const disk = this.options.disk;
    const promise = (async (): Promise<Outcome> => {
      // Extracted in an earlier run: read back, not extracted again.
      const kept = fromDisk((await disk?.get(key).catch(() => null)) ?? null);
      if (kept) return kept;
      const o = await this.extract(kind, read, party);
      if (disk && (!('reason' in o) || LASTING.has(o.reason))) void disk.put(key, o).catch(() => undefined);
      return o;
    })().then(
      (o) => {
        this.inFlight.delete(key);
        if ('reason' in o && o.reason === 'timeout') this.rememberTimeout(key, o);
        if (!('reason' in o) || o.reason !== 'busy') this.remember(key, o);
        return o;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  private rememberTimeout(key: string, o: Outcome): void {
    this.recentTimeouts.delete(key);
    const again = { ...o, message: `${'message' in o ? o.message : ''} (not tried again for ${TIMEOUT_MEMORY_MS / 60_000} minutes)` };
    this.recentTimeouts.set(key, { until: Date.now() + TIMEOUT_MEMORY_MS, outcome: again });
    if (this.recentTimeouts.size > MAX_TIMEOUTS) this.recentTimeouts.delete(this.recentTimeouts.keys().next().value as string);
  }

  private remember(key: string, o: Outcome): void {
    // A reason costs its key and message: a folder whose documents keep changing must not grow this without bound.
    const size = outcomeChars(key, o);
    const budget = this.options.cacheChars ?? 64 * 1024 * 1024;
    if (size > budget) return;
    this.cache.set(key, o);
    this.cachedChars += size;
    for (const k of this.cache.keys()) {
      if (this.cachedChars <= budget) break;
      this.forget(k);
    }
  }

  /**
   * A document's text through the workers: an image goes to the OCR worker;
   * a document to the text worker, and a PDF whose text layer left pages
   * empty (OCR on) then to the OCR worker for those pages.
   */
  private async extract(kind: DocumentKind, read: () => Promise<Uint8Array>, party: string): Promise<Outcome> {
    const ocr = this.ocr;
    const ocrTimeoutMs = this.options.ocrTimeoutMs ?? OCR_TIMEOUT_MS;
    if (kind === 'image') {
      if (!ocr) return { reason: 'unsupported', message: 'OCR is off, so images have no text' };
      return plain(await this.ocrLane.submit({ kind, options: { ocr, stage: 'ocr' }, timeoutMs: ocrTimeoutMs, read, party }));
    }
    const first = await this.textLane.submit({ kind, options: { ocr, stage: 'text' }, timeoutMs: this.options.timeoutMs ?? 30_000, read, party });
    if ('reason' in first || !first.pageTexts || !ocr) return plain(first);
    return plain(await this.ocrLane.submit({ kind, options: { ocr, stage: 'ocr', pageTexts: first.pageTexts }, timeoutMs: ocrTimeoutMs, read, party }));
  }

  /** A folder stopped being published: its documents' text leaves the disk. */
  async forgetFolder(folder: string): Promise<void> {
    for (const key of this.cache.keys()) if (key.startsWith(`${folder}\u0000`)) this.forget(key);
    await this.options.disk?.forgetFolder(folder);
  }

  private forget(key: string): void {
    const o = this.cache.get(key);
    if (!o) return;
    this.cache.delete(key);
    this.cachedChars -= outcomeChars(key, o);
  }

  async close(): Promise<void> {
    await Promise.all([this.textLane.close(), this.ocrLane.close()]);
  }
}

/** A lane's outcome as the cache keeps it (the text stage's page texts are not kept). */
function plain(o: LaneOutcome): Outcome {
  return 'reason' in o ? o : { text: o.text, parts: o.parts };
}
