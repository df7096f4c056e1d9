import { setImmediate as yieldToClients } from 'node:timers/promises';

import { textUriOf } from '../../../shared/documentUris.js';
import type { NotIndexedReason, SearchHit, SearchResults } from '../../../shared/shelfApi.js';
import { collectAfterBigJob } from '../background/collectAfterBigJob.js';
import { nextSlice } from '../background/nextSlice.js';
import { Turns } from '../background/turns.js';
import type { Library } from '../library/library.js';
import type { FolderChange, PublishedFolder } from '../library/publishedFolder.js';
import { globMatcher } from './globMatcher.js';
import { InvertedIndex, type SweepOptions } from './invertedIndex.js';
import { hasPhrases, type ParsedQuery, parseQuery, snippetOf } from './searchQuery.js';
import { SkippedFiles } from './skippedFiles.js';

export type { SearchHit };

/**
 * Ranked full-text search over the published text: text files and the text
 * of documents (PDF, Office). The inverted index (BM25, pure JavaScript, so
 * it runs the same in Node and Electron) holds the terms, not the text; it
 * follows the library's changes file by file, and builds in slices of a few
 * milliseconds so serving never waits for it.
 */

/** A page of results: the window's SearchResults, the one shape both the tool and the window read. */
export type SearchPage = SearchResults;

export interface SearchOptions {
  folder?: (root: string) => boolean;
  glob?: string;
  limit?: number;
  cursor?: string;
  /** Folders whose files must not be searched (ask-before-read). */
  skipFolder?: (root: string) => boolean;
}

interface Stored {
  folderId: number;
  rel: string;
}

/** Files over this are not indexed (logs and data dumps; they can still be read). */
export const MAX_INDEXED_BYTES = 2 * 1024 * 1024;
/**
 * Files the index holds at most: its memory is bounded like every other
 * store's (some 300 bytes a file plus its words: a million small files
 * took 300 MiB beside the 400 the folder's own index needs). Past it, new
 * files are not indexed — a file left out gets in when it changes while
 * there is room — and searches say the index is full.
 */
export const MAX_SEARCH_FILES = 250_000;
/** A page of hits at most; phrase checks look at most this many ranked matches per page. */
const MAX_LIMIT = 100;
const MAX_CHECKED = 1000;
/**
 * Bytes of files a page reads at most for phrase checks and snippets: a
 * phrase query over 300 files of a megabyte read and lowercased 300 MB.
 * Past it the page ends early and its cursor goes on from there.
 */
export const MAX_CHECKED_BYTES = 32 * 1024 * 1024;
/** Work between yields while a page reads and checks its files: other clients' requests go first. */
const CHECK_SLICE_MS = 4;
/** Searches running at once (each reads files); more wait, and past MAX_WAITING are told to try again. */
const MAX_RUNNING = 2;
const MAX_WAITING = 16;

const key = (folderId: number, rel: string) => `${folderId}\u0000${rel}`;
/**
 * A change this large (a folder's first index, a .gitignore that let many
 * files in) is indexed by walking the folder's paths in order rather than
 * queued path by path: a million queued keys cost some 100 MiB.
 */
const WALK_FROM = 5000;
/** Paths taken from a walk at a time. */
const WALK_STEP = 256;
/** Postings a sweep step looks at (0.2–0.5 ms on a busy machine: BENCHMARKS.md); a slice's time left after its files goes to sweeping. */
const SWEEP_STEP = 32_768;

export class SearchIndex {
  private readonly index: InvertedIndex;
  /** Indexed documents by id (folder id + path), for results and removal. */
  private readonly docs = new Map<string, Stored>();
  /** Files waiting to be (re)indexed, in order; a set, so a file changed twice is indexed once. */
  private readonly queue = new Set<string>();
  /**
   * Taken from, not restarted (V8 leaves deleted entries as holes that a
   * fresh iterator skips one by one: taking the first entry again and
   * again grew quadratic over a big queue). Live: entries added later are
   * reached too.
   */
  private queueIterator: Iterator<string> | null = null;
  /** Folders being walked in path order: the last path taken, and about how many are left. */
  private readonly walks = new Map<number, { after: string | null; left: number }>();
  /** Paths a walk step took, still to index. */
  private walkBatch: string[] = [];
  /** Paths taken from walks since they last all ended. */
  private walked = 0;
  /**
   * Images whose text OCR has not read yet, in order: read one at a time
   * beside the index (seconds each, in the OCR worker), so they never hold up
   * the text files and documents after them; each is indexed when its text comes.
   */
  private readonly ocrWaiting = new Set<string>();
  private ocrRunning = false;
  private working = false;
  /** The file a slice is reading now: taken off its queue, not yet in the index, still pending. */
  private reading = 0;
  private stopped = false;
  private readonly unsubscribe: () => void;
  /** Called after each slice (the window shows the progress). */
  progress: (() => void) | null = null;

  /** Files not indexed because the index was full. */
  private leftOut = 0;
  /** Which files were left out and why (the window names them; grep can look in just those). */
  readonly skipped = new SkippedFiles();
  /** Searches reading files at once; more wait (see MAX_RUNNING). */
  private readonly turns = new Turns(MAX_RUNNING, MAX_WAITING, 'Too many searches are running; try again shortly');

  constructor(
    private readonly library: Library,
    /** True while clients keep sending requests: indexing then takes small slices, seldom (see nextSlice). */
    private readonly clientsBusy: () => boolean = () => false,
    readonly maxFiles = MAX_SEARCH_FILES,
    /** When the index sweeps removed files' postings (tests make it sweep after a few). */
    sweep?: SweepOptions,
  ) {
    this.index = new InvertedIndex(sweep);
    this.unsubscribe = library.subscribe({
      filesChanged: (folder, change) => this.changed(folder, change),
      folderRemoved: (folder) => this.dropFolder(folder.id),
    });
    for (const f of library.list()) this.walk(f);
    this.schedule();
  }

  get pending(): number {
    let n = this.queue.size + this.walkBatch.length + this.reading + this.ocrWaiting.size + (this.ocrRunning ? 1 : 0);
    for (const w of this.walks.values()) n += Math.max(0, w.left);
    return n;
  }

  /**
   * Indexes every folder again, in the background (already-indexed files
   * are replaced): after what has text changed (OCR turned on or off).
   */
  reindexAll(): void {
    for (const f of this.library.list()) this.walk(f);
    this.schedule();
  }

  /** Indexes every file of `folder`, in path order, from the start. */
  private walk(folder: PublishedFolder): void {
    if (folder.fileCount === 0) return;
    this.walks.set(folder.id, { after: null, left: folder.fileCount });
  }

  /** The next file to index: a queued change first, then the next path of a walk. */
  private next(): string | null {
    if (this.queue.size > 0) {
      let step = this.queueIterator?.next();
      if (!step || step.done) {
        this.queueIterator = this.queue.values();
        step = this.queueIterator.next();
      }
      if (!step.done) {
        this.queue.delete(step.value);
        return step.value;
      }
    }
    if (this.walkBatch.length === 0) this.fillWalkBatch();
    return this.walkBatch.pop() ?? null;
  }

  private fillWalkBatch(): void {
    for (const [folderId, w] of this.walks) {
      const folder = this.library.list().find((f) => f.id === folderId);
      if (!folder) {
        this.walks.delete(folderId);
        continue;
      }
      const paths = w.after === null ? folder.paths()[Symbol.iterator]() : folder.paths().after(w.after);
      const taken: string[] = [];
      for (let step = paths.next(); !step.done && taken.length < WALK_STEP; step = paths.next()) taken.push(step.value);
      if (taken.length < WALK_STEP) this.walks.delete(folderId);
      if (taken.length === 0) continue;
      w.after = taken[taken.length - 1] as string;
      w.left -= taken.length;
      this.walked += taken.length;
      this.walkBatch = taken.reverse().map((rel) => key(folderId, rel)); // popped from the end: in path order
      return;
    }
  }

  /** Whether the index is still sweeping away removed files' postings (in the slices, like the files). */
  get sweeping(): boolean {
    return this.index.compacting;
  }

  get indexed(): number {
    return this.docs.size;
  }

  /** Whether files were left out because the index holds its most. */
  get full(): boolean {
    return this.leftOut > 0;
  }

  private changed(folder: PublishedFolder, change: FolderChange): void {
    for (const rel of change.removed) this.drop(key(folder.id, rel));
    if (change.added.length + change.changed.length >= WALK_FROM) this.walk(folder);
    else for (const rel of [...change.added, ...change.changed]) this.queue.add(key(folder.id, rel));
    this.schedule();
  }

  /** The next waiting image to OCR, one at a time; its text is indexed when it comes. */
  private nextOcr(): void {
    while (!this.ocrRunning && !this.stopped) {
      const id = this.ocrWaiting.values().next().value;
      if (id === undefined) return;
      this.ocrWaiting.delete(id);
      const [folderIdText, rel] = id.split('\u0000') as [string, string];
      const folder = this.library.list().find((f) => f.id === Number(folderIdText));
      if (!folder?.get(rel) || this.library.textKindOf(rel) !== 'image') continue; // gone, or OCR turned off
      this.ocrRunning = true;
      void this.library
        .documentText(folder.uriOf(rel))
        .then(
          ({ text }) => {
            const entry = folder.get(rel);
            if (this.stopped || !entry || (this.docs.size >= this.maxFiles && !this.docs.has(id))) return;
            this.index.add(id, text, rel);
            this.docs.set(id, { folderId: folder.id, rel: entry.rel });
          },
          () => this.drop(id), // no words in it (a photo), or unreadable: nothing to find
        )
        .finally(() => {
          this.ocrRunning = false;
          this.progress?.();
          this.schedule(); // a drop may have started a sweep
          this.nextOcr();
        });
    }
  }

  private drop(id: string): void {
    this.skipped.clear(id);
    this.queue.delete(id);
    this.ocrWaiting.delete(id);
    if (this.docs.delete(id)) this.index.remove(id);
  }

  private dropFolder(folderId: number): void {
    this.skipped.clearFolder(folderId);
    this.walks.delete(folderId);
    const prefix = `${folderId}\u0000`;
    this.walkBatch = this.walkBatch.filter((id) => !id.startsWith(prefix));
    for (const id of [...this.queue]) if (id.startsWith(prefix)) this.queue.delete(id);
    for (const id of [...this.ocrWaiting]) if (id.startsWith(prefix)) this.ocrWaiting.delete(id);
    for (const [id, d] of [...this.docs]) if (d.folderId === folderId) this.drop(id);
    this.schedule(); // the sweep of its postings
  }

  private schedule(): void {
    const idle = this.queue.size === 0 && this.walks.size === 0 && this.walkBatch.length === 0 && !this.index.compacting;
    if (this.working || this.stopped || idle) return;
    this.working = true;
    nextSlice(this.clientsBusy, (ms) => void this.slice(ms));
  }

  /** Indexes queued files for about `ms`, then sweeps what removed files left in the index, then yields. */
  private async slice(ms: number): Promise<void> {
    const until = performance.now() + ms;
    try {
      while (!this.stopped && performance.now() < until) {
        const next = this.next();
        if (next === null) break;
        this.reading = 1;
        try {
          await this.indexOne(next);
        } finally {
          this.reading = 0;
        }
      }
      while (!this.stopped && this.index.compacting && performance.now() < until) this.index.compactStep(SWEEP_STEP);
    } finally {
      this.working = false;
    }
    if (this.walked > 0 && this.walks.size === 0 && this.walkBatch.length === 0) {
      collectAfterBigJob(this.walked); // a big first index leaves much behind that V8 would keep
      this.walked = 0;
    }
    this.progress?.();
    this.schedule();
  }

  private async indexOne(id: string): Promise<void> {
    this.skipped.clear(id); // left out before, maybe not now: each way out below says so again
    const [folderIdText, rel] = id.split('\u0000') as [string, string];
    const folder = this.library.list().find((f) => f.id === Number(folderIdText));
    const entry = folder?.get(rel);
    if (!folder || !entry) return this.drop(id);
    const fileUri = folder.uriOf(rel);
    const kind = this.library.textKindOf(rel);
    const document = kind !== null;
    if (!document && entry.size > MAX_INDEXED_BYTES) return this.leave(id, 'too-big');
    if (this.docs.size >= this.maxFiles && !this.docs.has(id)) {
      this.leftOut++;
      return this.skipped.note(id, 'full');
    }
    if (kind === 'image') {
      // Read by OCR before (this run, or kept on disk): indexed now; else OCR reads it beside the index.
      const known = await this.library.knownText(fileUri);
      if (known) {
        this.index.add(id, known.text, rel);
        this.docs.set(id, { folderId: folder.id, rel: entry.rel });
      } else {
        this.ocrWaiting.add(id);
        this.nextOcr();
      }
      return;
    }
    let text: string;
    try {
      // Not through the reply cache: a walk over every file must not push out what clients read.
      const read = await this.library.read(document ? textUriOf(fileUri) : fileUri, { background: true });
      if (!('text' in read.contents)) return this.leave(id, 'binary');
      text = read.contents.text;
    } catch {
      // Gone (the next change drops it), unreadable, or a document without text.
      return this.leave(id, 'unreadable');
    }
    // The path's words count too (boosted): "invoice" finds invoices/2024.pdf.
    this.index.add(id, text, rel);
    this.docs.set(id, { folderId: folder.id, rel: entry.rel }); // the index entry's string, not a copy
  }

  /** Out of the index, and why (see SkippedFiles). */
  private leave(id: string, reason: NotIndexedReason): void {
    this.drop(id);
    this.skipped.note(id, reason);
  }

  /**
   * Ranked hits, best first, a page at a time. A phrase's words are found by
   * the index and the phrase itself checked in the file's text, which also
   * gives the snippet. Files are read asynchronously and the work yields
   * every few milliseconds, so other clients are answered meanwhile; a page
   * reads at most MAX_CHECKED_BYTES, and at most MAX_RUNNING searches read
   * at once.
   */
  async search(input: string, options: SearchOptions = {}): Promise<SearchPage> {
    const q: ParsedQuery = parseQuery(input);
    const limit = Math.max(1, Math.min(options.limit ?? 20, MAX_LIMIT));
    const offset = options.cursor ? Math.max(0, Number.parseInt(Buffer.from(options.cursor, 'base64url').toString('utf8'), 10) || 0) : 0;
    const notSearched = options.skipFolder
      ? this.library
          .list()
          .map((f) => f.root)
          .filter(options.skipFolder)
      : [];
    const status = { pending: this.pending, indexed: this.docs.size, notSearched, full: this.full };
    if (q.terms.length === 0) return { hits: [], total: 0, ...status };
    const glob = options.glob ? globMatcher(options.glob) : null;
    return this.turns.run(async () => {
      const folders = new Map(this.library.list().map((f) => [f.id, f]));
      const parts = [...q.words.map((term) => ({ term, prefix: false })), ...q.prefixes.map((term) => ({ term, prefix: true }))];
      // Folders decide most filters once, not per hit: only a glob, or some folders in and some out, needs each hit's key.
      const searched = new Set(
        [...folders.values()].filter((f) => (!options.folder || options.folder(f.root)) && !options.skipFolder?.(f.root)).map((f) => f.id),
      );
      const everyFolder = searched.size === folders.size;
      const accept =
        everyFolder && !glob
          ? null
          : (id: string) => {
              const d = this.docs.get(id);
              return d !== undefined && searched.has(d.folderId) && (!glob || glob(d.rel));
            };
      // A page needs its own hits; a phrase page checks up to MAX_CHECKED of them in the files.
      const top = searched.size === 0 ? null : this.index.top(parts, q.phrases.length > 0 ? MAX_CHECKED : limit, { offset, accept });
      const ranked = top?.hits ?? [];
      const total = top?.total ?? 0;
      const hits: SearchHit[] = [];
      let i = 0;
      let bytes = 0;
      let sliceEnd = performance.now() + CHECK_SLICE_MS;
      for (; i < ranked.length && hits.length < limit && i < MAX_CHECKED && bytes < MAX_CHECKED_BYTES; i++) {
        if (performance.now() > sliceEnd) {
          await yieldToClients();
          sliceEnd = performance.now() + CHECK_SLICE_MS;
        }
        const r = ranked[i] as (typeof ranked)[number];
        const d = this.docs.get(r.key);
        const folder = d ? folders.get(d.folderId) : undefined;
        if (!d || !folder) continue; // removed while this search waited
        const fileUri = folder.uriOf(d.rel);
        const uri = this.library.textKindOf(d.rel) ? textUriOf(fileUri) : fileUri;
        let text: string;
        try {
          const read = await this.library.read(uri, { background: true });
          text = 'text' in read.contents ? read.contents.text : '';
          bytes += read.size;
        } catch {
          continue; // gone since it was indexed
        }
        if (!hasPhrases(text, q.phrases)) continue;
        const where = snippetOf(text, q) ?? { line: 1, snippet: '' };
        hits.push({ uri, fileUri, folder: folder.root, path: d.rel, score: Math.round(r.score * 100) / 100, ...where });
      }
      const next = offset + i;
      return {
        hits,
        total,
        ...(next < total ? { nextCursor: Buffer.from(String(next)).toString('base64url') } : {}),
        ...status,
        ...(top?.partial ? { partial: true } : {}),
      };
    });
  }

  close(): void {
    this.stopped = true;
    this.unsubscribe();
    this.queue.clear();
    this.ocrWaiting.clear();
    this.walks.clear();
    this.walkBatch = [];
  }
}
