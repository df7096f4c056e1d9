/** What content search cannot find, and grep over those files: the Search tab's side of the window/core contract (shelfApi.ts). */

/** Why a published file is not in the full-text index (grep still reads it). */
export type NotIndexedReason = 'too-big' | 'binary' | 'unreadable' | 'full';

export interface NotIndexedFile {
  uri: string;
  folder: string;
  path: string;
  size: number;
  reason: NotIndexedReason;
}

/** What a content search cannot find: the files the index left out, and how many still wait. */
export interface NotIndexedReport {
  /** Files left out, by reason. */
  counts: Record<NotIndexedReason, number>;
  /** The first of them, at most the limit asked for: too big first (where a search most often looks in vain), then folder and path order. */
  files: NotIndexedFile[];
  /** Files still waiting to be indexed. */
  pending: number;
  /** A text file over this many bytes is left out (a document's text is indexed whatever its file's size). */
  maxIndexedBytes: number;
  /** Left out beyond the files the index keeps track of: the counts are at least their sum. */
  untracked: number;
}

/** One file's matching lines, as grep_resources finds them. */
export interface GrepResultFile {
  uri: string;
  folder: string;
  path: string;
  /** The lines are a document's extracted text. */
  document: boolean;
  lines: Array<{ line: number; text: string }>;
}

export interface GrepResults {
  files: GrepResultFile[];
  matches: number;
  scannedFiles: number;
  nextCursor?: string;
  /** Why it stopped before the last file (the cursor goes on). */
  stoppedBy?: 'matches' | 'budget' | 'bytes' | 'time';
}
