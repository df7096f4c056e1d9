import type { ChangeProposal } from './changeTypes.js';
import type { ClientKind } from './shelfApi.js';

/**
 * The in-chat app (MCP Apps, `io.modelcontextprotocol/ui`): the contract
 * between its tools on the server (electron/core/mcp/shelfApp.ts) and its
 * view (renderer/app-view/), which reaches the shelf only through the
 * host's calls to these tools.
 */

/** Clients that show MCP Apps in the conversation (late 2026; /work/shared/CLIENTS.md, README "The shelf in the chat"). */
export const APP_CLIENTS = ['Claude Desktop', 'claude.ai', 'VS Code', 'Cursor', 'ChatGPT', 'Goose'] as const;

/** Which of the Connect panel's configurations connect a client that shows the app. */
export const SHOWS_APP: Record<ClientKind, boolean> = {
  'claude-desktop': true,
  'claude-desktop-bundle': true,
  vscode: true,
  'vscode-http': true,
  cursor: true,
  'cursor-http': true,
  'claude-code': false,
  'claude-code-project': false,
  windsurf: false,
  'gemini-cli': false,
  codex: false,
  goose: true,
  'claude-code-http': false,
};

/** The view: one HTML document, served as `text/html;profile=mcp-app`. */
export const APP_URI = 'ui://mcp-shelf/shelf.html';

/** The tool a model calls to open the shelf in the chat (and, without the extension, to get files as text). */
export const BROWSE_TOOL = 'browse_shelf';

/** Tools only the view calls (`_meta.ui.visibility: ["app"]`): hosts keep them out of the model's list. */
export const APP_TOOLS = {
  /** The published folders, and one directory's entries. */
  list: 'shelf_app_list',
  /** Files whose path contains every word of a filter. */
  find: 'shelf_app_find',
  /** Full-text search, as search_resources, with each hit's folder and path. */
  search: 'shelf_app_search',
  /** A file as the read_resource tool gives it, filed in the history as read by the app. */
  read: 'shelf_app_read',
  /** The calling client's changes waiting for the person's approval (decided only in MCP Shelf's window). */
  changes: 'shelf_app_changes',
} as const;

export interface AppFolder {
  /** The folder's path on disk: pass it back as `folder`. */
  root: string;
  name: string;
  /** Its `file://` URI (no trailing slash): a file's URI is this, `/`, and its path. */
  uri: string;
  /** Files published from it (what is indexed so far while `state` is `indexing`). */
  files: number;
  state: 'indexing' | 'watching' | 'polling' | 'missing' | 'stopped';
  /** Its reads wait for the person's answer in the MCP Shelf window. */
  asks: boolean;
}

export interface AppFile {
  type: 'file';
  /** Path relative to its folder. */
  path: string;
  name: string;
  uri: string;
  mimeType: string;
  /** Bytes, when known. */
  size?: number;
  /** For a document (PDF, Office): its text's URI (`uri?as=text`). */
  textUri?: string;
}

export interface AppDir {
  type: 'dir';
  path: string;
  name: string;
}

export type AppEntry = AppFile | AppDir;

/** shelf_app_list: always the folders; with `folder`, one page of `dir`'s entries (directories first). */
export interface AppListResult {
  folders: AppFolder[];
  folder?: string;
  dir?: string;
  entries?: AppEntry[];
  /** Pass back as `cursor` for the rest of the directory. */
  nextCursor?: string;
}

/** shelf_app_find: matches with the file name's first, then those matching in the folder path. */
export interface AppFindResult {
  matches: Array<AppFile & { folder: string }>;
  /** More files matched than were returned. */
  more: boolean;
}

export interface AppSearchHit extends AppFile {
  folder: string;
  score: number;
  line: number;
  /** The best line with matched words in `**bold**` (see snippetMarks.ts). */
  snippet: string;
}

export interface AppSearchResult {
  hits: AppSearchHit[];
  nextCursor?: string;
  indexing: boolean;
  /** Folders that ask before each read are not searched (as for search_resources). */
  notSearched?: string[];
}

/** browse_shelf's structured result: what the view opens on. */
export interface BrowseResult {
  folders: AppFolder[];
  folder?: string;
  query?: string;
  /** Files whose path matches the query (or, with only a folder, its first files). */
  files: Array<AppFile & { folder: string }>;
  /** More files matched than `files` holds. */
  moreFiles?: boolean;
  /** Full-text hits for the query. */
  hits: AppSearchHit[];
  /** The search index was still being built: `hits` may be incomplete. */
  indexing?: boolean;
}

/**
 * A change the calling client proposed, waiting for the person's decision in
 * the MCP Shelf window: the proposal's file, kind, lines ± and times, none
 * of who asked (the app is that client) or of the diff.
 */
export type AppChange = Pick<ChangeProposal, 'uri' | 'folder' | 'path' | 'kind' | 'added' | 'removed' | 'time' | 'deadline'>;

/** shelf_app_changes: only the calling connection's proposals, oldest first; it answers none of them. */
export interface AppChangesResult {
  changes: AppChange[];
}
