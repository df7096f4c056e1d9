import path from 'node:path';

import type { ChangeDecision, ChangeDiffPage, ChangeProposal, UndoResult, UndoState } from '../../../shared/changeTypes.js';
import type {
  AccessAsk,
  AccessDecision,
  AddFoldersResult,
  ClientConfigSnippet,
  ClientInfo,
  ClientSetupResult,
  DoctorReport,
  FileAccess,
  FolderInfo,
  FolderOptions,
  GrepResults,
  HistoryExport,
  HistoryExportFormat,
  HistoryPage,
  HistoryQuery,
  HostInfo,
  ModelContent,
  ModelPreview,
  ModelReadPosition,
  ModelReadRequest,
  NotIndexedReport,
  ReadPreview,
  ResourcePage,
  SearchResults,
  ServerStatus,
  Settings,
  SettingsPatch,
  SetupClient,
  ShelfEventName,
  ShelfMethods,
  TrafficEntry,
  TrafficQuery,
  TrafficRow,
} from '../../../shared/shelfApi.js';
import type { HistoryStore } from '../access/historyStore.js';
import { toRpcError } from '../base/rpcError.js';
import { installClientConfig } from '../clientSetup/clientConfigFile.js';
import { clientConfigs } from '../clientSetup/clientConfigs.js';
import { runDoctor } from '../clientSetup/doctor.js';
import { profileFor } from '../delivery/clientProfiles.js';
import { READ_META_KEY } from '../delivery/modelRead.js';
import type { Library } from '../library/library.js';
import type { ConnectionHub } from '../mcp/connectionHub.js';
import { MAX_INDEXED_BYTES, type SearchIndex } from '../search/searchIndex.js';
import { SettingsSchema } from '../settings/settingsStore.js';
import type { TrafficLog } from '../traffic/trafficLog.js';
import { createShelf, historyLimits, type Shelf } from './createShelf.js';
import { FileLinks } from './fileLinks.js';
import { completeFolderPath } from './pathCompletion.js';
import type { ServiceOptions } from './serviceOptions.js';
import type { Listener } from './shelfEvents.js';

const PDF_TYPE = 'application/pdf';
/** Where the web host serves file links (webHost.ts routes this prefix). */
export const FILE_LINK_PREFIX = '/file/';

/**
 * The ShelfApi both hosts serve (Electron IPC, the web host), as a thin
 * facade over the parts createShelf built and wired: the folders
 * (FolderRegistry), where clients connect (Endpoints), the library, the MCP
 * connections, the traffic log, settings and the events the window listens to.
 */
export class ShelfService implements ShelfMethods {
  private readonly links = new FileLinks();

  private constructor(private readonly shelf: Shelf) {}

  /** Loads settings, listens on the socket and publishes the folders. */
  static async start(options: ServiceOptions): Promise<ShelfService> {
    return new ShelfService(await createShelf(options));
  }

  get library(): Library {
    return this.shelf.library;
  }

  get hub(): ConnectionHub {
    return this.shelf.hub;
  }

  get traffic(): TrafficLog {
    return this.shelf.traffic;
  }

  get history(): HistoryStore {
    return this.shelf.history;
  }

  get search(): SearchIndex | null {
    return this.shelf.search;
  }

  private get settings(): Settings {
    return this.shelf.settings;
  }

  private get options(): ServiceOptions {
    return this.shelf.options;
  }

  /** The HTTP endpoint and its token, for the CLI's start-up message. */
  get httpEndpoint(): { url: string; token: string | null } | null {
    return this.shelf.endpoints.httpEndpoint;
  }

  get socketPath(): string {
    return this.shelf.endpoints.socketPath;
  }

  on<E extends ShelfEventName>(event: E, listener: Listener<E>): () => void {
    return this.shelf.events.on(event, listener);
  }

  /**
   * A window that can answer asks opened; call the returned function when it
   * closes. With none open (or none answering: `answering`), reads from
   * ask-before-read folders are refused.
   */
  attachWindow(answering: () => boolean = () => true): () => void {
    const { windows, gate } = this.shelf;
    windows.add(answering);
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      windows.delete(answering);
      gate.windowsChanged();
      this.shelf.changeGate.windowsChanged();
    };
  }

  /** A window stopped answering (its browser went quiet): reads waiting on it are refused now if no other can answer. */
  windowsChanged(): void {
    this.shelf.gate.windowsChanged();
    this.shelf.changeGate.windowsChanged();
  }

  // ---- ShelfMethods (arguments were checked by dispatch: apiArguments.ts) ----

  async hostInfo(): Promise<HostInfo> {
    return this.options.host;
  }

  async listFolders(): Promise<FolderInfo[]> {
    return this.shelf.folders.list();
  }

  async addFolders(paths: string[]): Promise<AddFoldersResult> {
    return this.shelf.folders.add(paths);
  }

  async removeFolder(folderPath: string): Promise<void> {
    return this.shelf.folders.remove(folderPath);
  }

  async setFolderEnabled(folderPath: string, enabled: boolean): Promise<FolderInfo> {
    return this.shelf.folders.setEnabled(folderPath, enabled);
  }

  async setFolderOptions(folderPath: string, options: Partial<Omit<FolderOptions, 'enabled'>>): Promise<FolderInfo> {
    return this.shelf.folders.setOptions(folderPath, options);
  }

  async pickFolders(): Promise<string[] | null> {
    return this.options.pickFolders ? this.options.pickFolders() : null;
  }

  async listResources(folder: string, cursor?: string | null): Promise<ResourcePage> {
    // Over the WebSocket an absent cursor arrives as null.
    return this.shelf.folders.resources(folder, cursor ?? undefined);
  }

  async readResource(uri: string): Promise<ReadPreview> {
    try {
      const { contents, size, kind } = await this.library.read(String(uri));
      return { ok: true, result: { contents: [contents] }, size, kind };
    } catch (err) {
      return { ok: false, error: toRpcError(err) };
    }
  }

  /**
   * A PDF's address on the web host (`/file/<id>/<name>`), so the browser's
   * viewer titles it by its name; null for other files, unpublished ones, or
   * where no web host serves it (Electron: the window keeps a blob: URL).
   */
  async fileLink(uri: string): Promise<string | null> {
    if (this.options.host.kind !== 'web') return null;
    const found = this.library.resolve(String(uri));
    if (!found || found.entry.mimeType !== PDF_TYPE) return null;
    const name = path.posix.basename(found.entry.rel);
    return `${FILE_LINK_PREFIX}${this.links.mint(String(uri))}/${encodeURIComponent(name)}`;
  }

  /**
   * What a file link serves: the file read now as the preview reads it
   * (safely, within the read limit), only while it is still a PDF. Null: no
   * such link, or the file is gone, too large or no longer a PDF.
   */
  async readLinked(id: string): Promise<{ bytes: Buffer; mimeType: string } | null> {
    const uri = this.links.uriOf(id);
    if (uri === null) return null;
    try {
      const { contents } = await this.library.read(uri);
      if (!('blob' in contents) || contents.mimeType !== PDF_TYPE) return null;
      return { bytes: Buffer.from(contents.blob, 'base64'), mimeType: contents.mimeType };
    } catch {
      return null;
    }
  }

  async readForModel(uri: string, request: ModelReadRequest): Promise<ModelPreview> {
    const { client, ...args } = request;
    const profile = profileFor({ name: client ?? null, protocolVersion: null }, this.settings.delivery);
    try {
      const read = await this.shelf.modelReader.read({ uri: String(uri), ...args }, profile);
      const position = (read.result._meta?.[READ_META_KEY] ?? {}) as ModelReadPosition;
      return { ok: true, content: read.result.content as ModelContent[], position, detail: read.detail, profile: profile.label };
    } catch (err) {
      return { ok: false, error: toRpcError(err) };
    }
  }

  async getStatus(): Promise<ServerStatus> {
    return this.shelf.status();
  }

  async listClients(): Promise<ClientInfo[]> {
    return this.hub.clients();
  }

  async getSettings(): Promise<Settings> {
    const settings = structuredClone(this.settings);
    // The token in force: a command-line token is not saved, but it is the one clients must send.
    const token = this.shelf.endpoints.tokenInForce;
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
      changes: { ...this.settings.changes, ...(patch?.changes ?? {}) },
    };
    const parsed = SettingsSchema.safeParse(merged);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`Invalid setting ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'malformed'}`);
    }
    const next = parsed.data;
    if (next.socketPath !== this.settings.socketPath && this.options.socketPath === undefined) await this.shelf.endpoints.listen(next.socketPath ?? null);
    if (this.options.maxReadBytes === undefined) this.library.options.maxReadBytes = next.maxReadBytes;
    if (this.options.tools === undefined) this.hub.setServerOptions({ tools: next.tools });
    if (this.shelf.documents && JSON.stringify(next.ocr) !== JSON.stringify(this.settings.ocr)) {
      // Images gain or lose their text, and scanned pages theirs: the index follows.
      this.shelf.documents.setOcr(this.shelf.ocrRequest(next));
      this.search?.reindexAll();
      this.shelf.statusSoon();
    }
    if (JSON.stringify(next.http) !== JSON.stringify(this.settings.http) && this.shelf.endpoints.httpFromSettings) {
      // Restart HTTP with the new address or token before anything is saved:
      // settings the server then refuses (a non-loopback host, a port in use)
      // are rolled back, so no later start fails on them. Sessions end and
      // clients reconnect.
      const previous = this.settings;
      await this.shelf.endpoints.stopHttp();
      this.shelf.settings = next;
      try {
        await this.shelf.startHttp();
      } catch (err) {
        this.shelf.settings = previous;
        // The old settings back; if even they no longer start, HTTP stays off and the error below says why it changed.
        await this.shelf.startHttp().catch((again: Error) => this.options.log?.(`HTTP could not start again on the previous settings: ${again.message}`));
        throw new Error(`HTTP settings not applied: ${(err as Error).message}`);
      }
    }
    this.traffic.setLimits(next.log.maxEntries, next.log.maxBytes);
    this.history.setLimits(historyLimits(next));
    this.shelf.settings = { ...next, http: this.settings.http };
    await this.shelf.store.save(this.settings);
    this.shelf.events.emit('status', this.shelf.status());
    return structuredClone(this.settings);
  }

  async queryTraffic(query: TrafficQuery): Promise<TrafficEntry[]> {
    return this.traffic.query(query);
  }

  async clearTraffic(): Promise<void> {
    this.traffic.clear();
  }

  async trafficRows(query: TrafficQuery): Promise<TrafficRow[]> {
    return this.traffic.rows(query);
  }

  async trafficPayload(seq: number): Promise<string | null> {
    return this.traffic.payload(seq);
  }

  async exportTraffic(query: TrafficQuery): Promise<string> {
    return this.traffic.exportJsonLines(query);
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

  async notIndexed(options: { folder?: string | null; limit?: number | null } | null): Promise<NotIndexedReport> {
    const search = this.search;
    if (!search) throw new Error('Full-text search is off (the searchIndex setting)');
    const folder = options?.folder ? path.resolve(options.folder) : null;
    const folders = this.shelf.library.list().filter((f) => !folder || f.root === folder);
    return {
      ...search.skipped.report(folders, options?.limit ?? 20),
      pending: search.pending,
      maxIndexedBytes: MAX_INDEXED_BYTES,
      untracked: search.skipped.untracked,
    };
  }

  async grepNotIndexed(pattern: string, options: { folder?: string | null; ignoreCase?: boolean | null; cursor?: string | null } | null): Promise<GrepResults> {
    const search = this.search;
    const grep = this.shelf.grep;
    if (!search) throw new Error('Full-text search is off (the searchIndex setting)');
    if (!grep) throw new Error('grep is not available on this shelf');
    const folder = options?.folder ? path.resolve(options.folder) : null;
    const page = await grep.search({
      pattern,
      ignoreCase: options?.ignoreCase ?? true,
      ...(folder ? { folder: (root: string) => root === folder } : {}),
      ...(options?.cursor ? { cursor: options.cursor } : {}),
      // The owner's own grep covers ask-before-read folders too, as the owner's search does.
      only: (f, rel) => search.skipped.has(f, rel),
      maxMatches: 200,
    });
    return {
      files: page.files.map((f) => ({
        uri: f.uri,
        folder: f.folder,
        path: f.path,
        document: f.document,
        lines: f.matches.map((m) => ({ line: m.line, text: m.text })),
      })),
      matches: page.matches,
      scannedFiles: page.scannedFiles,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      ...(page.stoppedBy ? { stoppedBy: page.stoppedBy } : {}),
    };
  }

  async completeFolderPath(typed: string): Promise<string[]> {
    return completeFolderPath(typed);
  }

  async pendingAsks(): Promise<AccessAsk[]> {
    return this.shelf.gate.pending();
  }

  async answerAsk(id: number, decision: AccessDecision): Promise<boolean> {
    return this.shelf.gate.answer(id, decision);
  }

  async pendingChanges(): Promise<ChangeProposal[]> {
    return this.shelf.changeGate.pending();
  }

  async changeDiff(id: number, from: number, count: number, withText: boolean): Promise<ChangeDiffPage | null> {
    return this.shelf.changes.diffPage(id, from, count, withText);
  }

  async answerChange(id: number, decision: ChangeDecision): Promise<boolean> {
    return this.shelf.changeGate.answer(id, decision);
  }

  async undoChange(undoId: string): Promise<UndoResult> {
    return this.shelf.changes.undo(undoId);
  }

  async undoStates(undoIds: string[]): Promise<Record<string, UndoState>> {
    return Object.fromEntries(undoIds.map((id) => [id, this.shelf.changes.undoState(id)]));
  }

  /** Closes connections, the socket (removing its file) and the watchers; writes the history out. */
  async close(): Promise<void> {
    await this.shelf.close();
  }
}
