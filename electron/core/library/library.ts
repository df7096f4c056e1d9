import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

import { LIST_PAGE_SIZE } from '../../../shared/limits.js';
import type { ResourceInfo } from '../../../shared/shelfApi.js';

export type { ResourceInfo };
import { fileUriOfText, textUriOf } from '../../../shared/documentUris.js';
import { ShelfError } from '../base/shelfError.js';
import { type ReplyCharge, replyCost } from '../clientMemory/memoryBudget.js';
import { type DocumentKind, textKind } from '../documents/documentKinds.js';
import { type DocumentText, type DocumentTextResult } from '../documents/documentText.js';
import type { FileStream } from './fileStream.js';
import type { FileEntry } from './folderScan.js';
import { ListingJson, type PageJson } from './listingJson.js';
import { type MissingReason, whyMissing } from './missingReason.js';
import { type FolderChange, PublishedFolder } from './publishedFolder.js';
import { ReadCache } from './readCache.js';
import { completePath, documentKey, type ListedResource, listPage, type ResourceTemplateInfo, templateOf } from './resourceListing.js';
import type { RuleOptions } from './rules.js';
import { openPublished, openRead, readBytes, type ReadOutcome, safeRead, type WholeRead } from './safeRead.js';
import { relativeBelow, uriToPath } from './uriPath.js';

export interface LibraryListener {
  /** Files came or went (in any folder). */
  listChanged?(): void;
  /** These resources changed content, or were deleted. */
  updated?(uris: readonly string[]): void;
  /** A folder's state changed (missing, back, polling…), with a message for logs. */
  folderState?(folder: PublishedFolder, message: string): void;
  /** A folder's sizes are all read after its full index (its total is final). */
  folderSized?(folder: PublishedFolder): void;
  /** Which files of a folder came, changed or went (its first index arrives as all added). */
  filesChanged?(folder: PublishedFolder, change: FolderChange): void;
  /** A folder stopped being published (removed, or replaced to apply new rules). */
  folderRemoved?(folder: PublishedFolder): void;
  /** A folder was removed for good (not replaced): what was kept of its files may go. */
  folderUnpublished?(folder: PublishedFolder): void;
}

export interface LibraryOptions {
  maxReadBytes: number;
  /** Document text (PDF, Office): companion `…?as=text` resources. Off when absent. */
  documents?: DocumentText | null;
  /** The largest document whose text is extracted. */
  maxDocumentBytes?: number;
  /** True while clients keep sending requests: folders' background work yields to them. */
  clientsBusy?: () => boolean;
}

const DEFAULT_MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;

/** URIs whose mapped path is remembered; the map starts over when full. */
const URI_CACHE_SIZE = 4096;

/**
 * Every published folder, behind one interface the MCP servers share: list,
 * resolve and read by URI, and change notifications.
 */
export class Library {
  private readonly folders: PublishedFolder[] = [];
  private readonly listeners = new Set<LibraryListener>();
  private readonly listingJson = new ListingJson();
  private nextId = 1;
  private readonly uriPaths = new Map<string, string | null>();
  // MCP_SHELF_NO_READ_CACHE=1 turns the reply cache off (the benchmark measures both).
  private readonly cache = process.env.MCP_SHELF_NO_READ_CACHE === '1' ? undefined : new ReadCache();

  constructor(public options: LibraryOptions) {}

  subscribe(listener: LibraryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): readonly PublishedFolder[] {
    return this.folders;
  }

  /**
   * Publishes a folder and resolves once it is indexed. The path must be an
   * existing directory, unless `allowMissing` (a saved folder that is gone
   * for now: it is shown as missing and picked up when it comes back).
   * Publishing the same folder twice is refused.
   */
  async add(folderPath: string, rules: RuleOptions, opts: { allowMissing?: boolean } = {}): Promise<PublishedFolder> {
    const abs = path.resolve(folderPath);
    if (this.folders.some((f) => f.root === abs)) throw new Error(`Already published: ${abs}`);
    // Placed before the first await: folders added together (and indexed in
    // parallel) keep the order they were given in.
    const folder = this.createFolder(this.nextId++, abs, rules);
    this.folders.push(folder);
    if (!opts.allowMissing) {
      try {
        await assertFolder(abs);
      } catch (err) {
        this.folders.splice(this.folders.indexOf(folder), 1);
        throw err;
      }
    }
    await this.startFolder(folder, opts.allowMissing ?? false);
    return folder;
  }

  /** Applies new rules to a published folder, keeping its place in the listing order. */
  async reconfigure(folderPath: string, rules: RuleOptions): Promise<PublishedFolder> {
    const abs = path.resolve(folderPath);
    const i = this.folders.findIndex((f) => f.root === abs);
    const old = this.folders[i];
    if (!old) throw new Error(`Not published: ${abs}`);
    await old.stop();
    this.emit((l) => l.folderRemoved?.(old));
    const folder = this.createFolder(old.id, abs, rules);
    this.folders[i] = folder;
    await this.startFolder(folder, true);
    this.emit((l) => l.listChanged?.());
    return folder;
  }

  private createFolder(id: number, abs: string, rules: RuleOptions): PublishedFolder {
    return new PublishedFolder(
      id,
      abs,
      rules,
      {
        onChange: (f, change) => this.onFolderChange(f, change),
        onState: (f, message) => this.emit((l) => l.folderState?.(f, message)),
        onSized: (f) => this.emit((l) => l.folderSized?.(f)),
      },
      () => this.options.clientsBusy?.() ?? false,
    );
  }

  private async startFolder(folder: PublishedFolder, allowMissing: boolean): Promise<void> {
    try {
      if (allowMissing) await folder.open();
      else await folder.start();
    } catch (err) {
      this.folders.splice(this.folders.indexOf(folder), 1);
      await folder.stop();
      throw err;
    }
    if (folder.fileCount > 0) this.emit((l) => l.listChanged?.());
  }

  async remove(folderPath: string): Promise<boolean> {
    const abs = path.resolve(folderPath);
    const i = this.folders.findIndex((f) => f.root === abs);
    if (i < 0) return false;
    const [folder] = this.folders.splice(i, 1);
    await folder?.stop();
    if (folder) {
      this.emit((l) => l.folderRemoved?.(folder));
      this.emit((l) => l.folderUnpublished?.(folder));
    }
    this.emit((l) => l.listChanged?.());
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.folders.splice(0).map((f) => f.stop()));
  }

  /** One page of resources after `cursor` (see listPage). */
  listResources(
    cursor?: string,
    pageSize = LIST_PAGE_SIZE,
    onlyFolder?: string,
    accept?: (folder: PublishedFolder, rel: string) => boolean,
    companions = true,
    fits?: (entries: readonly ListedResource[]) => boolean,
  ): { resources: ListedResource[]; nextCursor?: string } {
    return listPage(this.folders, companions ? (this.options.documents ?? null) : null, { cursor, pageSize, onlyFolder, accept, fits });
  }

  /** resources/list's page after `cursor` as JSON (see ListingJson): what listResources gives, made once per version. */
  listResourcesJson(cursor?: string): PageJson {
    return this.listingJson.page(this.folders, this.options.documents ?? null, cursor, LIST_PAGE_SIZE);
  }

  /**
   * The published file a URI names, or null: unknown, outside, hidden,
   * ignored and deleted look the same. Folders do not nest, but should two
   * overlap (a saved folder back at a new place), the most specific wins.
   */
  resolve(uri: string): { folder: PublishedFolder; entry: FileEntry } | null {
    const p = this.pathOf(uri);
    if (p === null) return null;
    let found: { folder: PublishedFolder; entry: FileEntry } | null = null;
    let depth = -1;
    for (const folder of this.folders) {
      if (folder.state === 'missing' || folder.state === 'stopped') continue;
      const roots = folder.realRoot === folder.root ? [folder.root] : [folder.realRoot, folder.root];
      for (const root of roots) {
        // Only a longer root can be more specific than one found: the rest cost a length check.
        if (root.length <= depth) continue;
        const rel = relativeBelow(root, p);
        const entry = rel === null ? undefined : folder.get(rel);
        if (entry) {
          found = { folder, entry };
          depth = root.length;
        }
      }
    }
    return found;
  }

  /**
   * Why a URI names no published file, for the owner (History and Traffic):
   * see whyMissing. Only called for failed reads.
   */
  explainMissing(uri: string): MissingReason {
    const p = this.pathOf(fileUriOfText(uri) ?? uri);
    return p === null ? 'invalid' : whyMissing(this.folders, p);
  }

  /** uriToPath is pure, and clients read the same URIs again and again: its answers are kept (bounded). */
  private pathOf(uri: string): string | null {
    let p = this.uriPaths.get(uri);
    if (p === undefined) {
      p = uriToPath(uri);
      if (this.uriPaths.size >= URI_CACHE_SIZE) this.uriPaths.clear();
      this.uriPaths.set(uri, p);
    }
    return p;
  }

  /**
   * The published file a URI names, also while its folder is still being
   * indexed (looked at on disk under the same rules), so reads by URI work
   * from the first moment at any folder size.
   */
  async locate(uri: string): Promise<{ folder: PublishedFolder; entry: FileEntry } | null> {
    const found = this.resolve(uri);
    if (found || !this.indexing) return found;
    const p = this.pathOf(uri);
    if (p === null) return null;
    for (const folder of this.folders) {
      if (folder.state !== 'indexing') continue;
      const rel = relativeBelow(folder.realRoot, p);
      const entry = rel === null ? null : await folder.examineWhileIndexing(rel);
      if (entry) return { folder, entry };
    }
    return null;
  }

  /**
   * `background` for walks over many files (search): they must not push out
   * of the cache what clients read again and again, and never read
   * synchronously. `limit` replaces maxReadBytes (the tools page what they
   * read, so one message's limit is not theirs).
   */
  async read(uri: string, options: { background?: boolean; limit?: number; charge?: ReplyCharge; party?: string } = {}): Promise<ReadOutcome> {
    const fileUri = fileUriOfText(uri);
    if (fileUri !== null) return this.readText(uri, fileUri, options.charge, options.party);
    const found = await this.locate(uri);
    if (!found) throw ShelfError.notFound(uri);
    const background = options.background ?? false;
    return safeRead(
      found.folder,
      found.entry.rel,
      uri,
      options.limit ?? this.options.maxReadBytes,
      background ? undefined : this.cache,
      background,
      options.charge,
    );
  }

  /** True while any published folder is still being indexed (its listing is not complete yet). */
  get indexing(): boolean {
    return this.folders.some((f) => f.state === 'indexing');
  }

  /**
   * Like read, but a large file comes back as a stream of reply pieces (see
   * openRead); the caller closes it. Says which folder it read from.
   */
  async openRead(uri: string, charge?: ReplyCharge): Promise<(WholeRead | { stream: FileStream }) & { folder?: string }> {
    const fileUri = fileUriOfText(uri);
    if (fileUri !== null) return { whole: await this.readText(uri, fileUri, charge) };
    // Found in the index: no trip through locate's promise (which looks on disk only while indexing).
    const found = this.resolve(uri) ?? (this.indexing ? await this.locate(uri) : null);
    if (!found) throw ShelfError.notFound(uri);
    const opened: (WholeRead | { stream: FileStream }) & { folder?: string } = await openRead(
      found.folder,
      found.entry.rel,
      uri,
      this.options.maxReadBytes,
      this.cache,
      charge,
    );
    opened.folder = found.folder.root; // a fresh object each read (the cached reply is inside it)
    return opened;
  }

  /**
   * A document's text, as the companion resource `uri` (= `fileUri?as=text`):
   * extracted off the main thread on first read, then kept while the file is
   * unchanged. Not a document, not published, or documents off: not found.
   */
  private async readText(uri: string, fileUri: string, charge?: ReplyCharge, party = ''): Promise<ReadOutcome> {
    const { text } = await this.documentText(fileUri, uri, party);
    const size = Buffer.byteLength(text);
    if (size > this.options.maxReadBytes) throw ShelfError.tooLarge(uri, size, this.options.maxReadBytes);
    // The text is kept by the documents' cache; the reply's copies of it are the client's.
    charge?.(replyCost(size), 'this read');
    return { contents: { uri, mimeType: 'text/plain', text }, size, kind: 'text' };
  }

  /**
   * The text of the document `fileUri` names, whatever its length (the tools
   * page it; a resource read is held to maxReadBytes). Errors name `uri`
   * (the companion text URI, or the file's). Not a document, not published,
   * or documents off: not found.
   */
  async documentText(fileUri: string, uri = fileUri, party = ''): Promise<DocumentTextResult & { kind: DocumentKind; key: string }> {
    const documents = this.options.documents;
    const found = documents ? await this.locate(fileUri) : null;
    const kind = found ? this.textKindOf(found.entry.rel) : null;
    if (!documents || !found || !kind) throw ShelfError.notFound(uri);
    const { folder, entry } = found;
    const limit = this.options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    const key = documentKey(folder, entry);
    const result = await documents.text(uri, key, kind, () => readBytes(folder, entry.rel, fileUri, limit), party);
    return { ...result, kind, key };
  }

  /** The kind of text a file has: a document's, or with OCR on an image's (null: none, or documents off). */
  textKindOf(rel: string): DocumentKind | null {
    const documents = this.options.documents;
    return documents ? textKind(rel, documents.ocrOn) : null;
  }

  /**
   * A document's text if it is known already (extracted this run, or kept
   * on disk), without extracting it: for work that may not start an OCR per
   * file (grep over a folder of photos). Null otherwise.
   */
  async knownText(fileUri: string): Promise<DocumentTextResult | null> {
    const documents = this.options.documents;
    const found = documents ? await this.locate(fileUri) : null;
    const kind = found ? this.textKindOf(found.entry.rel) : null;
    if (!documents || !found || !kind) return null;
    return documents.known(documentKey(found.folder, found.entry));
  }

  /** Whether images have text (OCR is on). */
  get ocrOn(): boolean {
    return this.options.documents?.ocrOn ?? false;
  }

  /** Whether document text is on (the tools then give a document's text instead of its bytes). */
  get documentsOn(): boolean {
    return !!this.options.documents;
  }

  /** A published file opened for reading a part at a time (no read limit; the caller closes `fd`). */
  async openFile(uri: string): Promise<{ folder: PublishedFolder; entry: FileEntry; fd: number; stat: Stats }> {
    const found = await this.locate(uri);
    if (!found) throw ShelfError.notFound(uri);
    return { ...found, ...openPublished(found.folder, found.entry.rel, uri) };
  }

  /** One template per folder, addressing its files by relative path. */
  templates(): ResourceTemplateInfo[] {
    return this.folders.map(templateOf);
  }

  /** Paths in the template's folder that start with `value` (then those containing it). */
  complete(templateUri: string, value: string): { values: string[]; total: number; hasMore: boolean } {
    const folder = this.folders[this.templates().findIndex((t) => t.uriTemplate === templateUri)];
    if (!folder) throw ShelfError.invalidParams(`Unknown resource template: ${templateUri}`);
    return completePath(folder, value);
  }

  private onFolderChange(folder: PublishedFolder, change: FolderChange): void {
    this.emit((l) => l.filesChanged?.(folder, change));
    if (change.added.length > 0 || change.removed.length > 0) this.emit((l) => l.listChanged?.());
    const touched = [...change.changed, ...change.removed];
    if (touched.length > 0) {
      const uris = touched.map((rel) => folder.uriOf(rel));
      // A document's text changes with it.
      if (this.options.documents) for (const rel of touched) if (this.textKindOf(rel)) uris.push(textUriOf(folder.uriOf(rel)));
      this.cache?.forget(uris);
      this.emit((l) => l.updated?.(uris));
    }
  }

  private emit(fn: (l: LibraryListener) => void): void {
    for (const l of this.listeners) {
      try {
        fn(l);
      } catch {
        // one listener's failure must not stop the others
      }
    }
  }
}

/**
 * Why a path cannot be published as a folder, or null when it can: the one
 * check behind the command line, the window's "Add folder" and the library.
 */
export async function folderProblem(abs: string): Promise<string | null> {
  const st = await stat(abs).catch(() => null);
  if (!st) return 'Folder not found';
  if (!st.isDirectory()) return 'Not a folder (files cannot be published alone)';
  return null;
}

async function assertFolder(abs: string): Promise<void> {
  const problem = await folderProblem(abs);
  if (problem) throw new Error(`${problem}: ${abs}`);
}
