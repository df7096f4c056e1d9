import { ErrorCodes } from './errorCodes.js';

/**
 * Why a client's read (or search) did not give it the file, as the owner
 * should read it. A client gets one answer for unknown, outside, hidden and
 * ignored (so it learns nothing of what is there); the window, which is the
 * owner's, says which it was.
 */
export type ReadFailure =
  // ask-before-read (1005)
  | 'denied'
  | 'timeout'
  | 'no-window'
  | 'disconnected'
  | 'busy'
  | 'cancelled'
  // not published (-32602 as the client sees it)
  | 'outside'
  | 'secret'
  | 'hidden'
  | 'ignored'
  | 'folder-off'
  | 'not-found'
  // the file itself
  | 'too-large'
  | 'permission'
  | 'no-text'
  | 'invalid'
  | 'overloaded'
  | 'error';

export interface ReadFailureInfo {
  /** A few words, shown in History and Traffic beside the outcome. */
  label: string;
  /** One sentence for the legend and the row's title. */
  explain: string;
  /** Which group the History's outcome filter puts it in. */
  group: 'asked' | 'not-published' | 'file' | 'other';
}

export const READ_FAILURES: Record<ReadFailure, ReadFailureInfo> = {
  denied: { label: 'denied by you', explain: 'You pressed Deny in the ask prompt.', group: 'asked' },
  timeout: { label: 'no answer', explain: 'The ask prompt waited its full time and nobody answered.', group: 'asked' },
  'no-window': {
    label: 'no window to ask',
    explain: 'The folder asks before each read and no MCP Shelf window was open, so the read was refused at once.',
    group: 'asked',
  },
  disconnected: { label: 'client left', explain: 'The client disconnected while its read waited for your answer.', group: 'asked' },
  busy: { label: 'too many waiting', explain: 'Too many reads were already waiting for an answer.', group: 'asked' },
  cancelled: { label: 'client cancelled', explain: 'The client cancelled its read while it waited for your answer; the prompt was withdrawn.', group: 'asked' },
  outside: { label: 'outside folders', explain: 'The file is in no published folder (the client was told "not found").', group: 'not-published' },
  secret: {
    label: 'secret file',
    explain: 'A secret-file rule (.env, keys, credentials) hides it in every folder (the client was told "not found").',
    group: 'not-published',
  },
  hidden: {
    label: 'hidden file',
    explain: 'A dotfile, hidden while the folder does not show hidden files (the client was told "not found").',
    group: 'not-published',
  },
  ignored: {
    label: 'ignored file',
    explain: 'A .gitignore or the folder’s extra patterns leave it out (the client was told "not found").',
    group: 'not-published',
  },
  'folder-off': { label: 'folder off', explain: 'Its folder is turned off or missing (the client was told "not found").', group: 'not-published' },
  'not-found': { label: 'no such file', explain: 'Inside a published folder, but no such file exists.', group: 'not-published' },
  'too-large': { label: 'too large', explain: 'The file is over the read limit for one message (the read tool pages it).', group: 'file' },
  permission: { label: 'no permission', explain: 'The system would not let MCP Shelf open the file.', group: 'file' },
  'no-text': { label: 'no text', explain: 'The document’s text could not be given (a scan, encrypted, corrupt or too slow).', group: 'file' },
  overloaded: {
    label: 'server busy',
    explain: 'The memory MCP Shelf keeps for clients was in use (replies other clients had not taken yet); the client was told to try again shortly.',
    group: 'other',
  },
  invalid: { label: 'bad request', explain: 'The request itself was malformed (bad URI or arguments).', group: 'other' },
  error: { label: 'failed', explain: 'Something went wrong on the server’s side.', group: 'other' },
};

export const READ_FAILURE_NAMES = Object.keys(READ_FAILURES) as [ReadFailure, ...ReadFailure[]];

export const isReadFailure = (v: unknown): v is ReadFailure => typeof v === 'string' && (READ_FAILURE_NAMES as string[]).includes(v);

/**
 * The failure a JSON-RPC error stands for, from what the client was sent
 * (code and data.reason). A not-found gives 'not-found' here; the server
 * refines it (outside, secret, hidden…) from where the path lies.
 */
export function failureOfError(code: number | null, reason: unknown): ReadFailure {
  if (code === ErrorCodes.readNotAllowed) return isReadFailure(reason) && READ_FAILURES[reason].group === 'asked' ? reason : 'denied';
  if (code === ErrorCodes.resourceNotFound) return 'not-found';
  if (code === ErrorCodes.resourceTooLarge) return 'too-large';
  if (code === ErrorCodes.permissionDenied) return 'permission';
  if (code === ErrorCodes.documentTextUnavailable) return 'no-text';
  if (code === ErrorCodes.serverBusy) return 'overloaded';
  if (code === ErrorCodes.invalidRequest || code === ErrorCodes.parseError || code === ErrorCodes.methodNotFound) return 'invalid';
  return 'error';
}

/** JSON-RPC codes a person may meet in Traffic, for its legend. */
export const ERROR_CODE_LEGEND: ReadonlyArray<[number, string]> = [
  [ErrorCodes.parseError, 'not JSON'],
  [ErrorCodes.invalidRequest, 'not a valid request'],
  [ErrorCodes.methodNotFound, 'unknown method'],
  [ErrorCodes.invalidParams, 'bad arguments, or not found (unknown, outside, hidden and ignored look the same to a client)'],
  [ErrorCodes.internalError, 'server error'],
  [ErrorCodes.permissionDenied, 'the system denied the read'],
  [ErrorCodes.resourceTooLarge, 'over the one-message read limit'],
  [ErrorCodes.readNotAllowed, 'ask-before-read: denied, no answer or no window'],
  [ErrorCodes.documentTextUnavailable, 'a document has no text to give'],
  [ErrorCodes.serverBusy, 'the server is busy (memory for clients in use): try again shortly'],
];
