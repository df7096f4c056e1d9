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
  /** Unknown, outside every published folder, hidden, ignored or deleted: one answer for all. */
  resourceNotFound: -32002,
  permissionDenied: -32003,
  resourceTooLarge: -32004,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** 7 MiB: base64 of this stays under the 10 MiB message cap of the official SDK clients. */
export const DEFAULT_MAX_READ_BYTES = 7 * 1024 * 1024;

/** A line (one JSON-RPC message) longer than this closes the connection. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** resources/list page size. */
export const LIST_PAGE_SIZE = 1000;
