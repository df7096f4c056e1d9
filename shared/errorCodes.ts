/**
 * JSON-RPC error codes the server answers with. Shared so the window shows
 * exactly the code a client gets.
 */
export const ErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /**
   * Unknown, outside every published folder, hidden, ignored or deleted: one
   * answer for all, -32602 with `data.uri` in every protocol revision (the
   * 2026-07-28 rule; the official SDK sends it to 2025 clients too, and
   * 2025 clients treat any error code alike).
   */
  resourceNotFound: -32602,
  /**
   * Our own codes live outside the JSON-RPC reserved range (-32768…-32000):
   * since 2026-07-28, -32000…-32019 is a legacy band where nothing new may be
   * allocated, and the rest of the range belongs to the spec.
   */
  permissionDenied: 1003,
  resourceTooLarge: 1004,
  /**
   * A read from an ask-before-read folder that was not allowed: the person
   * denied it, did not answer in time, or no window was open to ask.
   * `data.reason` says which ('denied', 'timeout', 'no-window').
   */
  readNotAllowed: 1005,
  /**
   * A document's text (`…?as=text`) cannot be given: no text layer (a scan),
   * encrypted, corrupt, too large or too slow to extract. `data.reason` says
   * which; the file itself can still be read.
   */
  documentTextUnavailable: 1006,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** 7 MiB: base64 of this stays under the 10 MiB message cap of the official SDK clients. */
export const DEFAULT_MAX_READ_BYTES = 7 * 1024 * 1024;

/** A line (one JSON-RPC message) longer than this closes the connection. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** A URI a client sends is refused past this length (no file path is this long). */
export const MAX_URI_CHARS = 8192;

/** resources/list page size. */
export const LIST_PAGE_SIZE = 1000;
