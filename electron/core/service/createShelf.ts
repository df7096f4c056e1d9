import path from 'node:path';

import type { AccessEntry, ServerStatus, Settings } from '../../../shared/shelfApi.js';
import { AskGate } from '../access/askGate.js';
import { ClientReads } from '../access/clientReads.js';
import { type HistoryLimits, HistoryStore } from '../access/historyStore.js';
import { coalesce, type Coalesced } from '../background/coalesce.js';
import { collectGarbage } from '../background/collectAfterBigJob.js';
import { ChangeGate } from '../changes/changeGate.js';
import { ClientChanges } from '../changes/clientChanges.js';
import { LineDiffer } from '../changes/lineDiffer.js';
import { UndoStore } from '../changes/undoStore.js';
import { MEMORY_LIMITS, MemoryBudget } from '../clientMemory/memoryBudget.js';
import { ImageForModel } from '../delivery/imageForModel.js';
import { LineIndexCache } from '../delivery/lineIndex.js';
import { ModelReader } from '../delivery/modelRead.js';
import { DocumentText } from '../documents/documentText.js';
import type { OcrRequest } from '../documents/ocr.js';
import { TextDiskCache } from '../documents/textDiskCache.js';
import { Library } from '../library/library.js';
import { ConnectionHub } from '../mcp/connectionHub.js';
import { AppView } from '../mcp/shelfApp.js';
import { Grep } from '../search/grep.js';
import { SearchIndex } from '../search/searchIndex.js';
import { prepareConfigDir } from '../settings/configDir.js';
import { SettingsStore } from '../settings/settingsStore.js';
import { TrafficLog } from '../traffic/trafficLog.js';
import { VERSION } from '../version.js';
import { Endpoints } from './endpoints.js';
import { folderOptions, FolderRegistry } from './folderRegistry.js';
import type { ServiceOptions } from './serviceOptions.js';
import { ShelfEventHub } from './shelfEvents.js';

/** Documents' extracted text kept on disk between runs (least recently used go first). */
const TEXT_CACHE_BYTES = 256 * 1024 * 1024;
/**
 * A request within this long means clients are busy: background work (the
 * full-text index, a folder's stat pass) takes small slices, seldom. Short,
 * so a client working back to back counts and one polling now and then does not.
 */
const CLIENTS_BUSY_WITHIN_MS = 20;
const FOLDER_EVENT_DEBOUNCE_MS = 100;
/** Status at most twice a second while something moves (the index filling). */
const STATUS_EVENT_MS = 500;
/** New history entries reach the window in batches this far apart, at most ACCESS_EVENT_MAX each (the window can query the rest). */
const ACCESS_EVENT_MS = 250;
const ACCESS_EVENT_MAX = 500;

export const historyLimits = (s: Settings): HistoryLimits => ({ maxBytes: s.history.maxBytes, maxAgeMs: s.history.maxAgeDays * 86_400_000 });

/**
 * The composition root: builds every part of the shelf and wires them to
 * one another and to the window's events. ShelfService is the facade the
 * hosts call; this is what it stands on. Settings are one value here,
 * replaced whole, so every part that reads them sees the current ones.
 */
export class Shelf {
  settings: Settings;
  readonly events = new ShelfEventHub();
  readonly store: SettingsStore;
  readonly library: Library;
  readonly hub: ConnectionHub;
  readonly traffic: TrafficLog;
  readonly documents: DocumentText | null;
  readonly search: SearchIndex | null;
  readonly images: ImageForModel | null;
  readonly grep: Grep | null;
  readonly modelReader: ModelReader;
  readonly gate: AskGate;
  readonly reads: ClientReads;
  /** Changes a model proposes: the person's decisions, and the writes they approve. */
  readonly changeGate: ChangeGate;
  readonly changes: ClientChanges;
  private readonly differ: LineDiffer;
  readonly folders: FolderRegistry;
  readonly endpoints: Endpoints;
  readonly startedAt = Date.now();
  /** Windows showing the shelf (the Electron window, browser tabs): asks need one. */
  readonly windows = new Set<() => boolean>();
  /** The window's events, coalesced: folders (and status) after a change, status while something moves, history entries in batches. */
  readonly foldersChanged: Coalesced;
  private readonly statusLater: Coalesced;
  private readonly accessSoon: Coalesced;
  private accessBatch: AccessEntry[] = [];
  private readonly unsubscribers: Array<() => void> = [];

  constructor(
    readonly options: ServiceOptions,
    settings: Settings,
    readonly history: HistoryStore,
    readonly undo: UndoStore,
  ) {
    this.store = new SettingsStore(options.settingsDir);
    this.settings = settings;
    this.foldersChanged = coalesce(() => {
      this.events.emit('folders', this.folders.list());
      this.events.emit('status', this.status());
    }, FOLDER_EVENT_DEBOUNCE_MS);
    this.statusLater = coalesce(() => this.events.emit('status', this.status()), STATUS_EVENT_MS);
    this.accessSoon = coalesce(() => {
      const batch = this.accessBatch;
      this.accessBatch = [];
      this.events.emit('access', batch);
    }, ACCESS_EVENT_MS);
    this.documents = options.extractWorker
      ? new DocumentText({
          workerFile: options.extractWorker,
          disk: new TextDiskCache(path.join(options.settingsDir, 'text-cache'), TEXT_CACHE_BYTES),
          ocr: this.ocrRequest(settings),
        })
      : null;
    this.library = new Library({
      maxReadBytes: options.maxReadBytes ?? settings.maxReadBytes,
      documents: this.documents,
      clientsBusy: () => this.clientsBusy(),
    });
    this.traffic = new TrafficLog({
      maxEntries: settings.log.maxEntries,
      maxBytes: settings.log.maxBytes,
      explain: (uri, code, reason) => this.reads.failureOf(uri, code, reason, { data: { uri } }),
    });
    const windows = () => {
      let n = 0;
      for (const answering of this.windows) if (answering()) n++;
      return n;
    };
    this.gate = new AskGate({ timeoutMs: () => this.settings.askTimeoutSeconds * 1000, windows, changed: (asks) => this.events.emit('asks', asks) });
    this.changeGate = new ChangeGate({
      timeoutMs: () => this.settings.askTimeoutSeconds * 1000,
      windows,
      changed: (proposals) => this.events.emit('changes', proposals),
    });
    this.folders = new FolderRegistry(this.library, {
      save: async (folders) => {
        this.settings = { ...this.settings, folders };
        await this.store.save(this.settings);
      },
      changed: () => this.foldersChanged(),
      asksChanged: (folder, asks) => this.gate.folderChanged(folder, asks),
      changesChanged: () => this.hub.toolsChanged(),
    });
    // Built in the background from the folders' first index on; serving never waits for it.
    this.search = (options.searchIndex ?? settings.searchIndex) ? new SearchIndex(this.library, () => this.clientsBusy()) : null;
    if (this.search) this.search.progress = () => this.statusSoon();
    this.images = options.imageWorker ? new ImageForModel(options.imageWorker) : null;
    this.grep = options.grepWorker ? new Grep(this.library, options.grepWorker) : null;
    this.differ = new LineDiffer(options.diffWorker ?? null);
    this.modelReader = new ModelReader({ library: this.library, lines: new LineIndexCache(), images: this.images });
    const reads = (this.reads = new ClientReads(this.library, {
      model: this.modelReader,
      delivery: () => this.settings.delivery,
      // MCP_SHELF_NO_HISTORY=1 and MCP_SHELF_NO_TRAFFIC_LOG=1 leave them out, for the benchmark's on/off rows only.
      history: process.env.MCP_SHELF_NO_HISTORY === '1' ? null : history,
      gate: this.gate,
      asks: (root) => this.folders.asks(root),
      askingFolder: (realFile) => this.folders.askingFolder(realFile),
      anyAsks: () => this.folders.anyAsks,
      folderOff: (absPath) => this.folders.holdsOff(absPath),
      recorded: (entry) => this.accessRecorded(entry),
    }));
    this.changes = new ClientChanges({
      library: this.library,
      gate: this.changeGate,
      undo,
      history: process.env.MCP_SHELF_NO_HISTORY === '1' ? null : history,
      recorded: (entry) => this.accessRecorded(entry),
      allows: (root) => this.folders.allowsChanges(root),
      asks: (root) => this.folders.asks(root),
      allowRead: (uri, who, via, cancel) => reads.allowRead(uri, who, via, cancel),
      limits: () => ({ maxBytes: this.settings.changes.maxBytes }),
      differ: this.differ,
    });
    this.hub = new ConnectionHub(this.library, {
      held: new MemoryBudget(
        { ...MEMORY_LIMITS, total: options.clientMemoryBytes ?? MEMORY_LIMITS.total },
        // A collection once replies of the budget's size went back: their copies are garbage V8 would keep a while.
        { run: collectGarbage, bytes: options.clientMemoryBytes ?? MEMORY_LIMITS.total },
      ),
      log: options.log,
      traffic: process.env.MCP_SHELF_NO_TRAFFIC_LOG === '1' ? undefined : this.traffic,
      server: {
        tools: options.tools ?? settings.tools,
        app: options.appView ? new AppView(options.appView) : null,
        search: this.search,
        grep: this.grep,
        changes: this.changes,
      },
      reads,
      connectionClosed: (id) => {
        this.gate.connectionClosed(id);
        this.changeGate.connectionClosed(id);
        reads.connectionClosed(id);
      },
    });
    this.endpoints = new Endpoints(this.hub, options.http, options.log ?? (() => undefined));
  }

  /** The parts' events reach the window's: folders, clients, status, traffic. */
  wireEvents(): void {
    const log = this.options.log ?? (() => undefined);
    this.unsubscribers.push(
      this.library.subscribe({
        listChanged: () => this.foldersChanged(),
        // A file's new size and time reach the window's tree, and its preview reads it again.
        updated: () => this.foldersChanged(),
        folderState: (_f, message) => {
          log(message);
          this.foldersChanged();
        },
        folderSized: () => this.foldersChanged(),
        // Text extracted from a folder's documents does not outlive its publishing.
        folderUnpublished: (f) => void this.documents?.forgetFolder(f.realRoot),
      }),
      this.hub.onChange(() => {
        this.events.emit('clients', this.hub.clients());
        this.events.emit('status', this.status());
      }),
      this.traffic.subscribe(
        (batch) => this.events.emit('traffic', batch),
        () => this.events.heard('traffic'),
      ),
    );
    // Earlier runs' reads counted: the window reloads its per-file counts (an empty batch says so).
    void this.history.counted.then(() => this.events.emit('access', []));
  }

  /** Publishes the folders (this run's, or the saved ones) and opens the socket and HTTP. */
  async open(): Promise<void> {
    const session = this.options.sessionFolders;
    if (session)
      this.folders.load(
        session.map((p) => ({ path: p, ...folderOptions(this.options.sessionRules) })),
        false,
      );
    else this.folders.load(this.settings.folders, true);
    // The folders are judged (a few stats) before the socket listens, and are in the library the moment it
    // does: a client that connected at once was told "not found" for a file of a folder not yet added.
    // The socket comes before indexing: a second instance is found out at once, and clients can
    // connect while folders are indexed (each sends list_changed when its files come in).
    const judged = await this.folders.judgeAll();
    await this.endpoints.listen(this.options.socketPath ?? this.settings.socketPath ?? null);
    await this.folders.publishJudged(judged);
    await this.startHttp();
  }

  /** Starts HTTP as the command line or settings say; a token it had to make is saved. */
  async startHttp(): Promise<void> {
    const made = await this.endpoints.startHttp(this.settings.http);
    if (made !== null) {
      this.settings = { ...this.settings, http: { ...this.settings.http, token: made } };
      await this.store.save(this.settings);
    }
  }

  /** OCR as the settings have it: off, or its languages and where extra language data may be (the settings folder's ocr-languages/). */
  ocrRequest(settings: Settings): OcrRequest | null {
    return settings.ocr.enabled ? { languages: settings.ocr.languages, dataDirs: [path.join(this.options.settingsDir, 'ocr-languages')] } : null;
  }

  status(): ServerStatus {
    const published = this.library.list();
    return {
      version: VERSION,
      socketPath: this.endpoints.socketPath,
      httpUrl: this.endpoints.httpUrl,
      httpAuth: this.endpoints.httpAuth,
      startedAt: this.startedAt,
      uptimeMs: Date.now() - this.startedAt,
      connections: this.hub.size,
      folders: published.length,
      files: published.reduce((n, f) => n + f.fileCount, 0),
      traffic: {
        entries: this.traffic.size,
        bytes: this.traffic.byteSize,
        maxEntries: this.settings.log.maxEntries,
        maxBytes: this.settings.log.maxBytes,
        dropped: this.traffic.dropped,
      },
      maxReadBytes: this.library.options.maxReadBytes,
      search: this.search ? { indexed: this.search.indexed, pending: this.search.pending, full: this.search.full, maxFiles: this.search.maxFiles } : null,
      ocr: this.library.ocrOn,
      clientMemory: { held: this.hub.held.held, total: this.hub.held.limits.total },
    };
  }

  /** Status soon, if a window listens (the index filling, OCR turned on or off). */
  statusSoon(): void {
    if (this.events.heard('status')) this.statusLater();
  }

  /**
   * Batches new entries for the window. Past ACCESS_EVENT_MAX a batch keeps
   * the newest (trimmed in halves, O(1) a read); the window sees the gap in
   * sequence numbers and reloads its counts.
   */
  private accessRecorded(entry: AccessEntry): void {
    if (!this.events.heard('access')) return;
    this.accessBatch.push(entry);
    if (this.accessBatch.length > 2 * ACCESS_EVENT_MAX) this.accessBatch.splice(0, this.accessBatch.length - ACCESS_EVENT_MAX);
    this.accessSoon();
  }

  /** Whether a client sent a request within CLIENTS_BUSY_WITHIN_MS: background work yields while they do. */
  private clientsBusy(): boolean {
    return performance.now() - this.hub.lastRequestAt < CLIENTS_BUSY_WITHIN_MS;
  }

  /** Closes connections, the socket (removing its file) and the watchers; writes the history out. */
  async close(): Promise<void> {
    this.foldersChanged.cancel();
    this.accessSoon.cancel();
    this.statusLater.cancel();
    this.gate.close();
    this.changeGate.close();
    for (const u of this.unsubscribers.splice(0)) u();
    await this.endpoints.close(() => this.hub.closeAll());
    this.search?.close();
    await this.library.close();
    await this.documents?.close();
    await this.images?.close();
    await this.grep?.close();
    await this.differ.close();
    this.reads.close();
    await this.history.close();
    await this.undo.settled();
    // A save the window asked for may still be writing (its temp file beside settings.json): the folder is whole when close resolves.
    await this.store.settled();
    this.traffic.close();
    this.events.clear();
  }
}

/** Loads settings and the history, builds and wires the parts, then publishes and listens. */
export async function createShelf(options: ServiceOptions): Promise<Shelf> {
  for (const warning of await prepareConfigDir(options.settingsDir)) options.log?.(warning);
  const { settings, warning } = await new SettingsStore(options.settingsDir).load();
  if (warning) options.log?.(warning);
  // The benchmark's switches (see the constructor) are said out loud: a read unrecorded must never go unnoticed.
  if (process.env.MCP_SHELF_NO_HISTORY === '1') options.log?.('MCP_SHELF_NO_HISTORY=1: client reads are NOT kept in the access history (a benchmark switch)');
  if (process.env.MCP_SHELF_NO_TRAFFIC_LOG === '1') options.log?.('MCP_SHELF_NO_TRAFFIC_LOG=1: messages are NOT kept in the traffic log (a benchmark switch)');
  const history = await HistoryStore.open(path.join(options.settingsDir, 'history'), historyLimits(settings), options.log);
  // What Undo puts back: the previous version of each approved change, within the settings' bounds (read when it prunes).
  let built: Shelf | null = null;
  const undoLimits = () => {
    const { keepBytes, keepDays } = (built?.settings ?? settings).changes;
    return { maxBytes: keepBytes, maxAgeDays: keepDays };
  };
  const undo = await UndoStore.open(path.join(options.settingsDir, 'changes'), undoLimits);
  const shelf = new Shelf(options, settings, history, undo);
  built = shelf;
  shelf.wireEvents();
  try {
    await shelf.open();
  } catch (err) {
    await shelf.close();
    throw err;
  }
  return shelf;
}
