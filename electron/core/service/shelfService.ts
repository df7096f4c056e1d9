import { randomBytes } from 'node:crypto';
import path from 'node:path';

import type {
  AddFoldersResult,
  ClientConfigSnippet,
  ClientInfo,
  ClientSetupResult,
  FolderInfo,
  FolderOptions,
  HostInfo,
  ReadPreview,
  ResourcePage,
  ServerStatus,
  Settings,
  SettingsPatch,
  SetupClient,
  ShelfEventName,
  ShelfEvents,
  ShelfMethods,
  TrafficEntry,
  TrafficQuery,
} from '../../../shared/shelfApi.js';
import { installClientConfig } from '../clientSetup/clientConfigFile.js';
import { folderProblem, Library } from '../library/library.js';
import type { PublishedFolder } from '../library/publishedFolder.js';
import type { RuleOptions } from '../library/rules.js';
import { ConnectionHub } from '../mcp/connectionHub.js';
import { SettingsSchema, SettingsStore } from '../settings/settingsStore.js';
import { TrafficLog } from '../traffic/trafficLog.js';
import type { HttpEndpoint } from '../transport/httpServer.js';
import { defaultSocketPath, prepareSocketDir } from '../transport/socketPath.js';
import { type ListeningSocket,listenSocket } from '../transport/socketServer.js';
import { VERSION } from '../version.js';
import { type BridgeCommand,clientConfigs } from './clientConfigs.js';

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
  http?: { host: string; port: number; token?: string; noAuth?: boolean; allowRemote?: boolean };
  /** The bridge command clients should launch. */
  bridge: (socketPath: string) => BridgeCommand;
  pickFolders?: () => Promise<string[] | null>;
  log?: (message: string) => void;
}

interface ManagedFolder {
  path: string;
  options: FolderOptions;
  saved: boolean;
  /** The published folder while enabled. */
  published: PublishedFolder | null;
  /** Why it could not be published. */
  failure: string | null;
}

type Listener<E extends ShelfEventName> = (payload: ShelfEvents[E]) => void;

const FOLDER_EVENT_DEBOUNCE_MS = 100;

/** A new folder's options: published, dotfiles hidden, .gitignore honoured, unless given. */
function folderOptions(given: Partial<Omit<FolderOptions, 'enabled'>> = {}): FolderOptions {
  return { enabled: true, showHidden: given.showHidden ?? false, gitignore: given.gitignore ?? true, extraIgnore: given.extraIgnore ?? [] };
}

const ruleOptions = (o: FolderOptions): RuleOptions => ({ showHidden: o.showHidden, gitignore: o.gitignore, extraIgnore: o.extraIgnore });

/**
 * All behaviour behind the window, in one object: the library, the MCP
 * connections, the traffic log and settings. Both hosts (Electron IPC, the
 * web host) are thin adapters over these methods and events.
 */
export class ShelfService implements ShelfMethods {
  readonly library: Library;
  readonly hub: ConnectionHub;
  readonly traffic: TrafficLog;
  private readonly store: SettingsStore;
  private settings: Settings;
  private readonly folders: ManagedFolder[] = [];
  private readonly listeners = new Map<ShelfEventName, Set<Listener<ShelfEventName>>>();
  private socket: ListeningSocket | null = null;
  private http: HttpEndpoint | null = null;
  /** The token the running HTTP endpoint checks (the command line's, or the saved one). */
  private httpToken: string | null = null;
  private httpAuth = true;
  private readonly startedAt = Date.now();
  private folderTimer: NodeJS.Timeout | null = null;
  private readonly unsubscribers: Array<() => void> = [];

  private constructor(
    private readonly options: ServiceOptions,
    settings: Settings,
  ) {
    this.store = new SettingsStore(options.settingsDir);
    this.settings = settings;
    this.library = new Library({ maxReadBytes: options.maxReadBytes ?? settings.maxReadBytes });
    this.traffic = new TrafficLog({ maxEntries: settings.log.maxEntries, maxBytes: settings.log.maxBytes });
    this.hub = new ConnectionHub(this.library, { log: options.log, traffic: this.traffic, server: { tools: options.tools ?? settings.tools } });
  }

  /** Loads settings, publishes the folders and listens on the socket. */
  static async start(options: ServiceOptions): Promise<ShelfService> {
    const store = new SettingsStore(options.settingsDir);
    const { settings, warning } = await store.load();
    if (warning) options.log?.(warning);
    const service = new ShelfService(options, settings);
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
        folderState: (_f, message) => {
          log(message);
          this.foldersChanged();
        },
      }),
      this.hub.onChange(() => {
        this.emit('clients', this.hub.clients());
        void this.getStatus().then((s) => this.emit('status', s));
      }),
      this.traffic.subscribe((batch) => this.emit('traffic', batch)),
    );
    if (this.options.sessionFolders) {
      const session = this.options.sessionRules ?? {};
      for (const p of this.options.sessionFolders) {
        this.folders.push({
          path: path.resolve(p),
          options: folderOptions(session),
          saved: false,
          published: null,
          failure: null,
        });
      }
    } else {
      for (const f of this.settings.folders) {
        const { path: p, ...options } = f;
        this.folders.push({ path: p, options, saved: true, published: null, failure: null });
      }
    }
    // The socket first: a second instance is found out at once, and clients can
    // connect while folders are indexed (each sends list_changed when its files come in).
    const socketPath = this.options.socketPath ?? this.settings.socketPath ?? defaultSocketPath();
    await prepareSocketDir(socketPath, socketPath === defaultSocketPath());
    this.socket = await listenSocket(socketPath, (s) => this.hub.acceptSocket(s));
    for (const f of this.folders) if (f.options.enabled) await this.publish(f, this.options.sessionFolders === undefined);
    await this.startHttpIfWanted();
  }

  /** Starts Streamable HTTP from the command line, or from settings when enabled there. */
  private async startHttpIfWanted(): Promise<void> {
    const cli = this.options.http;
    if (!cli && !this.settings.http.enabled) return;
    // A token from the command line is for that run (it is not saved); one is made and saved when settings have none.
    let token: string | null = null;
    let made = false;
    if (!cli?.noAuth) {
      token = cli?.token ?? this.settings.http.token ?? null;
      if (!token) {
        token = randomBytes(24).toString('base64url');
        made = true;
      }
    }
    // Loaded only when wanted: the SDK's HTTP transport is a good part of start-up time.
    const { startHttp } = await import('../transport/httpServer.js');
    this.http = await startHttp({
      host: cli?.host ?? this.settings.http.host,
      port: cli?.port ?? this.settings.http.port,
      token,
      allowRemote: cli?.allowRemote ?? false,
      hub: this.hub,
      log: this.options.log,
    });
    this.httpAuth = token !== null;
    this.httpToken = token;
    if (made) {
      this.settings = { ...this.settings, http: { ...this.settings.http, token } };
      await this.store.save(this.settings);
    }
  }

  /** The HTTP endpoint and its token, for the CLI's start-up message. */
  get httpEndpoint(): { url: string; token: string | null } | null {
    return this.http ? { url: this.http.url, token: this.httpAuth ? this.httpToken : null } : null;
  }

  /** Publishes a managed folder; a saved folder that is missing now waits for it to return. */
  private async publish(f: ManagedFolder, allowMissing: boolean): Promise<void> {
    try {
      f.published = await this.library.add(f.path, ruleOptions(f.options), { allowMissing });
      f.failure = null;
    } catch (err) {
      f.published = null;
      f.failure = (err as Error).message;
      if (!allowMissing) throw err;
    }
  }

  get socketPath(): string {
    return this.socket?.path ?? '';
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

  private foldersChanged(): void {
    if (this.folderTimer) return;
    this.folderTimer = setTimeout(() => {
      this.folderTimer = null;
      void this.listFolders().then((f) => this.emit('folders', f));
      void this.getStatus().then((s) => this.emit('status', s));
    }, FOLDER_EVENT_DEBOUNCE_MS);
  }

  private find(folderPath: string): ManagedFolder {
    const abs = path.resolve(String(folderPath));
    const f = this.folders.find((x) => x.path === abs);
    if (!f) throw new Error(`Not a published folder: ${abs}`);
    return f;
  }

  private info(f: ManagedFolder): FolderInfo {
    const p = f.published;
    const state = !f.options.enabled ? 'disabled' : p ? (p.state === 'stopped' ? 'missing' : p.state) : 'error';
    return {
      path: f.path,
      options: { ...f.options, extraIgnore: [...f.options.extraIgnore] },
      state,
      error: f.options.enabled ? (p?.error ?? f.failure) : null,
      fileCount: p?.fileCount ?? 0,
      totalBytes: p?.totalBytes ?? 0,
      indexMs: p?.indexMs === null || p?.indexMs === undefined ? null : Math.round(p.indexMs),
      saved: f.saved,
    };
  }

  private async persist(): Promise<void> {
    const saved = this.folders.filter((f) => f.saved).map((f) => ({ path: f.path, ...f.options }));
    this.settings = { ...this.settings, folders: saved };
    await this.store.save(this.settings);
  }

  // ---- ShelfMethods ----

  async hostInfo(): Promise<HostInfo> {
    return this.options.host;
  }

  async listFolders(): Promise<FolderInfo[]> {
    return this.folders.map((f) => this.info(f));
  }

  async addFolders(paths: string[]): Promise<AddFoldersResult> {
    const result: AddFoldersResult = { added: [], refused: [] };
    for (const raw of paths) {
      if (typeof raw !== 'string' || raw.trim() === '' || raw.includes('\0')) {
        result.refused.push({ path: String(raw), reason: 'Not a path' });
        continue;
      }
      const abs = path.resolve(raw.trim());
      const problem = await folderProblem(abs);
      if (problem) {
        result.refused.push({ path: abs, reason: problem });
        continue;
      }
      if (this.folders.some((f) => f.path === abs)) {
        result.refused.push({ path: abs, reason: 'Already published' });
        continue;
      }
      const f: ManagedFolder = {
        path: abs,
        options: folderOptions(),
        saved: true,
        published: null,
        failure: null,
      };
      try {
        await this.publish(f, false);
      } catch (err) {
        result.refused.push({ path: abs, reason: (err as Error).message });
        continue;
      }
      this.folders.push(f);
      result.added.push(abs);
    }
    if (result.added.length > 0) {
      await this.persist();
      this.foldersChanged();
    }
    return result;
  }

  async removeFolder(folderPath: string): Promise<void> {
    const f = this.find(folderPath);
    if (f.published) await this.library.remove(f.path);
    this.folders.splice(this.folders.indexOf(f), 1);
    if (f.saved) await this.persist();
    this.foldersChanged();
  }

  async setFolderEnabled(folderPath: string, enabled: boolean): Promise<FolderInfo> {
    const f = this.find(folderPath);
    if (enabled !== f.options.enabled) {
      f.options.enabled = enabled;
      if (enabled) await this.publish(f, true);
      else if (f.published) {
        await this.library.remove(f.path);
        f.published = null;
      }
      if (f.saved) await this.persist();
      this.foldersChanged();
    }
    return this.info(f);
  }

  async setFolderOptions(folderPath: string, options: Partial<Omit<FolderOptions, 'enabled'>>): Promise<FolderInfo> {
    const f = this.find(folderPath);
    f.options = { ...f.options, ...options };
    if (f.published) f.published = await this.library.reconfigure(f.path, ruleOptions(f.options));
    if (f.saved) await this.persist();
    this.foldersChanged();
    return this.info(f);
  }

  async pickFolders(): Promise<string[] | null> {
    return this.options.pickFolders ? this.options.pickFolders() : null;
  }

  async listResources(folder: string, cursor?: string | null): Promise<ResourcePage> {
    const f = this.find(folder);
    if (!f.published) return { resources: [] };
    // Over the WebSocket an absent cursor arrives as null.
    return this.library.listResources(cursor ?? undefined, 1000, f.path);
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

  async getStatus(): Promise<ServerStatus> {
    const published = this.library.list();
    return {
      version: VERSION,
      socketPath: this.socketPath,
      httpUrl: this.http?.url ?? null,
      httpAuth: this.httpAuth,
      startedAt: this.startedAt,
      uptimeMs: Date.now() - this.startedAt,
      connections: this.hub.size,
      folders: published.length,
      files: published.reduce((n, f) => n + f.fileCount, 0),
      traffic: { entries: this.traffic.size, bytes: this.traffic.byteSize, maxEntries: this.settings.log.maxEntries, maxBytes: this.settings.log.maxBytes },
    };
  }

  async listClients(): Promise<ClientInfo[]> {
    return this.hub.clients();
  }

  async getSettings(): Promise<Settings> {
    const settings = structuredClone(this.settings);
    // The token in force: a command-line token is not saved, but it is the one clients must send.
    if (this.http && this.httpToken !== null) settings.http.token = this.httpToken;
    return settings;
  }

  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    const merged = {
      ...this.settings,
      ...(patch?.maxReadBytes !== undefined ? { maxReadBytes: patch.maxReadBytes } : {}),
      ...(patch?.socketPath !== undefined ? { socketPath: patch.socketPath } : {}),
      http: { ...this.settings.http, ...(patch?.http ?? {}) },
      log: { ...this.settings.log, ...(patch?.log ?? {}) },
    };
    const parsed = SettingsSchema.safeParse(merged);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`Invalid setting ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'malformed'}`);
    }
    const next = parsed.data;
    if (next.socketPath !== this.settings.socketPath && this.options.socketPath === undefined) {
      await this.moveSocket(next.socketPath ?? defaultSocketPath());
    }
    if (this.options.maxReadBytes === undefined) this.library.options.maxReadBytes = next.maxReadBytes;
    if (this.options.tools === undefined) this.hub.setServerOptions({ tools: next.tools });
    const httpChanged = JSON.stringify(next.http) !== JSON.stringify(this.settings.http);
    if (httpChanged && this.options.http === undefined) {
      // Restart HTTP with the new address or token before anything is saved:
      // settings the server then refuses (a non-loopback host, a port in use)
      // are rolled back, so no later start fails on them. Sessions end and
      // clients reconnect.
      const previous = this.settings;
      await this.http?.close();
      this.http = null;
      this.settings = next;
      try {
        await this.startHttpIfWanted();
      } catch (err) {
        this.settings = previous;
        await this.startHttpIfWanted().catch(() => undefined);
        throw new Error(`HTTP settings not applied: ${(err as Error).message}`);
      }
    }
    this.traffic.setLimits(next.log.maxEntries, next.log.maxBytes);
    this.settings = { ...next, http: this.settings.http };
    await this.store.save(this.settings);
    this.emit('status', await this.getStatus());
    return structuredClone(this.settings);
  }

  /** Listens on the new path first, so a bad path leaves the old socket serving. */
  private async moveSocket(socketPath: string): Promise<void> {
    await prepareSocketDir(socketPath, socketPath === defaultSocketPath());
    const next = await listenSocket(socketPath, (s) => this.hub.acceptSocket(s));
    const old = this.socket;
    this.socket = next;
    await old?.close();
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

  async clientConfigs(): Promise<ClientConfigSnippet[]> {
    return clientConfigs(this.options.bridge(this.socketPath), this.options.host.platform, this.httpEndpoint);
  }

  async installClientConfig(client: SetupClient): Promise<ClientSetupResult> {
    if (client !== 'claude-desktop' && client !== 'cursor' && client !== 'vscode') throw new Error(`Unknown client: ${String(client)}`);
    return installClientConfig(client, this.options.bridge(this.socketPath));
  }

  /** Closes connections, the socket (removing its file) and the watchers. */
  async close(): Promise<void> {
    if (this.folderTimer) clearTimeout(this.folderTimer);
    for (const u of this.unsubscribers.splice(0)) u();
    const closing = this.socket?.close();
    await this.http?.close();
    await this.hub.closeAll();
    await closing;
    await this.library.close();
    this.traffic.close();
    this.listeners.clear();
  }
}
