/**
 * The one contract between the window and the core. Both hosts (Electron IPC
 * and the web host's WebSocket) carry exactly these methods and events, bound
 * from the name tables below, so no host can drift.
 */

import type { AccessAsk, AccessDecision, AccessEntry, FileAccess, HistoryExport, HistoryExportFormat, HistoryPage, HistoryQuery } from './accessTypes.js';
import type { ChangeDecision, ChangeDiffPage, ChangeProposal, UndoResult, UndoState } from './changeTypes.js';
import type { ClientConfigSnippet, ClientSetupResult, DoctorReport, SetupClient } from './clientSetupTypes.js';

// The contract's types by area, all reachable from here.
export type * from './accessTypes.js';
export type * from './clientSetupTypes.js';
export type * from './searchTypes.js';
export type * from './trafficTypes.js';
import type { GrepResults, NotIndexedReport } from './searchTypes.js';
import type { TrafficEntry, TrafficQuery, TrafficRow } from './trafficTypes.js';

export interface FolderOptions {
  enabled: boolean;
  showHidden: boolean;
  gitignore: boolean;
  extraIgnore: string[];
  /** Each client read waits for the person to allow it (the window asks); listing is not affected. */
  askBeforeRead: boolean;
  /**
   * Changes by AI: `off` (no write tool reaches this folder), or `ask` (a
   * model may propose a new file or an edit, written only once the person
   * approves it in the window).
   */
  changes: 'off' | 'ask';
}

export type FolderState = 'indexing' | 'watching' | 'polling' | 'missing' | 'disabled' | 'error';

export interface FolderInfo {
  path: string;
  options: FolderOptions;
  state: FolderState;
  /** Why the folder is not served (missing, unreadable…), or a watcher note. */
  error: string | null;
  fileCount: number;
  /** Bytes of its files; partial while `sizing`. */
  totalBytes: number;
  /** Its files' sizes are still being read after a full index (they are listed first, stat'ed after). */
  sizing: boolean;
  /** How long its last full index took, in milliseconds (null before one finished). */
  indexMs: number | null;
  /** Saved in settings (false: given on the command line for this run only). */
  saved: boolean;
  /**
   * What the last full index left out, by rule — secrets (always), dotfiles,
   * extra patterns, .gitignore — with how many (an excluded folder counts
   * once) and the first few paths (folders end with /).
   */
  hidden: Array<{ rule: 'secret' | 'dotfile' | 'extra' | 'gitignore'; count: number; examples: string[] }>;
}

export interface ResourceInfo {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  size: number;
  annotations: { lastModified: string };
  /** In the window's listing: the server gives this document's text (`?as=text`), so the preview opens on it. */
  hasText?: true;
}

export interface ResourcePage {
  resources: ResourceInfo[];
  nextCursor?: string;
}

export type ResourceContents =
  | { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType: string; blob: string; _meta?: Record<string, unknown> };

/** A read exactly as an MCP client gets it: the `resources/read` result, or its JSON-RPC error. */
export type ReadPreview =
  | { ok: true; result: { contents: ResourceContents[] }; size: number; kind: 'text' | 'blob' }
  | { ok: false; error: { code: number; message: string; data?: unknown } };

/** One item of a tool result, as a model receives it (the read_resource tool). */
export type ModelContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; title?: string; mimeType?: string; size?: number }
  | { type: 'resource'; resource: ResourceContents };

/** Where a tool read stopped, as its result's `_meta["dev.mcpshelf/read"]` says. */
export interface ModelReadPosition {
  firstLine?: number;
  lastLine?: number;
  totalLines?: number;
  startColumn?: number;
  next?: { offset: number; column?: number } | null;
  image?: { width: number; height: number; mimeType: string; original: { format: string; width: number; height: number }; converted: boolean };
  /** A binary described, not shown (its size in bytes). */
  described?: boolean;
  size?: number;
  /** What the read gave, as the history and the traffic log say it. */
  detail?: string;
  /** A document's text: how many parts (pages, slides, sheets) it has, what they are called, and which were read. */
  document?: { kind: string; parts: number; partName: string; from: number; to: number };
}

/** What to read with the read_resource tool, and as which client. */
export interface ModelReadRequest {
  offset?: number;
  limit?: number;
  column?: number;
  pages?: string;
  /** A client's name (clientInfo), for its profile; absent: any other client. */
  client?: string;
}

/** A read exactly as a model gets it through read_resource: the tool's result, or its error. */
export type ModelPreview =
  | { ok: true; content: ModelContent[]; position: ModelReadPosition; detail: string; profile: string }
  | { ok: false; error: { code: number; message: string; data?: unknown } };

export interface ServerStatus {
  version: string;
  socketPath: string;
  /** Streamable HTTP endpoint when on. */
  httpUrl: string | null;
  /** Whether HTTP clients must send the bearer token (see getSettings for it). */
  httpAuth: boolean;
  startedAt: number;
  uptimeMs: number;
  connections: number;
  folders: number;
  files: number;
  /** The traffic log ring: entries held and their accounted size, against its bounds, and how many older ones it dropped. */
  traffic: { entries: number; bytes: number; maxEntries: number; maxBytes: number; dropped: number };
  /** The read limit in force (a command-line value overrides the saved setting for the run). */
  maxReadBytes: number;
  /** The full-text index: null when off; otherwise files indexed and still waiting, and whether it is full (files left out). */
  search: { indexed: number; pending: number; full: boolean; maxFiles: number } | null;
  /** Whether images (PNG, JPEG, WebP, TIFF) have text by OCR, as a `?as=text` companion like a document's. */
  ocr?: boolean;
  /**
   * The memory held for clients (input waiting, replies being built, output
   * unsent, subscribed URIs), in bytes, against the total shared by all of
   * them (each connection has a small part of its own beside it).
   */
  clientMemory?: { held: number; total: number };
}

/** One file a content search found, best first. */
export interface SearchHit {
  /** What to read: the file, or for a document its text (`…?as=text`). */
  uri: string;
  fileUri: string;
  folder: string;
  path: string;
  score: number;
  line: number;
  /** The best matching line, cut around the match, with matched words in **bold**. */
  snippet: string;
}

export interface SearchResults {
  hits: SearchHit[];
  /** Ranked matches in all (before phrase checks). */
  total: number;
  nextCursor?: string;
  /** Files still waiting to be indexed (0: complete). */
  pending: number;
  indexed: number;
  /** Folders left out because they ask before each read. */
  notSearched: string[];
  /** Some files were not indexed: the index holds its most. */
  full: boolean;
  /** The query read only its first postings (a query's work is capped): other files may match too. */
  partial?: boolean;
}

export interface ClientInfo {
  id: number;
  name: string | null;
  version: string | null;
  /** The MCP revision it speaks: 2026-07-28, or the one a 2025-era handshake settled on; null before it says. */
  protocolVersion: string | null;
  transport: 'socket' | 'http';
  connectedAt: number;
  requests: number;
}

/** What the tools give a model (README, "What the tools give a model"). */
export interface DeliverySettings {
  /** Characters of text a tool result holds at most (a read is cut there and says where to go on). */
  textBudget: number;
  /** Images go to a model at most this many pixels on their longest side… */
  imageMaxSide: number;
  /** …and this many bytes. */
  imageMaxBytes: number;
  /** Per client name (as the client declares itself, any case): what differs from its built-in profile. */
  clients: Record<string, { textBudget?: number; images?: boolean; links?: boolean; embedOriginals?: boolean }>;
}

export interface Settings {
  folders: Array<{ path: string } & FolderOptions>;
  maxReadBytes: number;
  /** null: the per-user default. */
  socketPath: string | null;
  http: { enabled: boolean; host: string; port: number; token: string | null };
  /** Offer the read-only tools that mirror the resources (applies to new connections). */
  tools: boolean;
  /** Keep a full-text index of the published text (search_resources and the window's content search). */
  searchIndex: boolean;
  log: { maxEntries: number; maxBytes: number };
  /** The access history on disk: entries older than maxAgeDays, or past maxBytes, are dropped oldest first. */
  history: { maxAgeDays: number; maxBytes: number };
  /** How long a read from an ask-before-read folder waits for an answer before it is denied. */
  askTimeoutSeconds: number;
  delivery: DeliverySettings;
  /** Text of images and scanned PDF pages by OCR: on or off, and its languages (Tesseract codes; English ships). */
  ocr: { enabled: boolean; languages: string[] };
  /**
   * Changes by AI (folders with `changes: 'ask'`): the largest file a change
   * may write, and how much of the previous versions Undo needs is kept.
   */
  changes: { maxBytes: number; keepBytes: number; keepDays: number };
}

/** What the window may change with updateSettings (folders have their own methods). */
export type SettingsPatch = Partial<Pick<Settings, 'maxReadBytes' | 'socketPath' | 'tools' | 'askTimeoutSeconds'>> & {
  http?: Partial<Settings['http']>;
  log?: Partial<Settings['log']>;
  history?: Partial<Settings['history']>;
  delivery?: Partial<DeliverySettings>;
  ocr?: Partial<Settings['ocr']>;
  changes?: Partial<Settings['changes']>;
};

export interface HostInfo {
  kind: 'electron' | 'web';
  /** True when pickFolders opens a native dialog; otherwise the window asks for a path. */
  nativePicker: boolean;
  platform: string;
  /** The home folder of the account the shelf runs as (the window asks before publishing it, or a folder above it, whole). */
  home: string;
}

/** Outcome of adding folders: each path either added or refused with a reason. */
export interface AddFoldersResult {
  added: string[];
  refused: Array<{ path: string; reason: string }>;
}

export interface ShelfMethods {
  hostInfo(): Promise<HostInfo>;
  listFolders(): Promise<FolderInfo[]>;
  addFolders(paths: string[]): Promise<AddFoldersResult>;
  removeFolder(path: string): Promise<void>;
  setFolderEnabled(path: string, enabled: boolean): Promise<FolderInfo>;
  setFolderOptions(path: string, options: Partial<Omit<FolderOptions, 'enabled'>>): Promise<FolderInfo>;
  /** Native picker; null where the host has none (see HostInfo.nativePicker) or the user cancelled. */
  pickFolders(): Promise<string[] | null>;
  listResources(folder: string, cursor?: string): Promise<ResourcePage>;
  readResource(uri: string): Promise<ReadPreview>;
  /** A same-origin address the web host serves a PDF at, ending in its name (its viewer's title); null elsewhere. */
  fileLink(uri: string): Promise<string | null>;
  /** What a model gets for the file through the read_resource tool (the person looking: not recorded, never asks). */
  readForModel(uri: string, request: ModelReadRequest): Promise<ModelPreview>;
  getStatus(): Promise<ServerStatus>;
  listClients(): Promise<ClientInfo[]>;
  getSettings(): Promise<Settings>;
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  queryTraffic(query: TrafficQuery): Promise<TrafficEntry[]>;
  clearTraffic(): Promise<void>;
  exportTraffic(query: TrafficQuery): Promise<string>;
  /** The matching messages without their JSON, as the live `traffic` event sends them. */
  trafficRows(query: TrafficQuery): Promise<TrafficRow[]>;
  /** One message's JSON (TrafficEntry.payload, at most 1 MiB of it), or null once the log no longer holds it. */
  trafficPayload(seq: number): Promise<string | null>;
  clientConfigs(): Promise<ClientConfigSnippet[]>;
  /** Adds or updates the mcp-shelf entry in the client's own config file. */
  installClientConfig(client: SetupClient): Promise<ClientSetupResult>;
  /** The Compatibility Doctor: each client config found, checked, and its entry run as the client would. Writes nothing. */
  runDoctor(): Promise<DoctorReport[]>;
  /** The access history, newest first. */
  queryHistory(query: HistoryQuery): Promise<HistoryPage>;
  /** Read counts of every file the history holds a successful read of. */
  fileAccess(): Promise<FileAccess[]>;
  exportHistory(query: HistoryQuery, format: HistoryExportFormat): Promise<HistoryExport>;
  clearHistory(): Promise<void>;
  /** Reads waiting for an answer (also sent as the `asks` event whenever the list changes). */
  pendingAsks(): Promise<AccessAsk[]>;
  /** Answers a waiting read; false when it was no longer waiting (answered elsewhere, timed out, client gone). */
  answerAsk(id: number, decision: AccessDecision): Promise<boolean>;
  /**
   * Changes a model proposed, waiting for a decision (also the `changes`
   * event); a page of one's diff (`count` hunks from `from`, its whole text
   * when `withText`; null once it stopped waiting); the decision (false: it
   * no longer waited); History's Undo, and whether each change can be undone.
   */
  pendingChanges(): Promise<ChangeProposal[]>;
  changeDiff(id: number, from: number, count: number, withText: boolean): Promise<ChangeDiffPage | null>;
  answerChange(id: number, decision: ChangeDecision): Promise<boolean>;
  undoChange(undoId: string): Promise<UndoResult>;
  undoStates(undoIds: string[]): Promise<Record<string, UndoState>>;
  /** Folders on the host whose path starts with `typed` (for the path field; `~` is the home folder). */
  completeFolderPath(typed: string): Promise<string[]>;
  /** Full-text search, as the search_resources tool answers it (ask-before-read folders left out). */
  searchContent(query: string, options: { folder?: string; cursor?: string; limit?: number }): Promise<SearchResults>;
  /** The files content search cannot find (not in its index), named up to `limit`, with counts. */
  notIndexed(options: { folder?: string; limit?: number }): Promise<NotIndexedReport>;
  /** grep (RE2, line by line) over just the files the index left out: what search cannot find there. */
  grepNotIndexed(pattern: string, options: { folder?: string; ignoreCase?: boolean; cursor?: string }): Promise<GrepResults>;
}

export interface ShelfEvents {
  /** New messages, at most 1,000 a batch and 5 batches a second; a gap in `seq` is messages sent faster than that (the log has them). */
  traffic: TrafficRow[];
  folders: FolderInfo[];
  clients: ClientInfo[];
  status: ServerStatus;
  /** New access history entries, in order; an empty batch: reload the counts (the history changed as a whole). */
  access: AccessEntry[];
  /** Every read now waiting for an answer. */
  asks: AccessAsk[];
  /** Every change now waiting for a decision. */
  changes: ChangeProposal[];
}

export type ShelfMethodName = keyof ShelfMethods;
export type ShelfEventName = keyof ShelfEvents;

export interface ShelfApi extends ShelfMethods {
  on<E extends ShelfEventName>(event: E, listener: (payload: ShelfEvents[E]) => void): () => void;
}

/** Every method, once. The satisfies clauses make a missing or extra name a compile error. */
export const SHELF_METHODS = [
  'hostInfo',
  'listFolders',
  'addFolders',
  'removeFolder',
  'setFolderEnabled',
  'setFolderOptions',
  'pickFolders',
  'listResources',
  'readResource',
  'getStatus',
  'listClients',
  'getSettings',
  'updateSettings',
  'queryTraffic',
  'clearTraffic',
  'exportTraffic',
  'trafficRows',
  'trafficPayload',
  'clientConfigs',
  'installClientConfig',
  'runDoctor',
  'queryHistory',
  'fileAccess',
  'exportHistory',
  'clearHistory',
  'pendingAsks',
  'answerAsk',
  'pendingChanges',
  'changeDiff',
  'answerChange',
  'undoChange',
  'undoStates',
  'searchContent',
  'notIndexed',
  'grepNotIndexed',
  'completeFolderPath',
  'readForModel',
  'fileLink',
] as const satisfies readonly ShelfMethodName[];

export const SHELF_EVENTS = ['traffic', 'folders', 'clients', 'status', 'access', 'asks', 'changes'] as const satisfies readonly ShelfEventName[];

type Exhaustive<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : { missing: Exclude<All, Listed> };
export const methodsAreExhaustive: Exhaustive<ShelfMethodName, (typeof SHELF_METHODS)[number]> = true;
export const eventsAreExhaustive: Exhaustive<ShelfEventName, (typeof SHELF_EVENTS)[number]> = true;

/** Electron IPC channel names, derived from the tables. */
export const ipcChannel = (method: ShelfMethodName): string => `shelf:${method}`;
export const IPC_EVENT_CHANNEL = 'shelf:event';

/**
 * The web host's WebSocket: the window offers the API subprotocol and its
 * key as a second one (`token.<key>`); the host answers with the API one.
 */
export const WEB_API_PROTOCOL = 'mcp-shelf.v1';
export const WEB_TOKEN_PROTOCOL_PREFIX = 'token.';
export const webApiProtocols = (token: string): string[] => [WEB_API_PROTOCOL, `${WEB_TOKEN_PROTOCOL_PREFIX}${token}`];

/**
 * Builds a ShelfApi from a transport: `invoke` sends one method call,
 * `listen` delivers events. The preload and the WebSocket client both use
 * this, so both expose exactly the table's methods.
 */
export function createShelfClient(
  invoke: (method: ShelfMethodName, args: unknown[]) => Promise<unknown>,
  listen: (event: ShelfEventName, listener: (payload: unknown) => void) => () => void,
): ShelfApi {
  const api: Record<string, unknown> = {};
  for (const method of SHELF_METHODS) {
    api[method] = (...args: unknown[]) => invoke(method, args);
  }
  api.on = (event: ShelfEventName, listener: (payload: unknown) => void) => {
    if (!(SHELF_EVENTS as readonly string[]).includes(event)) throw new Error(`Unknown event: ${String(event)}`);
    return listen(event, listener);
  };
  return api as unknown as ShelfApi;
}

/** WebSocket frames of the web host. */
export type WireFrame =
  | { type: 'call'; id: number; method: ShelfMethodName; args: unknown[] }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: string }
  | { type: 'event'; event: ShelfEventName; payload: unknown };
