/**
 * Bounds the server holds clients to, shared so the window and the command
 * line state the same numbers the server enforces.
 */

/** 7 MiB: base64 of this stays under the 10 MiB message cap of the official SDK clients. */
export const DEFAULT_MAX_READ_BYTES = 7 * 1024 * 1024;

/** A line (one JSON-RPC message) longer than this closes the connection. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** A URI a client sends is refused past this length (no file path is this long). */
export const MAX_URI_CHARS = 8192;

/** resources/list page size. */
export const LIST_PAGE_SIZE = 1000;
