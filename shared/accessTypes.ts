import type { AccessChange } from './changeTypes.js';
import type { ReadFailure } from './readFailure.js';

/**
 * The access history and ask-before-read, as ShelfApi carries them: the
 * entries the history keeps, its queries, pages and exports, and a read
 * waiting for the person's answer.
 */

/** How a client's read ended. */
export type AccessOutcome = 'ok' | 'denied' | 'error';

/** One read by a client (a resource read, the read_resource tool or the in-chat app), as the access history keeps it. */
export interface AccessEntry {
  /** Increases with every entry, across restarts. */
  seq: number;
  time: number;
  client: string | null;
  clientVersion: string | null;
  /** The MCP revision the client spoke. */
  protocolVersion: string | null;
  transport: 'socket' | 'http';
  /** How the client read: resources/read, the read_resource tool, or the in-chat app (its own read tool, the person choosing). */
  via: 'resource' | 'tool' | 'app';
  uri: string;
  /** The published folder the file belongs to (null: the URI named no published file). */
  folder: string | null;
  /** Bytes of the file when it was read. */
  size: number | null;
  outcome: AccessOutcome;
  /** For denied and failed reads: the JSON-RPC error code the client got, and its message. */
  errorCode: number | null;
  errorMessage: string | null;
  /** What a tool read gave, when not the whole file as it is: "lines 1–2,000 of 120,000", "pages 3–5, text", "image 1568×1045 JPEG (from 3000×2000 PNG)", "described (binary)". */
  detail?: string | null;
  /** The error's `data.reason`, when it gave one (1005: denied, timeout, no-window, busy…; 1006: no-text…). */
  errorReason?: string;
  /** Why it failed, as the owner reads it (outside, secret, denied by you, no answer…); set on every denied or failed entry. */
  failure?: ReadFailure;
  /** A search by a client (search_resources, grep_resources): what it looked for and how many hits it got; `uri` is empty. */
  search?: AccessSearch;
  /** A change a model proposed (write_resource, edit_resource): what it was and how it ended; `uri` names the file. */
  change?: AccessChange;
  /**
   * Noise by one client in a row (not-found reads, and reads refused
   * without asking anyone: no window, too many waiting), folded into this
   * one entry (which shows the last of them): how many it stands for.
   * Absent for a single read.
   */
  repeated?: number;
}

/** A client's search, as the history keeps it. */
export interface AccessSearch {
  tool: 'search_resources' | 'grep_resources';
  /** The query or pattern, cut to 200 characters. */
  query: string;
  /** Hits (search) or matching lines (grep) given. */
  hits: number;
}

export interface HistoryQuery {
  client?: string;
  /** Only entries that failed for this reason. */
  failure?: ReadFailure;
  /** Only reads, only searches, or only changes. */
  kind?: 'read' | 'search' | 'change';
  folder?: string;
  /** Only entries for this exact URI. */
  uri?: string;
  outcome?: AccessOutcome;
  /** Epoch ms, inclusive. */
  since?: number;
  until?: number;
  /** Only entries with seq below this (the next page, newest first). */
  beforeSeq?: number;
  /** At most this many, newest first (default 200). */
  limit?: number;
}

export interface HistoryPage {
  entries: AccessEntry[];
  /** Pass as beforeSeq for older entries; absent at the end. */
  nextBeforeSeq?: number;
  /** Entries the store holds in all, and since when. */
  total: number;
  oldest: number | null;
  /** Client names the history holds entries of (the 200 with most entries, sorted by name). */
  clients: string[];
  /** Set while the entries of earlier runs are still being counted (total and oldest are not final). */
  counting?: boolean;
}

/** Per file: how often clients read it, and the last read. */
export interface FileAccess {
  uri: string;
  reads: number;
  lastTime: number;
  lastClient: string | null;
}

export type HistoryExportFormat = 'csv' | 'jsonl';

export interface HistoryExport {
  text: string;
  /** Entries in `text`, and how many matched (more than `count` when the export limit cut it). */
  count: number;
  matched: number;
}

/** A read waiting for the person's answer. */
export interface AccessAsk {
  id: number;
  time: number;
  /** When it is denied without an answer. */
  deadline: number;
  /** The name and version the client gives itself (anyone can give any name). */
  client: string | null;
  clientVersion: string | null;
  /** MCP Shelf's own facts about the requester: its connection, how it connects, since when. */
  connectionId: number;
  transport: 'socket' | 'http';
  protocolVersion: string | null;
  /** When the connection began (a 2026-07-28 HTTP client has none: its first request under this name). */
  connectedAt: number;
  /**
   * Whether "Allow this client" is offered: only where consent can be tied
   * to something the client cannot copy (a socket connection, a 2025 HTTP
   * session). A 2026-07-28 HTTP request stands alone, so only this read can be allowed.
   */
  allowClient: boolean;
  uri: string;
  /** The file's path inside its folder. */
  path: string;
  folder: string;
  size: number;
  /** How the client reads: `app` through the in-chat app's read tool (the client's word, as its name is). */
  via?: AccessEntry['via'];
}

/** once: this read; client: every read by this connection until it disconnects (where offered); deny: this read. */
export type AccessDecision = 'once' | 'client' | 'deny';
