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
  /** A 2025 HTTP session id the server does not know (ended, or never began): the SDK's code for it. */
  sessionNotFound: -32001,
  /** A 2026-07-28 request naming a revision the server does not speak (`data.supported` lists those it does). */
  unsupportedProtocolVersion: -32022,
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
  /**
   * The server is busy: the memory it keeps for clients (their unread
   * replies, replies being built) is in use, so the work was not started.
   * `data.reason` says what ran out ('memory'); trying again shortly works.
   */
  serverBusy: 1007,
  /**
   * A change a model proposed was not made (write_resource, edit_resource):
   * the folder does not allow changes, the path is not one MCP Shelf may
   * change, the edit does not match, the person declined or did not answer,
   * the file changed since (conflict), or no window was open to ask.
   * `data.reason` says which; nothing was written.
   */
  changeNotMade: 1008,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
