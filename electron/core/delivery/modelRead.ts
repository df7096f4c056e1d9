import { closeSync, type Stats } from 'node:fs';
import path from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/server';

import { fileUriOfText, textUriOf } from '../../../shared/documentUris.js';
import { ErrorCodes } from '../../../shared/errorCodes.js';
import { formatBytes } from '../../../shared/formatBytes.js';
import { Turns } from '../background/turns.js';
import { ShelfError } from '../base/shelfError.js';
import { type ReplyCharge, replyCost } from '../clientMemory/memoryBudget.js';
import { type DocumentKind, documentKind, PART_NAMES, SOURCE_KINDS } from '../documents/documentKinds.js';
import { readAsync, scanKind } from '../library/fileStream.js';
import type { Library } from '../library/library.js';
import { binaryByName, mediaType, typeFromName } from '../library/mediaType.js';
import type { ReadOutcome } from '../library/safeRead.js';
import { type DeliveryProfile, MAX_EMBEDDED_BYTES } from './clientProfiles.js';
import { kindLabel, parsePages, selectParts } from './documentParts.js';
import type { ImageForModel } from './imageForModel.js';
import type { LineIndex, LineIndexCache } from './lineIndex.js';
import { textEncoding } from './textEncoding.js';
import { FileLines, type Page, StringLines } from './textPages.js';

/**
 * The read_resource tool: a file as a model can use it, whatever its kind.
 * Text comes a page of lines at a time within the client's character
 * budget (the pages put together are the file exactly); a document (PDF,
 * Office) as its extracted text, paged the same way and by page; an image
 * as an `image` block within a model's size limits; any other binary as a
 * few lines saying what it is and how to get its bytes. `resources/read`
 * stays byte-exact for clients that read resources themselves.
 */

export interface ReadToolArgs {
  uri: string;
  offset?: number;
  limit?: number;
  column?: number;
  pages?: string;
}

export interface ModelRead {
  result: CallToolResult;
  /** Bytes of the file (for the history). */
  size: number;
  /** What was given, for the history and the traffic log ("lines 1–2,000 of 120,000"). */
  detail: string;
}

/** Where a read stopped, for clients that page by program (the in-chat app): `_meta` of the result, never shown to the model. */
export const READ_META_KEY = 'dev.mcpshelf/read';

/** Text files up to this size are read whole and paged in memory; larger ones are paged from disk through their line index. */
const WHOLE_TEXT_MAX = 1024 * 1024;
/** Image files decoded at most this large (a larger one is described). */
const MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024;
/** Document texts kept split into lines (and parts) for paging: at most this many, and this many characters in all. */
const DOCUMENT_LINES_KEPT = 8;
const OCR_HEADING = 'Text in the image, recognised by OCR (it may misread some words):';
/** An image's OCR text given beside it at most (a poster of small print is still one image). */
const OCR_TEXT_CHARS = 20_000;
const DOCUMENT_CHARS_KEPT = 32 * 1024 * 1024;
/** Large files looked at as a whole (is it text? where do its lines start?) at once; more wait, past MAX_WAITING_SCANS they are refused. */
const MAX_SCANS = 2;
const MAX_WAITING_SCANS = 32;

const n = (x: number) => x.toLocaleString('en');

/** "398 KB (407,271 bytes)"; `exact: false` leaves out the byte count. */
export function sizeText(bytes: number, exact = true): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return exact ? `${formatBytes(bytes)} (${n(bytes)} bytes)` : formatBytes(bytes);
}

/** Images a model is sent as pixels (SVG is text, and read as text). */
const isImageType = (mime: string) => mime.startsWith('image/') && mime !== 'image/svg+xml';

export interface ModelReaderOptions {
  library: Library;
  lines: LineIndexCache;
  images: ImageForModel | null;
}

export class ModelReader {
  /** Document texts split into lines, by document version and page range (least recently used first). */
  private readonly documentLines = new Map<string, { lines: StringLines; parts: { from: number; to: number; total: number } | null }>();

  /** Large files looked at as a whole (it reads them all once) a few at a time, so many clients asking for huge files queue. */
  private readonly scans = new Turns(MAX_SCANS, MAX_WAITING_SCANS, 'Too many large files are being opened at once; try again shortly');
  /** The scan of each file version under way: reads of one large file at once share it (16 calls made 16 scans of 600 MB). */
  private readonly scanning = new Map<string, Promise<LineIndex | null>>();
  /** Large files looked at as a whole (for tests and the bench). */
  scansRun = 0;

  constructor(private readonly options: ModelReaderOptions) {}

  /** `charge` reserves the reply in the client's memory budget once its size is known (refused when it is spent). */
  /** `party`: who asks (a client), so the workers serve clients in turn. */
  async read(args: ReadToolArgs, profile: DeliveryProfile, charge?: ReplyCharge, party = ''): Promise<ModelRead> {
    const read = await this.readAs(args, profile, charge, party);
    // What it gave, for the traffic log too (the history gets it from here).
    const meta = read.result._meta?.[READ_META_KEY] as Record<string, unknown> | undefined;
    if (meta) meta.detail = read.detail;
    return read;
  }

  private async readAs(args: ReadToolArgs, profile: DeliveryProfile, charge: ReplyCharge | undefined, party: string): Promise<ModelRead> {
    const library = this.options.library;
    // What a reply holds while it is built: a page of text (four bytes a character at most, with its JSON), and a small file whole or an image.
    charge?.(4 * profile.textBudget + 4096, 'this read');
    const fileUri = fileUriOfText(args.uri);
    if (fileUri !== null) return this.readDocument(args, fileUri, profile, party);
    const found = await library.locate(args.uri);
    if (!found) throw ShelfError.notFound(args.uri);
    const rel = found.entry.rel;
    charge?.(replyCost(Math.min(Math.max(0, found.entry.size), WHOLE_TEXT_MAX)), 'this read');
    const kind = documentKind(rel);
    // A web page is read as its markup here (its visible text is at ?as=text); other documents as their text.
    if (library.documentsOn && kind && !SOURCE_KINDS.has(kind)) return this.readDocument(args, args.uri, profile, party);
    if (args.pages !== undefined)
      throw ShelfError.invalidParams('pages is for documents (PDF, Office, OpenDocument, EPUB, notebooks, mail): use offset and limit for lines');
    const byName = typeFromName(rel);
    if (byName && isImageType(byName)) return this.readImage(args.uri, rel, byName, profile, charge, party);
    // The common call, a file the index knows as small: read whole in one open (opening it first to look at
    // its size was a second open, close and stat of every read). One grown past WHOLE_TEXT_MAX since is paged below.
    if (found.entry.size >= 0 && found.entry.size <= WHOLE_TEXT_MAX) {
      const whole = await this.readWhole(args.uri);
      if (whole) return this.wholeResult(args, rel, whole, profile, charge, party);
    }
    const opened = await library.openFile(args.uri);
    let handedOver = false;
    try {
      const { fd, stat } = opened;
      if (stat.size <= WHOLE_TEXT_MAX) {
        closeSync(fd);
        handedOver = true;
        return this.wholeResult(args, rel, await library.read(args.uri, { limit: WHOLE_TEXT_MAX }), profile, charge, party);
      }
      // A file indexed before (this version, or it only grew by text) is text: not looked at as a whole again.
      let index = await this.options.lines.current(fd, stat);
      if (!index && !binaryByName(rel)) index = await this.scanOnce(fd, args.uri, stat, rel);
      if (index) {
        const page = await new FileLines(fd, index, index.version.size).page(this.pageRequest(args, profile));
        return this.textResult(args, rel, page, index.version.size, byName ?? 'text/plain');
      }
      const head = Buffer.alloc(4100);
      const { bytesRead } = await readAsync(fd, head, 0, head.length, 0);
      const mimeType = byName ?? (await mediaType(rel, head.subarray(0, bytesRead), 'blob'));
      if (isImageType(mimeType)) return this.readImage(args.uri, rel, mimeType, profile, charge, party);
      return this.describeBinary(args.uri, rel, mimeType, stat.size, profile);
    } finally {
      if (!handedOver) closeSync(opened.fd);
    }
  }

  /** A file read whole (whatever --max-read-bytes says: that bounds one resources/read message; a page is bounded by the budget), or null when it is over WHOLE_TEXT_MAX now. */
  private async readWhole(uri: string): Promise<ReadOutcome | null> {
    try {
      return await this.options.library.read(uri, { limit: WHOLE_TEXT_MAX });
    } catch (err) {
      if (err instanceof ShelfError && err.code === ErrorCodes.resourceTooLarge) return null;
      throw err;
    }
  }

  /** What a model gets for a file read whole: a page of its text, the image, or what kind of file it is. */
  private wholeResult(
    args: ReadToolArgs,
    rel: string,
    whole: ReadOutcome,
    profile: DeliveryProfile,
    charge: ReplyCharge | undefined,
    party: string,
  ): Promise<ModelRead> | ModelRead {
    if ('text' in whole.contents)
      return this.textResult(args, rel, new StringLines(whole.contents.text).page(this.pageRequest(args, profile)), whole.size, whole.contents.mimeType);
    const mimeType = whole.contents.mimeType;
    if (isImageType(mimeType)) return this.readImage(args.uri, rel, mimeType, profile, charge, party);
    return this.describeBinary(args.uri, rel, mimeType, whole.size, profile);
  }

  /** A large file looked at as a whole once per version, however many reads ask at once (each then pages with its own descriptor). */
  private scanOnce(fd: number, uri: string, stat: Stats, rel: string): Promise<LineIndex | null> {
    const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    let scan = this.scanning.get(key);
    if (!scan) {
      scan = this.scans
        .run(async () => {
          this.scansRun++;
          const kind = await scanKind(fd, uri, Number.POSITIVE_INFINITY, stat, rel);
          if (kind.kind !== 'text') return null;
          const bom = kind.legacy ? 0 : kind.encoding === 'utf-8' ? (kind.head[0] === 0xef && kind.head[1] === 0xbb && kind.head[2] === 0xbf ? 3 : 0) : 2;
          return this.options.lines.build(fd, kind.stat, textEncoding(kind.legacy ?? kind.encoding), bom);
        })
        .finally(() => this.scanning.delete(key));
      this.scanning.set(key, scan);
    }
    return scan;
  }

  private pageRequest(args: ReadToolArgs, profile: DeliveryProfile) {
    return {
      budget: profile.textBudget,
      ...(args.offset !== undefined ? { offset: args.offset } : {}),
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
      ...(args.column !== undefined ? { column: args.column } : {}),
    };
  }

  /** A page of text, and a note after it when it is not the whole text: which lines, of how many, and how to go on. */
  private textResult(
    args: ReadToolArgs,
    rel: string,
    page: Page,
    size: number,
    mimeType: string,
    about?: { prefix: string; parts?: string; document: { kind: DocumentKind; parts: number; partName: string; from: number; to: number } },
  ): ModelRead {
    const whole = page.firstLine === 1 && page.startColumn === 1 && page.next === null && (page.lastLine === page.totalLines || page.totalLines === 0);
    const note = whole && !about ? null : pageNote(args, page, about?.prefix, this.budgetCut(page, args));
    const lines = page.totalLines === 0 ? 'empty' : describeLines(page);
    const detail = about
      ? [about.parts, whole ? `all ${n(page.totalLines)} line(s)` : lines, 'text'].filter(Boolean).join(', ')
      : whole
        ? `all ${n(page.totalLines)} line(s)`
        : lines;
    const content: CallToolResult['content'] = [{ type: 'text', text: page.text }];
    if (note) content.push({ type: 'text', text: note });
    return {
      result: {
        content,
        _meta: {
          [READ_META_KEY]: {
            uri: args.uri,
            path: rel,
            mimeType,
            firstLine: page.firstLine,
            lastLine: page.lastLine,
            totalLines: page.totalLines,
            startColumn: page.startColumn,
            next: page.next,
            ...(about ? { document: about.document } : {}),
          },
        },
      },
      size,
      detail,
    };
  }

  private budgetCut(page: Page, args: ReadToolArgs): boolean {
    return page.next !== null && (args.limit === undefined || page.lastLine - page.firstLine + 1 < args.limit || page.cutLine);
  }

  private async readDocument(args: ReadToolArgs, fileUri: string, profile: DeliveryProfile, party: string): Promise<ModelRead> {
    const library = this.options.library;
    const doc = await library.documentText(fileUri, args.uri, party);
    const found = library.resolve(fileUri);
    const rel = found?.entry.rel ?? path.posix.basename(fileUri);
    const size = found?.entry.size ?? 0;
    const range = args.pages === undefined ? null : parsePages(args.pages);
    const key = `${doc.key}\u0000${args.pages ?? ''}`;
    let kept = this.documentLines.get(key);
    if (kept) this.documentLines.delete(key);
    else {
      const parts = range ? selectParts(doc.text, doc.kind, doc.parts, range) : null;
      kept = { lines: new StringLines(parts ? parts.text : doc.text), parts: parts ? { from: parts.from, to: parts.to, total: doc.parts } : null };
    }
    this.documentLines.set(key, kept);
    let chars = 0;
    for (const v of this.documentLines.values()) chars += v.lines.text.length;
    for (const [k, v] of this.documentLines) {
      if (this.documentLines.size <= 1 || (this.documentLines.size <= DOCUMENT_LINES_KEPT && chars <= DOCUMENT_CHARS_KEPT)) break;
      this.documentLines.delete(k);
      chars -= v.lines.text.length;
    }
    const page = kept.lines.page(this.pageRequest(args, profile));
    const partName = PART_NAMES[doc.kind].toLowerCase();
    const what = `${kindLabel(doc.kind)}, ${n(doc.parts)} ${partName}(s), ${sizeText(size)}`;
    const partsText = kept.parts
      ? (kept.parts.to > kept.parts.from ? `${partName}s ${kept.parts.from}–${kept.parts.to}` : `${partName} ${kept.parts.from}`) + ` of ${kept.parts.total}`
      : undefined;
    const prefix = `Text extracted from ${path.posix.basename(rel)} (${what})${partsText ? `, ${partsText}` : ''}.`;
    const document = { kind: doc.kind, parts: doc.parts, partName: PART_NAMES[doc.kind], from: kept.parts?.from ?? 1, to: kept.parts?.to ?? doc.parts };
    const read = this.textResult(args, rel, page, size, 'text/plain', { prefix, document, ...(partsText ? { parts: partsText } : {}) });
    this.addOriginal(read.result, fileUri, rel, typeFromName(rel) ?? 'application/octet-stream', size, profile);
    return read;
  }

  private async readImage(
    uri: string,
    rel: string,
    mimeType: string,
    profile: DeliveryProfile,
    charge: ReplyCharge | undefined,
    party: string,
  ): Promise<ModelRead> {
    const images = this.options.images;
    const opened = await this.options.library.openFile(uri);
    const size = opened.stat.size;
    let out: Awaited<ReturnType<ImageForModel['convert']>>;
    try {
      if (!images || !profile.images || size > MAX_IMAGE_FILE_BYTES) {
        const why = !profile.images
          ? 'this client is set to get images described, not shown'
          : !images
            ? 'images cannot be converted on this shelf'
            : `it is over the ${sizeText(MAX_IMAGE_FILE_BYTES)} an image may be to be shown`;
        return this.describeBinary(uri, rel, mimeType, size, profile, why);
      }
      // The bytes are read when the image worker takes the job, and counted in the memory budget first:
      // waiting reads hold an open file each, not a copy of it.
      out = await images.convertWhenAdmitted(
        async () => {
          charge?.(size, 'this image');
          const bytes = new Uint8Array(size);
          let got = 0;
          while (got < size) {
            const { bytesRead } = await readAsync(opened.fd, bytes, got, size - got, got);
            if (bytesRead === 0) break;
            got += bytesRead;
          }
          return got === size ? bytes : bytes.slice(0, got);
        },
        { maxSide: profile.imageMaxSide, maxPixels: profile.imageMaxPixels, maxBytes: profile.imageMaxBytes },
        party,
        `${uri}\u0000${size}\u0000${opened.stat.mtimeMs}\u0000${profile.imageMaxSide}\u0000${profile.imageMaxPixels}\u0000${profile.imageMaxBytes}`,
      );
    } finally {
      closeSync(opened.fd);
    }
    const name = path.posix.basename(rel);
    if ('reason' in out) {
      const dims = out.original ? `, ${out.original.width}×${out.original.height} px` : '';
      return this.describeBinary(uri, rel, mimeType, size, profile, `it cannot be shown: ${out.message}${dims ? ` (${dims.slice(2)})` : ''}`);
    }
    const original = `${out.original.format.toUpperCase()}, ${out.original.width}×${out.original.height} px, ${sizeText(size)}`;
    const shown = out.converted
      ? `shown at ${out.width}×${out.height} as ${out.mimeType.slice(6).toUpperCase()} (${sizeText(out.data.length, false)})`
      : 'shown as it is';
    const result: CallToolResult = {
      content: [
        { type: 'image', data: Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength).toString('base64'), mimeType: out.mimeType },
        { type: 'text', text: `${name}: ${original}; ${shown}.` },
      ],
      _meta: {
        [READ_META_KEY]: {
          uri,
          path: rel,
          mimeType,
          image: { width: out.width, height: out.height, mimeType: out.mimeType, original: out.original, converted: out.converted },
        },
      },
    };
    this.addOriginal(result, uri, rel, mimeType, size, profile);
    const words = await this.imageText(uri, profile, party);
    if (words) result.content.push({ type: 'text', text: words });
    const detail = out.converted
      ? `image ${out.width}×${out.height} ${out.mimeType.slice(6).toUpperCase()} (from ${out.original.width}×${out.original.height} ${out.original.format.toUpperCase()})`
      : `image ${out.width}×${out.height} as it is`;
    return { result, size, detail: words?.startsWith(OCR_HEADING) ? `${detail}, with OCR text` : detail };
  }

  private async describeBinary(uri: string, rel: string, mimeType: string, size: number, profile: DeliveryProfile, why?: string): Promise<ModelRead> {
    const name = path.posix.basename(rel);
    const lines = [
      `${name}: ${mimeType}, ${sizeText(size)}. ${why ? `Not shown: ${why}.` : 'It is binary, so its bytes are not shown here.'}`,
      `Its bytes are the resource ${uri} (resources/read gives them exactly, as base64), for a client that reads or attaches resources.`,
    ];
    const result: CallToolResult = {
      content: [{ type: 'text', text: lines.join('\n') }],
      _meta: { [READ_META_KEY]: { uri, path: rel, mimeType, described: true, size } },
    };
    this.addOriginal(result, uri, rel, mimeType, size, profile);
    if (profile.embedOriginals && size <= MAX_EMBEDDED_BYTES) {
      const whole = await this.options.library.read(uri, { limit: MAX_EMBEDDED_BYTES }).catch(() => null);
      if (whole && 'blob' in whole.contents) result.content.push({ type: 'resource', resource: whole.contents });
    }
    return { result, size, detail: why ? `described (${why})` : 'described (binary)' };
  }

  /**
   * The words OCR finds in an image, for the model beside the picture (OCR
   * on), when they are known already (this run, or kept on disk). An image
   * never waits for its OCR (a cold 12 MP photo took 15 s): one not read yet
   * is started in the background, and the reply says where its text will
   * be. Bounded by the client's text budget. Null when there is none.
   */
  private async imageText(uri: string, profile: DeliveryProfile, party: string): Promise<string | null> {
    const library = this.options.library;
    if (!library.ocrOn) return null;
    const known = await library.knownText(uri).catch(() => null);
    if (!known) {
      // Started now so the text is there when asked for; its failure is the text URI's to report.
      library.documentText(uri, uri, party).catch(() => undefined);
      return `Text in the image: OCR is reading it; its text will be at ${textUriOf(uri)} (read_resource with that URI).`;
    }
    const got = known.text;
    // One picture: its page marker and OCR note are said once, in the heading.
    const body = got.replace(/^--- Page 1 ---\n\[text recognised by OCR[^\]]*\]\n/, '').trim();
    if (body === '') return null;
    const budget = Math.min(profile.textBudget, OCR_TEXT_CHARS);
    const cut = body.length > budget ? `${body.slice(0, budget)}\n[… cut at ${n(budget)} characters; all of it is at ${textUriOf(uri)}]` : body;
    return `${OCR_HEADING}\n${cut}`;
  }

  /** A `resource_link` to the file itself, for clients that can attach it. */
  private addOriginal(result: CallToolResult, uri: string, rel: string, mimeType: string, size: number, profile: DeliveryProfile): void {
    if (!profile.links) return;
    result.content.push({ type: 'resource_link', uri, name: rel, title: path.posix.basename(rel), mimeType, ...(size ? { size } : {}) });
  }
}

function describeLines(page: Page): string {
  if (page.cutLine)
    return `line ${n(page.firstLine)} of ${n(page.totalLines)}, characters ${n(page.startColumn)}–${n((page.next?.column ?? page.startColumn) - 1)}`;
  if (page.startColumn > 1) {
    // Part of a line, then whole lines: "line 1 from character 50,001 through line 2 of 40".
    const from = `line ${n(page.firstLine)} from character ${n(page.startColumn)}`;
    return page.lastLine > page.firstLine ? `${from} through line ${n(page.lastLine)} of ${n(page.totalLines)}` : `${from} of ${n(page.totalLines)}`;
  }
  return page.lastLine > page.firstLine
    ? `lines ${n(page.firstLine)}–${n(page.lastLine)} of ${n(page.totalLines)}`
    : `line ${n(page.firstLine)} of ${n(page.totalLines)}`;
}

/** The note after a page: what it holds of the text, and the call that reads on. */
function pageNote(args: ReadToolArgs, page: Page, prefix: string | undefined, budgetCut: boolean): string {
  const parts: string[] = [];
  if (prefix) parts.push(prefix);
  if (page.totalLines === 0) {
    parts.push('The text is empty.');
    return parts.join(' ');
  }
  parts.push(`Showing ${describeLines(page)}${page.next === null && page.lastLine === page.totalLines ? ' (the end)' : ''}.`);
  if (page.next) {
    if (page.cutLine) parts.push(`Line ${n(page.firstLine)} is longer than the budget of characters a read gives.`);
    else if (budgetCut) parts.push('The read stopped at its budget of characters.');
    const keep = [args.limit !== undefined ? `limit ${args.limit}` : '', args.pages !== undefined ? `pages "${args.pages}"` : ''].filter(Boolean).join(' and ');
    const at = `offset ${page.next.offset}${page.next.column !== undefined ? ` and column ${page.next.column}` : ''}`;
    parts.push(`To read on, call read_resource with ${at}${keep ? ` (and the same ${keep})` : ''}.`);
  }
  return parts.join(' ');
}
