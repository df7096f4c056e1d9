import type { ReadFailure } from './readFailure.js';

/** The traffic log as ShelfApi carries it. */

export type TrafficDirection = 'in' | 'out';
export type TrafficKind = 'request' | 'response' | 'notification' | 'error';

/** A message as the Traffic list shows it: everything but its JSON (live batches carry these; the JSON is fetched when a row is opened). */
export interface TrafficRow {
  seq: number;
  time: number;
  connectionId: number;
  client: string | null;
  direction: TrafficDirection;
  kind: TrafficKind;
  method: string | null;
  /** What it is about: the URI read or subscribed, or the tool called (a response carries its request's). */
  target: string | null;
  id: string | number | null;
  /** Response entries: ms since their request. */
  durationMs: number | null;
  /** Size on the wire. */
  bytes: number;
  errorCode: number | null;
  errorMessage: string | null;
  /** An error reply to a read: why, as the owner reads it (see AccessEntry.failure). */
  failure?: ReadFailure;
  /** A tools/call answered with a failed result (isError: the read was denied, timed out, or went wrong); errorMessage says what. */
  toolError?: true;
  /** A tool read's answer: what it gave ("lines 1–2,000 of 120,000", "image 1568×1045 JPEG (from 3000×2000 PNG)"). */
  detail?: string;
  /** Its JSON had long strings cut (see TrafficEntry.payload). */
  truncated: boolean;
}

export interface TrafficEntry extends TrafficRow {
  /** The message as JSON, long strings cut to a preview with their true length. */
  payload: string;
}

export interface TrafficQuery {
  connectionId?: number;
  method?: string;
  errorsOnly?: boolean;
  /** Only error replies that failed for this reason. */
  failure?: ReadFailure;
  text?: string;
  /** Only entries with seq above this. */
  afterSeq?: number;
  /** Newest entries, at most this many (default 1000). */
  limit?: number;
}
