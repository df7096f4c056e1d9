import path from 'node:path';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import { Turns } from '../background/turns.js';
import { JobRefused, WorkerJobs } from '../background/workerJobs.js';
import { openCursor, sealCursor } from '../base/sealedCursor.js';
import { ShelfError } from '../base/shelfError.js';
import { documentKind, textKind } from '../documents/documentKinds.js';
import { realTargetAllowed } from '../library/folderScan.js';
import type { Library } from '../library/library.js';
import { binaryByName, typeFromName } from '../library/mediaType.js';
import type { PublishedFolder } from '../library/publishedFolder.js';
import { joinRel } from '../library/uriPath.js';
import { globMatcher } from './globMatcher.js';
import type { GrepEncoding, GrepItem, GrepItemResult, GrepLine, GrepReply, GrepRequest } from './grepWorker.js';

/**
 * grep over the published files: a regular expression (RE2 syntax, linear
 * time) line by line, with line numbers and context, over text files and
 * documents' text, in publish order and path order, a page at a time. The
 * matching runs in a worker (grepWorker.ts); the main thread walks the
 * names and checks where each matching file really is. A call is bounded in
 * matches, in characters of output, in bytes read and in time, and says
 * where to go on.
 */

export interface GrepQuery {
  pattern: string;
  ignoreCase?: boolean;
  /** Lines before and after each match. */
  context?: number;
  folder?: (root: string) => boolean;
  glob?: string;
  /** Folders left out (ask-before-read: their text reaches a client only through an allowed read). */
  skipFolder?: (root: string) => boolean;
  /** Just these files (the window greps the ones the search index left out). */
  only?: (folder: PublishedFolder, rel: string) => boolean;
  maxMatches?: number;
  /** Characters of matched and context lines at most (the client's text budget). */
  budget?: number;
  cursor?: string;
}

export interface GrepFile {
  /** The file (read_resource gives a document's text from it). */
  uri: string;
  folder: string;
  path: string;
  /** A document (PDF, Office): the matches are in its extracted text. */
  document: boolean;
  matches: GrepLine[];
}

export interface GrepPage {
  files: GrepFile[];
  matches: number;
  scannedFiles: number;
  scannedBytes: number;
  nextCursor?: string;
  /** Why the page ended before the last file: enough matches, the output budget, the bytes or the time a call may take. */
  stoppedBy?: 'matches' | 'budget' | 'bytes' | 'time';
  notSearched: string[];
}

export const DEFAULT_MATCHES = 50;
export const MAX_MATCHES = 500;
export const MAX_CONTEXT = 10;
export const MAX_PATTERN_CHARS = 1000;
/** Bytes a call reads at most; then it says where to go on. */
export const MAX_SCAN_BYTES = 256 * 1024 * 1024;
/** A call's time at most (it goes on from where it stopped). */
const MAX_CALL_MS = 15_000;
/** Files sent to the worker at once. */
const BATCH_FILES = 128;
/** Document text sent in one item at most (longer texts are searched up to here). */
const MAX_DOCUMENT_CHARS = 32 * 1024 * 1024;
/** grep calls at once (each takes turns in the one worker); as many again wait, more are told to try again. */
const MAX_RUNNING = 4;

/** Where a call stopped: in a file (its piece from `from`, matches from line `skip`), or after it. */
interface Position {
  folderId: number;
  rel: string;
  /** Resume inside this file; absent: start after it. */
  inside?: { from: number; line: number; skip?: number; encoding?: GrepEncoding };
  /** The query it belongs to (a cursor from another query is refused). */
  query: string;
}

/** A cursor is sealed (base/sealedCursor.ts): only one this process made for this query is taken back. */
function encodeCursor(p: Position): string {
  return sealCursor('grep', p.query, JSON.stringify(p));
}

function decodeCursor(cursor: string, query: string): Position {
  const opened = openCursor('grep', query, cursor);
  if (opened !== null) {
    try {
      const p = JSON.parse(opened) as Position;
      if (typeof p.folderId === 'number' && typeof p.rel === 'string' && p.query === query) return p;
    } catch {
      // a sealed payload is always ours and valid JSON; refused below all the same
    }
  }
  throw ShelfError.invalidParams('Invalid cursor: pass nextCursor from the previous grep_resources call, with the same pattern and filters');
}

/** Files grep reads: text by content, documents (and with OCR on, images) by their text; other images and archives by name are not read at all. */
function grepKind(rel: string, documentsOn: boolean, ocrOn: boolean): 'text' | 'document' | null {
  if (textKind(rel, ocrOn)) return documentsOn ? 'document' : null;
  if (binaryByName(rel)) return null;
  const type = typeFromName(rel);
  if (type && /^(image|audio|video|font)\//.test(type) && type !== 'image/svg+xml') return null;
  return 'text';
}

interface Pending {
  folder: PublishedFolder;
  rel: string;
  item: GrepItem;
  document: boolean;
}

export class Grep {
  private readonly jobs: WorkerJobs<GrepRequest, GrepReply>;
  private readonly turns = new Turns(MAX_RUNNING, MAX_RUNNING * 2, 'Too many grep searches are running; try again shortly');

  constructor(
    private readonly library: Library,
    workerFile: URL | string,
  ) {
    this.jobs = new WorkerJobs({ workerFile, timeoutMs: 20_000, maxQueued: MAX_RUNNING * 2, memoryMb: 512 });
  }

  async search(q: GrepQuery): Promise<GrepPage> {
    if (q.pattern.length > MAX_PATTERN_CHARS) throw ShelfError.invalidParams(`The pattern is longer than ${MAX_PATTERN_CHARS} characters`);
    return this.turns.run(() => this.run(q));
  }

  private async run(q: GrepQuery): Promise<GrepPage> {
    const started = Date.now();
    const queryKey = JSON.stringify([q.pattern, !!q.ignoreCase, q.glob ?? '']);
    const matchesGlob = q.glob ? globMatcher(q.glob) : null;
    const maxMatches = Math.min(q.maxMatches ?? DEFAULT_MATCHES, MAX_MATCHES);
    const context = Math.min(q.context ?? 0, MAX_CONTEXT);
    const budget = q.budget ?? Number.POSITIVE_INFINITY;
    const from = q.cursor ? decodeCursor(q.cursor, queryKey) : null;
    const folders = this.library.list().filter((f) => f.state !== 'missing' && f.state !== 'stopped' && (!q.folder || q.folder(f.root)));
    const notSearched = q.skipFolder ? folders.filter((f) => q.skipFolder?.(f.root)).map((f) => f.root) : [];
    const page: GrepPage = { files: [], matches: 0, scannedFiles: 0, scannedBytes: 0, notSearched };
    let used = 0;
    const documentsOn = this.library.documentsOn;
    const ocrOn = this.library.ocrOn;

    const walk = new FileWalk(folders, from, matchesGlob, q.skipFolder, q.only);
    const stopAt = (p: Pending, inside: Position['inside'] | undefined, why: GrepPage['stoppedBy']) => {
      page.nextCursor = encodeCursor({ folderId: p.folder.id, rel: p.rel, ...(inside ? { inside } : {}), query: queryKey });
      page.stoppedBy = why;
    };
    let resume: Pending | null = null;
    if (from?.inside) {
      // What the walk decides for each file is decided again for the one a cursor resumes in: its folder
      // may have begun to ask before each read since the cursor was made, or left the filter.
      const folder = folders.find((f) => f.id === from.folderId);
      const searchable =
        folder &&
        !q.skipFolder?.(folder.root) &&
        (!matchesGlob || matchesGlob(from.rel)) &&
        (!q.only || q.only(folder, from.rel)) &&
        grepKind(from.rel, documentsOn, ocrOn) &&
        folder.get(from.rel);
      if (folder && searchable) resume = await this.pending(folder, from.rel, from.inside);
    }
    let key = 0;
    const byKey = new Map<number, Pending>();

    for (;;) {
      // A batch: a file's next piece on its own, else up to BATCH_FILES files from the walk.
      const batch: Pending[] = [];
      if (resume) {
        batch.push(resume);
        resume = null;
      } else {
        // (A document's text may have to be extracted first: the call's time is checked between files too.)
        while (batch.length < BATCH_FILES && Date.now() - started <= MAX_CALL_MS) {
          const next = walk.next();
          if (!next) break;
          if (!grepKind(next.rel, documentsOn, ocrOn)) continue;
          const p = await this.pending(next.folder, next.rel);
          if (p) batch.push(p);
        }
      }
      if (batch.length === 0) {
        // Out of time before a batch was made (documents being extracted): the next file is where to go on.
        const left = Date.now() - started > MAX_CALL_MS ? walk.next() : null;
        if (left) {
          page.nextCursor = encodeCursor({ folderId: left.folder.id, rel: left.rel, inside: { from: 0, line: 1 }, query: queryKey });
          page.stoppedBy = 'time';
        }
        break;
      }
      for (const p of batch) {
        p.item.key = ++key;
        byKey.set(p.item.key, p);
      }
      let reply: GrepReply;
      try {
        reply = await this.jobs.run({
          pattern: q.pattern,
          ignoreCase: !!q.ignoreCase,
          context,
          maxMatches: maxMatches - page.matches,
          items: batch.map((p) => p.item),
        });
      } catch (err) {
        if (err instanceof JobRefused && err.reason === 'busy')
          throw new ShelfError(ErrorCodes.internalError, 'Too many searches are waiting; try again shortly');
        throw new ShelfError(ErrorCodes.internalError, `The search stopped: ${(err as Error).message}`);
      }
      if (!reply.ok)
        throw ShelfError.invalidParams(reply.message.startsWith('invalid pattern') ? `Invalid pattern: ${reply.message.slice(17)}` : reply.message);
      let stopped = false;
      for (const r of reply.results) {
        const p = byKey.get(r.key) as Pending;
        byKey.delete(r.key);
        page.scannedBytes += r.scanned;
        if (!r.skipped && !r.rest) page.scannedFiles++;
        // Lines of a file reached through a link that leads outside, or to an excluded file, never go out.
        const allowed = r.real === undefined || realTargetAllowed(p.folder.realRoot, p.folder.rules, joinRel(p.folder.realRoot, p.rel), r.real);
        if (allowed) {
          for (const m of r.matches) {
            const cost = lineCost(m);
            if (page.matches >= maxMatches || used + cost > budget) {
              stopAt(p, resumeAt(p, r, m.line), page.matches >= maxMatches ? 'matches' : 'budget');
              stopped = true;
              break;
            }
            used += cost;
            page.matches++;
            this.add(page, p, m);
          }
        }
        if (stopped) break;
        if (r.again) {
          stopAt(p, resumeAt(p, r, r.again.skipBefore), 'matches');
          stopped = true;
          break;
        }
        if (r.rest && allowed) {
          // The file goes on: its next piece comes next; what the batch searched after it waits its turn.
          const next: Pending = filePending(p.folder, p.rel, { from: r.rest.from, line: r.rest.line, encoding: r.rest.encoding }, r.rest.before);
          if (page.scannedBytes >= MAX_SCAN_BYTES || Date.now() - started > MAX_CALL_MS) {
            stopAt(next, { from: r.rest.from, line: r.rest.line, encoding: r.rest.encoding }, page.scannedBytes >= MAX_SCAN_BYTES ? 'bytes' : 'time');
            stopped = true;
            break;
          }
          const later = reply.results.slice(reply.results.indexOf(r) + 1);
          if (later.length > 0) {
            // Rare (a large file inside a batch of small ones): the later files are searched again after it.
            for (const l of later) byKey.delete(l.key);
            walk.putBack(batch.slice(batch.indexOf(p) + 1));
          }
          resume = next;
          break;
        }
      }
      if (stopped) break;
      if (!resume && (page.scannedBytes >= MAX_SCAN_BYTES || Date.now() - started > MAX_CALL_MS)) {
        const last = batch[batch.length - 1] as Pending;
        stopAt(last, undefined, page.scannedBytes >= MAX_SCAN_BYTES ? 'bytes' : 'time');
        break;
      }
    }
    return page;
  }

  /** What to send the worker for a file: a piece of it (from `inside`, else its start), or a document's text. */
  private async pending(folder: PublishedFolder, rel: string, inside?: Position['inside']): Promise<Pending | null> {
    if (grepKind(rel, this.library.documentsOn, this.library.ocrOn) !== 'document') return filePending(folder, rel, inside);
    try {
      // An image's text is grep'd once OCR has read it (the search index does, in the background): grep does
      // not start an OCR per image, seconds each.
      const known = documentKind(rel) ? null : await this.library.knownText(folder.uriOf(rel));
      if (!documentKind(rel) && !known) return null;
      const { text } = known ?? (await this.library.documentText(folder.uriOf(rel)));
      const item: GrepItem = { key: 0, text: text.length > MAX_DOCUMENT_CHARS ? text.slice(0, MAX_DOCUMENT_CHARS) : text, name: rel, firstLine: 1, before: [] };
      if (inside?.skip !== undefined) item.skipBefore = inside.skip;
      return { folder, rel, document: true, item };
    } catch {
      return null; // no text (a scan, encrypted…), or gone
    }
  }

  private add(page: GrepPage, p: Pending, m: GrepLine): void {
    const uri = p.folder.uriOf(p.rel);
    let file = page.files[page.files.length - 1];
    if (!file || file.uri !== uri) {
      file = { uri, folder: p.folder.root, path: p.rel, document: p.document, matches: [] };
      page.files.push(file);
    }
    file.matches.push(m);
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}

function filePending(folder: PublishedFolder, rel: string, inside?: Position['inside'], before: string[] = []): Pending {
  const item: GrepItem = {
    key: 0,
    path: joinRel(folder.realRoot, rel),
    name: path.posix.basename(rel),
    from: inside?.from ?? 0,
    firstLine: inside?.line ?? 1,
    before,
  };
  if (inside?.encoding) item.encoding = inside.encoding;
  if (inside?.skip !== undefined) item.skipBefore = inside.skip;
  return { folder, rel, document: false, item };
}

/** Where a call that stopped at line `skip` of a piece goes on: the same piece, matches from that line. */
function resumeAt(p: Pending, r: GrepItemResult, skip: number): NonNullable<Position['inside']> {
  const encoding = p.item.encoding ?? r.rest?.encoding ?? r.again?.encoding;
  return { from: p.item.from ?? 0, line: p.item.firstLine, skip, ...(encoding ? { encoding } : {}) };
}

/**
 * The files to search, in order (folders as published, paths sorted), from
 * a cursor on; files put back come first.
 */
class FileWalk {
  private readonly back: Array<{ folder: PublishedFolder; rel: string }> = [];
  private readonly iterator: Iterator<{ folder: PublishedFolder; rel: string }>;

  constructor(
    folders: PublishedFolder[],
    from: Position | null,
    glob: ((rel: string) => boolean) | null,
    skipFolder?: (root: string) => boolean,
    only?: (folder: PublishedFolder, rel: string) => boolean,
  ) {
    this.iterator = (function* () {
      for (const folder of folders) {
        if (skipFolder?.(folder.root) || (from && folder.id < from.folderId)) continue;
        // A cursor names the file it stopped in (or after): the walk goes on after it.
        const paths = from && folder.id === from.folderId ? folder.paths().after(from.rel) : folder.paths();
        for (const rel of paths) if ((!glob || glob(rel)) && (!only || only(folder, rel))) yield { folder, rel };
      }
    })();
  }

  next(): { folder: PublishedFolder; rel: string } | null {
    const back = this.back.shift();
    if (back) return back;
    const step = this.iterator.next();
    return step.done ? null : step.value;
  }

  putBack(files: Array<{ folder: PublishedFolder; rel: string }>): void {
    this.back.unshift(...files.map((f) => ({ folder: f.folder, rel: f.rel })));
  }
}

/** Characters a match costs in the output: its line and its context. */
function lineCost(m: GrepLine): number {
  let n = m.text.length + 12;
  for (const l of m.before ?? []) n += l.length + 12;
  for (const l of m.after ?? []) n += l.length + 12;
  return n;
}
