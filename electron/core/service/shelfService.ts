import path from 'node:path';

import type {
  AccessAsk,
  AccessDecision,
  AccessEntry,
  AddFoldersResult,
  ClientConfigSnippet,
  ClientInfo,
  ClientSetupResult,
  DoctorReport,
  FileAccess,
  FolderInfo,
  FolderOptions,
  HistoryExport,
  HistoryExportFormat,
  HistoryPage,
  HistoryQuery,
  HostInfo,
  ModelContent,
  ModelPreview,
  ModelReadPosition,
  ModelReadRequest,
  ReadPreview,
  ResourcePage,
  SearchResults,
  ServerStatus,
  Settings,
  SettingsPatch,
  SetupClient,
  ShelfEventName,
  ShelfEvents,
  ShelfMethods,
  TrafficEntry,
  TrafficQuery,
  TrafficRow,
} from '../../../shared/shelfApi.js';
import { AskGate } from '../access/askGate.js';
import { ClientReads } from '../access/clientReads.js';
import { type HistoryLimits, HistoryStore } from '../access/historyStore.js';
import { installClientConfig } from '../clientSetup/clientConfigFile.js';
import { runDoctor } from '../clientSetup/doctor.js';
import { profileFor } from '../delivery/clientProfiles.js';
import { ImageForModel } from '../delivery/imageForModel.js';
import { LineIndexCache } from '../delivery/lineIndex.js';
import { ModelReader, READ_META_KEY } from '../delivery/modelRead.js';
import { DocumentText } from '../documents/documentText.js';
import type { OcrRequest } from '../documents/ocr.js';
import { TextDiskCache } from '../documents/textDiskCache.js';
import { Library } from '../library/library.js';
import { ConnectionHub } from '../mcp/connectionHub.js';
import { AppView } from '../mcp/shelfApp.js';
import { Grep } from '../search/grep.js';
import { SearchIndex } from '../search/searchIndex.js';
import { prepareConfigDir } from '../settings/configDir.js';
import { SettingsSchema, SettingsStore } from '../settings/settingsStore.js';
import { TrafficLog } from '../traffic/trafficLog.js';
import { VERSION } from '../version.js';
import { type BridgeCommand, clientConfigs } from './clientConfigs.js';
import { Endpoints, type HttpOverride } from './endpoints.js';
import { folderOptions, FolderRegistry } from './folderRegistry.js';
import { completeFolderPath } from './pathCompletion.js';

export interface ServiceOptions {
  /** Folder holding settings.json (Electron: userData; headless: the XDG config folder). */
  settingsDir: string;
  host: HostInfo;
  /**
   * Folders for this run only (the command line): served instead of the
   * saved ones and never written to settings.
   */
  sessionFolders?: string[];
  /** Rules for sessionFolders (command-line flags). */
  sessionRules?: Partial<Omit<FolderOptions, 'enabled'>>;
  /** Overrides for this run, not saved. */
  socketPath?: string;
  maxReadBytes?: number;
  tools?: boolean;
  /** Streamable HTTP for this run (the command line); otherwise settings decide. */
  http?: HttpOverride;
  /** The bridge command clients should launch. */
  bridge: (socketPath: string) => BridgeCommand;
  pickFolders?: () => Promise<string[] | null>;
  log?: (message: string) => void;
  /** Full-text index for this run (the command line); otherwise settings decide. */
  searchIndex?: boolean;
  /**
   * The built document-text worker (extract-worker.js beside the host's
   * bundle). Without it, documents are served as files only.
   */
  extractWorker?: URL | string;
  /** The built image worker (image-worker.js): without it, the read tool describes images instead of showing them. */
  imageWorker?: URL | string;
  /** The built grep worker (grep-worker.js): without it, there is no grep_resources. */
  grepWorker?: URL | string;
  /**
   * The built in-chat app (shelf-app.html beside the host's bundle). Without
   * it, the app's tool and resource are not offered.
   */
  appView?: string;
}

/** The workers and the in-chat app's view a host's build puts beside its bundle (dist/electron for the CLI, out/main for Electron). */
export function builtWorkers(dir: string): Pick<ServiceOptions, 'extractWorker' | 'imageWorker' | 'grepWorker' | 'appView'> {
  return {
    extractWorker: path.join(dir, 'extract-worker.js'),
    imageWorker: path.join(dir, 'image-worker.js'),
    grepWorker: path.join(dir, 'grep-worker.js'),
    appView: path.join(dir, 'shelf-app.html'),
  };
}

type Listener<E extends ShelfEventName> = (payload: ShelfEvents[E]) => void;

const FOLDER_EVENT_DEBOUNCE_MS = 100;
/** Documents' extracted text kept on disk between runs (least recently used go first). */
const TEXT_CACHE_BYTES = 256 * 1024 * 1024;
/**
 * A request within this long means clients are busy: background work (the
 * full-text index, a folder's stat pass) takes small slices, seldom. Short,
 * so a client working back to back counts and one polling now and then does not.
 */
const CLIENTS_BUSY_WITHIN_MS = 20;
/** New history entries reach the window in batches this far apart, at most ACCESS_EVENT_MAX each (the window can query the rest). */
const ACCESS_EVENT_MS = 250;
const ACCESS_EVENT_MAX = 500;

const historyLimits = (s: Settings): HistoryLimits => ({ maxBytes: s.history.maxBytes, maxAgeMs: s.history.maxAgeDays * 86_400_000 });

/**
 * The ShelfApi both hosts serve (Electron IPC, the web host), as a thin
 * facade: the folders (FolderRegistry), where clients connect (Endpoints),
 * the library, the MCP connections, the traffic log, settings and the
 * events the window listens to.
 */
export class ShelfService implements ShelfMethods {
  readonly library: Library;
  readonly hub: ConnectionHub;
  readonly traffic: TrafficLog;
  readonly history: HistoryStore;
  private readonly documents: DocumentText | null;
  readonly search: SearchIndex | null;
  private readonly images: ImageForModel | null;
  private readonly grep: Grep | null;
  private readonly modelReader: ModelReader;
  private readonly gate: AskGate;
  private readonly reads: ClientReads;
  private readonly folders: FolderRegistry;
  private readonly endpoints: Endpoints;
  private readonly store: SettingsStore;
  private settings: Settings;
  private readonly listeners = new Map<ShelfEventName, Set<Listener<ShelfEventName>>>();
  private readonly startedAt = Date.now();
  private folderTimer: NodeJS.Timeout | null = null;
  private readonly unsubscribers: Array<() => void> = [];
  /** Windows showing the shelf (the Electron window, browser tabs): asks need one. */
  private readonly windows = new Set<() => boolean>();
  private accessBatch: AccessEntry[] = [];
  private accessTimer: NodeJS.Timeout | null = null;
  private statusTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly options: ServiceOptions,
    settings: Settings,
    history: HistoryStore,
  ) {
    this.store = new SettingsStore(options.settingsDir);
    this.settings = settings;
    this.history = history;
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
    this.gate = new AskGate({
      timeoutMs: () => this.settings.askTimeoutSeconds * 1000,
      windows: () => {
        let n = 0;
        for (const answering of this.windows) if (answering()) n++;
        return n;
      },
      changed: (asks) => this.emit('asks', asks),
    });
    this.folders = new FolderRegistry(this.library, {
      save: async (folders) => {
        this.settings = { ...this.settings, folders };
        await this.store.save(this.settings);
      },
      changed: () => this.foldersChanged(),
      asksChanged: (folder, asks) => this.gate.folderChanged(folder, asks),
    });
    // Built in the background from the folders' first index on; serving never waits for it.
    this.search = (options.searchIndex ?? settings.searchIndex) ? new SearchIndex(this.library, () => this.clientsBusy()) : null;
    if (this.search) this.search.progress = () => this.statusSoon();
    this.images = options.imageWorker ? new ImageForModel(options.imageWorker) : null;
    this.grep = options.grepWorker ? new Grep(this.library, options.grepWorker) : null;
    this.modelReader = new ModelReader({ library: this.library, lines: new LineIndexCache(), images: this.images });
    const reads = (this.reads = new ClientReads(this.library, {
      search: this.search,
      grep: this.grep,
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
    this.hub = new ConnectionHub(this.library, {
      log: options.log,
      traffic: process.env.MCP_SHELF_NO_TRAFFIC_LOG === '1' ? undefined : this.traffic,
      server: { tools: options.tools ?? settings.tools, app: options.appView ? new AppView(options.appView) : null },
      reads,
      connectionClosed: (id) => {
        this.gate.connectionClosed(id);
        reads.connectionClosed(id);
      },
    });
    this.endpoints = new Endpoints(this.hub, options.http, options.log ?? (() => undefined));
  }

  /** Loads settings, listens on the socket and publishes the folders. */
  static async start(options: ServiceOptions): Promise<ShelfService> {
    for (const warning of await prepareConfigDir(options.settingsDir)) options.log?.(warning);
    const store = new SettingsStore(options.settingsDir);
    const { settings, warning } = await store.load();
    if (warning) options.log?.(warning);
    // The benchmark's switches (see the constructor) are said out loud: a read unrecorded must never go unnoticed.
    if (process.env.MCP_SHELF_NO_HISTORY === '1') options.log?.('MCP_SHELF_NO_HISTORY=1: client reads are NOT kept in the access history (a benchmark switch)');
    if (process.env.MCP_SHELF_NO_TRAFFIC_LOG === '1')
      options.log?.('MCP_SHELF_NO_TRAFFIC_LOG=1: messages are NOT kept in the traffic log (a benchmark switch)');
    const history = await HistoryStore.open(path.join(options.settingsDir, 'history'), historyLimits(settings), options.log);
    const service = new ShelfService(options, settings, history);
    // Earlier runs' reads counted: the window reloads its per-file counts (an empty batch says so).
    void history.counted.then(() => service.emit('access', []));
    try {
      await service.init();
    } catch (err) {
      await service.close();
      throw err;
    }
    return service;
  }

  private async init(): Promise<void> {
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
        // Text extracted from a folder's documents does not outlive its publishing.
        folderUnpublished: (f) => void this.documents?.forgetFolder(f.realRoot),
      }),
      this.hub.onChange(() => {
        this.emit('clients', this.hub.clients());
        void this.getStatus().then((s) => this.emit('status', s));
      }),
      this.traffic.subscribe(
        (batch) => this.emit('traffic', batch),
        () => (this.listeners.get('traffic')?.size ?? 0) > 0,
      ),
    );
    const session = this.options.sessionFolders;
    if (session)
      this.folders.load(
        session.map((p) => ({ path: p, ...folderOptions(this.options.sessionRules) })),
        false,
      );
    else this.folders.load(this.settings.folders, true);
    // The socket first: a second instance is found out at once, and clients can
    // connect while folders are indexed (each sends list_changed when its files come in).
    await this.endpoints.listen(this.options.socketPath ?? this.settings.socketPath ?? null);
    await this.folders.publishAll();
    await this.startHttp();
  }

  /** Starts HTTP as the command line or settings say; a token it had to make is saved. */
  private async startHttp(): Promise<void> {
    const made = await this.endpoints.startHttp(this.settings.http);
    if (made !== null) {
      this.settings = { ...this.settings, http: { ...this.settings.http, token: made } };
      await this.store.save(this.settings);
    }
  }

  /** The HTTP endpoint and its token, for the CLI's start-up message. */
  get httpEndpoint(): { url: string; token: string | null } | null {
    return this.endpoints.httpEndpoint;
  }

  get socketPath(): string {
    return this.endpoints.socketPath;
  }

  on<E extends ShelfEventName>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<ShelfEventName>);
    return () => set.delete(listener as Listener<ShelfEventName>);
  }

  private emit<E extends ShelfEventName>(event: E, payload: ShelfEvents[E]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        l(payload);
      } catch {
        // a broken subscriber must not break the others
      }
    }
  }

  /**
   * A window that can answer asks opened; call the returned function when it
   * closes. With none open (or none answering: `answering`), reads from
   * ask-before-read folders are refused.
   */
  attachWindow(answering: () => boolean = () => true): () => void {
    this.windows.add(answering);
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.windows.delete(answering);
      this.gate.windowsChanged();
    };
  }

  /** A window stopped answering (its browser went quiet): reads waiting on it are refused now if no other can answer. */
  windowsChanged(): void {
    this.gate.windowsChanged();
  }

  /**
   * Batches new entries for the window. Past ACCESS_EVENT_MAX a batch keeps
   * the newest (trimmed in halves, O(1) a read); the window sees the gap in
   * sequence numbers and reloads its counts.
   */
  private accessRecorded(entry: AccessEntry): void {
    if (!this.listeners.get('access')?.size) return;
    this.accessBatch.push(entry);
    if (this.accessBatch.length > 2 * ACCESS_EVENT_MAX) this.accessBatch.splice(0, this.accessBatch.length - ACCESS_EVENT_MAX);
    this.accessTimer ??= setTimeout(() => {
      this.accessTimer = null;
      const batch = this.accessBatch;
      this.accessBatch = [];
      this.emit('access', batch);
    }, ACCESS_EVENT_MS);
  }

  /** Status at most twice a second while something moves (the index filling). */
  private statusSoon(): void {
    if (this.statusTimer || !this.listeners.get('status')?.size) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = null;
      void this.getStatus().then((s) => this.emit('status', s));
    }, 500);
  }

  /** Whether a client sent a request within CLIENTS_BUSY_WITHIN_MS: background work yields while they do. */
  /** OCR as the settings have it: off, or its languages and where extra language data may be (the settings folder's ocr-languages/). */
  private ocrRequest(settings: Settings): OcrRequest | null {
    return settings.ocr.enabled ? { languages: settings.ocr.languages, dataDirs: [path.join(this.options.settingsDir, 'ocr-languages')] } : null;
  }

  private clientsBusy(): boolean {
    return performance.now() - this.hub.lastRequestAt < CLIENTS_BUSY_WITHIN_MS;
  }

  private foldersChanged(): void {
    if (this.folderTimer) return;
    this.folderTimer = setTimeout(() => {
      this.folderTimer = null;
      void this.listFolders().then((f) => this.emit('folders', f));
      void this.getStatus().then((s) => this.emit('status', s));
    }, FOLDER_EVENT_DEBOUNCE_MS);
  }

  // ---- ShelfMethods (arguments were checked by dispatch: apiArguments.ts) ----

  async hostInfo(): Promise<HostInfo> {
    return this.options.host;
  }

  async listFolders(): Promise<FolderInfo[]> {
    return this.folders.list();
  }

  async addFolders(paths: string[]): Promise<AddFoldersResult> {
    return this.folders.add(paths);
  }

  async removeFolder(folderPath: string): Promise<void> {
    return this.folders.remove(folderPath);
  }

  async setFolderEnabled(folderPath: string, enabled: boolean): Promise<FolderInfo> {
    return this.folders.setEnabled(folderPath, enabled);
  }

  async setFolderOptions(folderPath: string, options: Partial<Omit<FolderOptions, 'enabled'>>): Promise<FolderInfo> {
    return this.folders.setOptions(folderPath, options);
  }

  async pickFolders(): Promise<string[] | null> {
    return this.options.pickFolders ? this.options.pickFolders() : null;
  }

  async listResources(folder: string, cursor?: string | null): Promise<ResourcePage> {
    // Over the WebSocket an absent cursor arrives as null.
    return this.folders.resources(folder, cursor ?? undefined);
  }

  async readResource(uri: string): Promise<ReadPreview> {
    try {
      const { contents, size, kind } = await this.library.read(String(uri));
      return { ok: true, result: { contents: [contents] }, size, kind };
    } catch (err) {
      const e = err as { code?: unknown; message?: string; data?: unknown };
      const code = typeof e.code === 'number' ? e.code : -32603;
      return { ok: false, error: { code, message: e.message ?? 'Internal error', ...(e.data !== undefined ? { data: e.data } : {}) } };
    }
  }

  async readForModel(uri: string, request: ModelReadRequest): Promise<ModelPreview> {
    const { client, ...args } = request;
    const profile = profileFor({ name: client ?? null, protocolVersion: null }, this.settings.delivery);
    try {
      const read = await this.modelReader.read({ uri: String(uri), ...args }, profile);
      const position = (read.result._meta?.[READ_META_KEY] ?? {}) as ModelReadPosition;
      return { ok: true, content: read.result.content as ModelContent[], position, detail: read.detail, profile: profile.label };
    } catch (err) {
      const e = err as { code?: unknown; message?: string; data?: unknown };
      const code = typeof e.code === 'number' ? e.code : -32603;
      return { ok: false, error: { code, message: e.message ?? 'Internal error', ...(e.data !== undefined ? { data: e.data } : {}) } };
    }
  }

  async getStatus(): Promise<ServerStatus> {
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
    };
  }

  async listClients(): Promise<ClientInfo[]> {
    return this.hub.clients();
  }

  async getSettings(): Promise<Settings> {
    const settings = structuredClone(this.settings);
    // The token in force: a command-line token is not saved, but it is the one clients must send.
    const token = this.endpoints.tokenInForce;
    if (token !== null) settings.http.token = token;
    return settings;
  }

  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    const merged = {
      ...this.settings,
      ...(patch?.maxReadBytes !== undefined ? { maxReadBytes: patch.maxReadBytes } : {}),
      ...(patch?.socketPath !== undefined ? { socketPath: patch.socketPath } : {}),
      ...(patch?.tools !== undefined ? { tools: patch.tools } : {}),
      ...(patch?.askTimeoutSeconds !== undefined ? { askTimeoutSeconds: patch.askTimeoutSeconds } : {}),
      http: { ...this.settings.http, ...(patch?.http ?? {}) },
      log: { ...this.settings.log, ...(patch?.log ?? {}) },
      history: { ...this.settings.history, ...(patch?.history ?? {}) },
      delivery: { ...this.settings.delivery, ...(patch?.delivery ?? {}) },
      ocr: { ...this.settings.ocr, ...(patch?.ocr ?? {}) },
    };
    const parsed = SettingsSchema.safeParse(merged);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`Invalid setting ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'malformed'}`);
    }
    const next = parsed.data;
    if (next.socketPath !== this.settings.socketPath && this.options.socketPath === undefined) await this.endpoints.listen(next.socketPath ?? null);
    if (this.options.maxReadBytes === undefined) this.library.options.maxReadBytes = next.maxReadBytes;
    if (this.options.tools === undefined) this.hub.setServerOptions({ tools: next.tools });
    if (this.documents && JSON.stringify(next.ocr) !== JSON.stringify(this.settings.ocr)) {
      // Images gain or lose their text, and scanned pages theirs: the index follows.
      this.documents.setOcr(this.ocrRequest(next));
      this.search?.reindexAll();
      this.statusSoon();
    }
    if (JSON.stringify(next.http) !== JSON.stringify(this.settings.http) && this.endpoints.httpFromSettings) {
      // Restart HTTP with the new address or token before anything is saved:
      // settings the server then refuses (a non-loopback host, a port in use)
      // are rolled back, so no later start fails on them. Sessions end and
      // clients reconnect.
      const previous = this.settings;
      await this.endpoints.stopHttp();
      this.settings = next;
      try {
        await this.startHttp();
      } catch (err) {
        this.settings = previous;
        await this.startHttp().catch(() => undefined);
        throw new Error(`HTTP settings not applied: ${(err as Error).message}`);
      }
    }
    this.traffic.setLimits(next.log.maxEntries, next.log.maxBytes);
    this.history.setLimits(historyLimits(next));
    this.settings = { ...next, http: this.settings.http };
    await this.store.save(this.settings);
    this.emit('status', await this.getStatus());
    return structuredClone(this.settings);
  }

  async queryTraffic(query: TrafficQuery): Promise<TrafficEntry[]> {
    return this.traffic.query(query);
  }

  async clearTraffic(): Promise<void> {
    this.traffic.clear();
  }

  async exportTraffic(query: TrafficQuery): Promise<string> {
    return this.traffic.exportJsonLines(query);
  }

  async trafficRows(query: TrafficQuery): Promise<TrafficRow[]> {
    return this.traffic.rows(query);
  }

  async trafficPayload(seq: number): Promise<string | null> {
    return this.traffic.payload(seq);
  }

  async clientConfigs(): Promise<ClientConfigSnippet[]> {
    return clientConfigs(this.options.bridge(this.socketPath), this.options.host.platform, this.httpEndpoint);
  }

  async installClientConfig(client: SetupClient): Promise<ClientSetupResult> {
    return installClientConfig(client, this.options.bridge(this.socketPath));
  }

  private doctor: Promise<DoctorReport[]> | null = null;

  /** One Doctor run at a time: a second ask while one runs gets the same answer. */
  async runDoctor(): Promise<DoctorReport[]> {
    this.doctor ??= runDoctor({ shelfSocket: this.socketPath, project: null }).finally(() => {
      this.doctor = null;
    });
    return this.doctor;
  }

  async queryHistory(query: HistoryQuery): Promise<HistoryPage> {
    return this.history.query(query);
  }

  async fileAccess(): Promise<FileAccess[]> {
    return this.history.fileAccess();
  }

  async exportHistory(query: HistoryQuery, format: HistoryExportFormat): Promise<HistoryExport> {
    return this.history.export(query, format);
  }

  async clearHistory(): Promise<void> {
    await this.history.clear();
  }

  async searchContent(query: string, options: { folder?: string | null; cursor?: string | null; limit?: number | null } | null): Promise<SearchResults> {
    const search = this.search;
    if (!search) throw new Error('Full-text search is off (the searchIndex setting)');
    const folder = options?.folder ? path.resolve(options.folder) : null;
    return search.search(query, {
      ...(folder ? { folder: (root: string) => root === folder } : {}),
      ...(options?.cursor ? { cursor: options.cursor } : {}),
      // The owner's own search covers ask-before-read folders too: asking is about clients, not the owner.
      limit: options?.limit ?? 50,
    });
  }

  async completeFolderPath(typed: string): Promise<string[]> {
    return completeFolderPath(typed);
  }

  async pendingAsks(): Promise<AccessAsk[]> {
    return this.gate.pending();
  }

  async answerAsk(id: number, decision: AccessDecision): Promise<boolean> {
    return this.gate.answer(id, decision);
  }

  /** Closes connections, the socket (removing its file) and the watchers; writes the history out. */
  async close(): Promise<void> {
    if (this.folderTimer) clearTimeout(this.folderTimer);
    if (this.accessTimer) clearTimeout(this.accessTimer);
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.gate.close();
    for (const u of this.unsubscribers.splice(0)) u();
    await this.endpoints.close(() => this.hub.closeAll());
    this.search?.close();
    await this.library.close();
    await this.documents?.close();
    await this.images?.close();
    await this.grep?.close();
    this.reads.close();
    await this.history.close();
    // A save the window asked for may still be writing (its temp file beside settings.json): the folder is whole when close resolves.
    await this.store.settled();
    this.traffic.close();
    this.listeners.clear();
  }
}
