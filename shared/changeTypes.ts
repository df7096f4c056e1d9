/**
 * Changes a model proposes to the person's files (write_resource,
 * edit_resource), as ShelfApi carries them: a proposal waiting for the
 * person's decision, its diff a page at a time, the decision, and a change
 * as the access history keeps it. Nothing is written until the person
 * approves it in the window.
 */

/** A new file, a file replaced whole, or exact replacements inside one. */
export type ChangeKind = 'create' | 'replace' | 'edit';

/**
 * How a proposed change ended: written (approved), declined by the person,
 * no answer in time, the file changed since the proposal (conflict), no
 * window to ask, too many waiting, the client gone or cancelled, or the
 * write itself failed (nothing was written).
 */
export type ChangeOutcome = 'written' | 'declined' | 'timeout' | 'conflict' | 'no-window' | 'busy' | 'disconnected' | 'cancelled' | 'failed';

/**
 * Why a change was not made, as `data.reason` of error 1008: the folder does
 * not allow changes, the path is not one MCP Shelf may change, not text,
 * too large, not a regular file, an edit that does not match (or matches
 * more than once), or one of the outcomes that are not `written`.
 */
export type ChangeRefusal = 'off' | 'not-published' | 'not-text' | 'too-large' | 'not-a-file' | 'no-match' | 'ambiguous' | Exclude<ChangeOutcome, 'written'>;

/** A change waiting for the person's decision. */
export interface ChangeProposal {
  id: number;
  time: number;
  /** When it is declined without an answer. */
  deadline: number;
  /** The name and version the client gives itself (anyone can give any name). */
  client: string | null;
  clientVersion: string | null;
  /** MCP Shelf's own facts about the requester. */
  connectionId: number;
  transport: 'socket' | 'http';
  protocolVersion: string | null;
  connectedAt: number;
  /** `app`: through the in-chat app (the client's word). */
  via: 'tool' | 'app';
  uri: string;
  folder: string;
  /** The file's path inside its folder. */
  path: string;
  kind: ChangeKind;
  /** Lines added and removed (a new file: all its lines added). */
  added: number;
  removed: number;
  /** Bytes before (null: a new file) and after. */
  sizeBefore: number | null;
  sizeAfter: number;
  /** Hunks of the diff (fetched with changeDiff, a page at a time). */
  hunks: number;
  /** Parent folders the write creates inside the published folder. */
  newFolders: string[];
}

/** One line of a diff: kept, added or removed, with its numbers in the old and new text. */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
  /** Line number in the old text (kept and removed lines). */
  old?: number;
  /** Line number in the new text (kept and added lines). */
  new?: number;
}

/** A run of changes with the unchanged lines around it (long unchanged runs between hunks are folded away). */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface ChangeDiffPage {
  id: number;
  /** Hunks from `from`, at most the page's count. */
  hunks: DiffHunk[];
  from: number;
  total: number;
  /** The proposed text in full, when asked for (to edit it before approving) and within the size bound. */
  text?: string;
}

/** The person's answer: approve (with the text edited in the prompt, when they changed it), or decline. */
export type ChangeDecision = { approve: true; text?: string } | { approve: false };

/** A change as the access history keeps it (the entry's uri, folder and client say where and who). */
export interface AccessChange {
  kind: ChangeKind;
  outcome: ChangeOutcome;
  added: number;
  removed: number;
  sizeBefore: number | null;
  sizeAfter: number;
  /** The person edited the text before approving it. */
  edited?: boolean;
  /** The kept previous version (written changes): what Undo restores. */
  undoId?: string;
}

/** Whether a written change can still be undone, as the window asks before it offers Undo. */
export type UndoState = 'available' | 'undone' | 'changed-since' | 'expired';

export interface UndoResult {
  ok: boolean;
  /** Why not: the file changed again since the change (Undo would lose that), or the kept version is gone. */
  message: string;
  /** What Undo's state is now (after a refusal: why it is not offered again). */
  state: UndoState;
}
