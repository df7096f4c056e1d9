import path from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/server';

import { fileUriOfText } from '../../../shared/documentUris.js';
import { ErrorCodes } from '../../../shared/errorCodes.js';
import { failureOfError, type ReadFailure } from '../../../shared/readFailure.js';
import type { AccessEntry, AccessSearch, DeliverySettings } from '../../../shared/shelfApi.js';
import type { CancelHook } from '../base/requestCancel.js';
import { toRpcError } from '../base/rpcError.js';
import { type MemoryLease, RequestMemory } from '../clientMemory/memoryBudget.js';
import { type DeliveryProfile, profileFor } from '../delivery/clientProfiles.js';
import type { ModelReader, ReadToolArgs } from '../delivery/modelRead.js';
import type { FileStream } from '../library/fileStream.js';
import type { Library } from '../library/library.js';
import type { ReadOutcome, WholeRead } from '../library/safeRead.js';
import { joinRel, uriToPath } from '../library/uriPath.js';
import { type AskGate, partyOf, type Requester } from './askGate.js';
import type { HistoryStore } from './historyStore.js';
import { type EntryDraft, isNoise, NoiseFolder } from './noiseFolder.js';

export type { Requester };

/**
 * What asks and records: every part is required, so a shelf wired without
 * one fails to build rather than serving reads unasked or unrecorded.
 * `history: null` (reads not recorded) must be said, never left out.
 */
export interface ClientReadsOptions {
  history: HistoryStore | null;
  gate: AskGate;
  /** Whether reads under the published folder at this root may ask (search leaves such folders out). */
  asks: (folderRoot: string) => boolean;
  /** The ask-before-read folder that covers a file at this real path (the most specific that holds it), or null. */
  askingFolder: (realFile: string) => { root: string; realRoot: string } | null;
  /** Whether any folder asks (checked first, so reads elsewhere skip the lookup). */
  anyAsks: () => boolean;
  /** Whether a turned-off folder holds this path (a read there is "folder off", not "outside"). */
  folderOff: (absPath: string) => boolean;
  /** Told of each entry as it is recorded (the window's live history). */
  recorded?: (entry: AccessEntry) => void;
  /** The read tool's reader: files as a model can use them. */
  model: ModelReader;
  /** What the tools give a model (the settings), for each client's profile. */
  delivery: () => DeliverySettings;
}

/** What a read gave, for its history entry; `folder` when the read says where it found the file. */
type Described = { size: number; detail?: string; folder?: string };

/**
 * Every read a client makes goes through here — resources/read and the
 * read_resource tool, on every transport and in both revisions — so each is
 * asked about (in an ask-before-read folder) and recorded in the access
 * history exactly once. The window's own previews read the library directly:
 * they are the person looking, not a client.
 */
export class ClientReads {
  /** Runs of not-found reads, folded so they cannot push real reads out of the history. */
  private readonly noise: NoiseFolder;

  constructor(
    readonly library: Library,
    private readonly options: ClientReadsOptions,
  ) {
    this.noise = new NoiseFolder({ write: (entry) => this.write(entry) });
  }

  /** A connection (or a modern HTTP client) is gone: the not-found reads it folded are written. */
  connectionClosed(connectionId: number): void {
    this.noise.closed(connectionId);
  }

  /** Writes what is folded (before the history closes). */
  close(): void {
    this.noise.close();
  }

  /** Whether the folder at this root asks before each read (search leaves such folders out). */
  asks(folderRoot: string): boolean {
    return this.options.asks(folderRoot);
  }

  anyAsks(): boolean {
    return this.options.anyAsks();
  }

  /**
   * The whole file, for the SDK's handlers. Its reply is reserved in the
   * client's memory budget while it is built; once the handler returns it is
   * output, counted by the transport.
   */
  async read(uri: string, who: Requester, via: AccessEntry['via'], cancel?: CancelHook): Promise<ReadOutcome> {
    const memory = new RequestMemory(who.memory);
    try {
      return await this.run(
        uri,
        who,
        via,
        () => this.library.read(uri, { charge: memory.charge, party: partyOf(who) }),
        (r) => ({ size: r.size }),
        cancel,
      );
    } finally {
      memory.release();
    }
  }

  /**
   * A small file whole or a large one as a stream (the socket's fast path),
   * with the memory reserved for its reply: the caller releases it once the
   * reply is written.
   */
  async openRead(
    uri: string,
    who: Requester,
    via: AccessEntry['via'],
    cancel?: CancelHook,
  ): Promise<(WholeRead | { stream: FileStream }) & { lease?: MemoryLease }> {
    const memory = new RequestMemory(who.memory);
    try {
      const opened: (WholeRead | { stream: FileStream }) & { lease?: MemoryLease } = await this.run(
        uri,
        who,
        via,
        () => this.library.openRead(uri, memory.charge),
        (r) => ({ size: 'whole' in r ? r.whole.size : r.stream.size, folder: r.folder }),
        cancel,
      );
      const lease = memory.lease();
      if (lease) opened.lease = lease;
      return opened;
    } catch (err) {
      memory.release();
      throw err;
    }
  }

  /** What the tools give this client (its profile from the name it declared, and the settings). */
  profile(who: Requester, declaredApps?: boolean): DeliveryProfile {
    return profileFor({ ...who, ...(declaredApps !== undefined ? { declaredApps } : {}) }, this.options.delivery());
  }

  /** The read_resource tool: the file as a model can use it (modelRead.ts); the history says which part went. */
  async readForModel(args: ReadToolArgs, who: Requester, via: AccessEntry['via'], cancel?: CancelHook): Promise<CallToolResult> {
    const profile = this.profile(who);
    const memory = new RequestMemory(who.memory);
    try {
      const read = await this.run(
        args.uri,
        who,
        via,
        () => this.options.model.read(args, profile, memory.charge, partyOf(who)),
        (r) => ({ size: r.size, detail: r.detail }),
        cancel,
      );
      return read.result;
    } finally {
      memory.release();
    }
  }

  /**
   * A read a change tool makes on the client's behalf (the diff of a dry
   * run shows the file): asked about like any read in an ask-before-read
   * folder, and recorded as one.
   */
  async allowRead(uri: string, who: Requester, via: AccessEntry['via'], cancel?: CancelHook): Promise<void> {
    await this.run(
      uri,
      who,
      via,
      async () => null,
      () => ({ size: this.library.resolve(uri)?.entry.size ?? 0, detail: 'the diff of a proposed change (dryRun)' }),
      cancel,
    );
  }

  private async run<T>(
    uri: string,
    who: Requester,
    via: AccessEntry['via'],
    open: () => Promise<T>,
    describe: (result: T) => Described,
    cancel: CancelHook | undefined,
  ): Promise<T> {
    // A document's text is the document: it asks, and is filed in the history, like the file.
    const fileUri = fileUriOfText(uri) ?? uri;
    try {
      await this.admit(uri, fileUri, who, via, cancel);
      const result = await open();
      this.record(uri, fileUri, who, via, describe(result));
      return result;
    } catch (err) {
      this.record(uri, fileUri, who, via, { error: err });
      throw err;
    }
  }

  /**
   * Waits for the person's answer when the file is in an ask-before-read
   * folder: judged by where the file really is, so a file asks if any
   * folder holding it asks, whichever folder it was found through.
   */
  private async admit(uri: string, fileUri: string, who: Requester, via: AccessEntry['via'], cancel: CancelHook | undefined): Promise<void> {
    const { gate, askingFolder, anyAsks } = this.options;
    if (!anyAsks()) return;
    const found = await this.library.locate(fileUri);
    if (!found) return;
    const realFile = joinRel(found.folder.realRoot, found.entry.rel);
    const asking = askingFolder(realFile);
    if (!asking) return;
    const rel = asking.realRoot === found.folder.realRoot ? found.entry.rel : path.relative(asking.realRoot, realFile).split(path.sep).join('/');
    await gate.check(who, { uri, folder: asking.root, path: rel, size: found.entry.size, via }, cancel);
  }

  private record(uri: string, fileUri: string, who: Requester, via: AccessEntry['via'], outcome: Described | { error: unknown }): void {
    if (!this.options.history) return;
    const { failed, code, message } = errorOf(outcome);
    const reason = failed?.data?.reason;
    // Built field by field, optional ones assigned after: spreads after the first property take V8's slow copy, and this runs on every read.
    const draft: EntryDraft = {
      time: Date.now(),
      client: who.name,
      clientVersion: who.version,
      protocolVersion: who.protocolVersion,
      transport: who.transport,
      via,
      uri,
      // The folder the read said it came from; else (a failed read, a document's text) looked up.
      folder: ('folder' in outcome ? outcome.folder : undefined) ?? this.library.resolve(fileUri)?.folder.root ?? null,
      size: 'size' in outcome ? outcome.size : null,
      outcome: failed ? (code === ErrorCodes.readNotAllowed ? 'denied' : 'error') : 'ok',
      errorCode: code,
      errorMessage: message,
      detail: 'detail' in outcome ? (outcome.detail ?? null) : null,
    };
    if (typeof reason === 'string') draft.errorReason = reason;
    if (failed) draft.failure = this.failureOf(fileUri, code, reason, failed);
    // What a client can make at will (not found, refused without asking anyone): folded per connection.
    if (isNoise(draft)) this.noise.noise(who.connectionId, draft);
    else {
      this.noise.real(who.connectionId);
      this.write(draft);
    }
  }

  /**
   * Why a read failed, for the owner: a client is told "not found" alike for
   * what is missing, outside, hidden or ignored; the history says which.
   */
  failureOf(fileUri: string, code: number | null, reason: unknown, error?: { data?: { uri?: unknown } }): ReadFailure {
    const failure = failureOfError(code, reason);
    if (failure !== 'not-found') return failure;
    // -32602 is also "bad arguments": only an error naming a URI is a not-found.
    if (error && typeof error.data?.uri !== 'string') return 'invalid';
    const why = this.library.explainMissing(fileUri);
    if (why === 'outside') {
      const p = uriToPath(fileUri);
      if (p !== null && this.options.folderOff(p)) return 'folder-off';
    }
    return why;
  }

  /**
   * A client's search (search_resources, grep_resources): recorded like a
   * read, since it gives the client snippets of files. Ask-before-read
   * folders are not searched for clients, so nothing here needs asking.
   */
  recordSearch(who: Requester, via: AccessEntry['via'], tool: AccessSearch['tool'], query: string, outcome: { hits: number } | { error: unknown }): void {
    if (!this.options.history) return;
    const { failed, code, message } = errorOf(outcome);
    this.noise.real(who.connectionId);
    this.write({
      ...requesterOf(who, via),
      uri: '',
      folder: null,
      size: null,
      outcome: failed ? 'error' : 'ok',
      errorCode: code,
      errorMessage: message,
      detail: null,
      search: { tool, query: query.slice(0, 200), hits: 'hits' in outcome ? outcome.hits : 0 },
      ...(failed ? { failure: code === ErrorCodes.invalidParams ? ('invalid' as const) : ('error' as const) } : {}),
    });
  }

  private write(draft: EntryDraft): void {
    const entry = this.options.history?.append(draft) ?? null;
    if (entry) this.options.recorded?.(entry);
  }
}

type OutcomeError = { code?: unknown; message?: unknown; data?: { reason?: unknown; uri?: unknown } };

/** The error a read's or a search's outcome carries, as the history keeps it: its code and message as the client got them (toRpcError). */
function errorOf(outcome: object): { failed: OutcomeError | null; code: number | null; message: string | null } {
  const failed = 'error' in outcome ? (outcome.error as OutcomeError) : null;
  if (!failed) return { failed, code: null, message: null };
  const { code, message } = toRpcError(failed);
  return { failed, code, message };
}

/** Who asked, and how, as every history entry records it. */
function requesterOf(who: Requester, via: AccessEntry['via']): Pick<EntryDraft, 'time' | 'client' | 'clientVersion' | 'protocolVersion' | 'transport' | 'via'> {
  return { time: Date.now(), client: who.name, clientVersion: who.version, protocolVersion: who.protocolVersion, transport: who.transport, via };
}
