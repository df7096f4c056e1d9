/**
 * How a message's text given to the traffic log stands for the message:
 * `preview` — made for the log from a larger message (a streamed reply's
 * preview; a long URI in it is cut again); `cut` — already the log's cut
 * form (truncateForLog's, made once and kept); `verbatim` — the wire text,
 * in which nothing needs cutting. Absent: the wire text, cut as needed.
 */
export type LoggedForm = 'preview' | 'cut' | 'verbatim';

/** A message's text as the traffic log keeps it, and how it stands for the message. */
export interface LoggedText {
  text: string;
  form: LoggedForm;
}
