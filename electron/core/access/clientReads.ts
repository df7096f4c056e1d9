import { fileUriOfText } from '../../../shared/documentUris.js';
import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { AccessEntry } from '../../../shared/shelfApi.js';
import type { FileStream } from '../library/fileStream.js';
import type { Library } from '../library/library.js';
import type { ReadOutcome, WholeRead } from '../library/safeRead.js';
import type { SearchIndex } from '../search/searchIndex.js';
import type { AskGate, Requester } from './askGate.js';
import type { HistoryStore } from './historyStore.js';

export type { Requester };

export interface ClientReadsOptions {
  history?: HistoryStore | null;
  gate?: AskGate;
  /** Whether the published folder at this root asks before each read. */
  asks?: (folderRoot: string) => boolean;
  /** Whether any folder asks (checked first, so reads elsewhere skip the lookup). */
  anyAsks?: () => boolean;
  /** Told of each entry as it is recorded (the window's live history). */
  recorded?: (entry: AccessEntry) => void;
  /** The full-text index the search tool answers from (absent: search is off). */
  search?: SearchIndex | null;
}

/**
 * Every read a client makes goes through here — resources/read and the
 * read_resource tool, on every transport and in both revisions — so each is
 * asked about (in an ask-before-read folder) and recorded in the access
 * history exactly once. The window's own previews read the library directly:
 * they are the person looking, not a client.
 */
export class ClientReads {
  constructor(
    readonly library: Library,
    private readonly options: ClientReadsOptions = {},
  ) {}

  /** Whether the folder at this root asks before each read (search leaves such folders out). */
  asks(folderRoot: string): boolean {
    return this.options.asks?.(folderRoot) ?? false;
  }

  get search(): SearchIndex | null {
    return this.options.search ?? null;
  }

  anyAsks(): boolean {
    return this.options.anyAsks?.() ?? false;
  }

  /** The whole file, for the SDK's handlers. */
  read(uri: string, who: Requester, via: AccessEntry['via']): Promise<ReadOutcome> {
    return this.run(uri, who, via, () => this.library.read(uri), (r) => r.size);
  }

  /** A small file whole or a large one as a stream (the socket's fast path). */
  openRead(uri: string, who: Requester, via: AccessEntry['via']): Promise<WholeRead | { stream: FileStream }> {
    return this.run(uri, who, via, () => this.library.openRead(uri), (r) => ('whole' in r ? r.whole.size : r.stream.size));
  }

  private async run<T>(uri: string, who: Requester, via: AccessEntry['via'], open: () => Promise<T>, sizeOf: (result: T) => number): Promise<T> {
    // A document's text is the document: it asks, and is filed in the history, like the file.
    const fileUri = fileUriOfText(uri) ?? uri;
    try {
      await this.admit(uri, fileUri, who, via);
      const result = await open();
      this.record(uri, fileUri, who, via, { size: sizeOf(result) });
      return result;
    } catch (err) {
      this.record(uri, fileUri, who, via, { error: err });
      throw err;
    }
  }

  /** Waits for the person's answer when the file is in an ask-before-read folder. */
  private async admit(uri: string, fileUri: string, who: Requester, via: AccessEntry['via']): Promise<void> {
    const { gate, asks, anyAsks } = this.options;
    if (!gate || !asks || !anyAsks?.()) return;
    const found = await this.library.locate(fileUri);
    if (!found || !asks(found.folder.root)) return;
    await gate.check(who, { uri, folder: found.folder.root, path: found.entry.rel, size: found.entry.size, via });
  }

  private record(uri: string, fileUri: string, who: Requester, via: AccessEntry['via'], outcome: { size: number } | { error: unknown }): void {
    const history = this.options.history;
    if (!history) return;
    const failed = 'error' in outcome ? (outcome.error as { code?: unknown; message?: unknown }) : null;
    const code = failed && typeof failed.code === 'number' ? failed.code : failed ? ErrorCodes.internalError : null;
    const entry = history.append({
      time: Date.now(),
      client: who.name,
      clientVersion: who.version,
      protocolVersion: who.protocolVersion,
      transport: who.transport,
      via,
      uri,
      folder: this.library.resolve(fileUri)?.folder.root ?? null,
      size: 'size' in outcome ? outcome.size : null,
      outcome: failed ? (code === ErrorCodes.readNotAllowed ? 'denied' : 'error') : 'ok',
      errorCode: code,
      errorMessage: failed ? (typeof failed.message === 'string' ? failed.message : 'Internal error') : null,
    });
    this.options.recorded?.(entry);
  }
}
