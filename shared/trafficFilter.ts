import type { TrafficEntry, TrafficQuery, TrafficRow } from './shelfApi.js';

/**
 * The one traffic filter: the core's query and export and the window's
 * list apply the same rules. The window holds rows without payloads, so it
 * tests the fields here itself and asks the core which messages match the
 * text (`ShelfApi.trafficRows`), which tests them here with the payload.
 */
export type TrafficFilter = Pick<TrafficQuery, 'connectionId' | 'method' | 'errorsOnly' | 'failure' | 'text'>;

/** What a text filter looks for: trimmed and lower-cased ('' for none). */
export const needleOf = (text: string | undefined): string => text?.trim().toLowerCase() ?? '';

/** Whether a message passes every part of the filter but the text (what a row carries). */
export function matchesTrafficFields(e: TrafficRow, f: TrafficFilter): boolean {
  return (
    (f.connectionId === undefined || e.connectionId === f.connectionId) &&
    (f.method === undefined || e.method === f.method) &&
    (!f.errorsOnly || e.kind === 'error' || e.toolError === true) &&
    (f.failure === undefined || e.failure === f.failure)
  );
}

/** Whether a message's method or JSON contains `needle` (from needleOf), ignoring case; '' matches all. */
export function matchesTrafficText(e: TrafficRow, payload: string, needle: string): boolean {
  return needle === '' || (e.method ?? '').toLowerCase().includes(needle) || payload.toLowerCase().includes(needle);
}

/** The whole filter, for a message whose payload is at hand. */
export function matchesTraffic(e: TrafficEntry, f: TrafficFilter): boolean {
  return matchesTrafficFields(e, f) && matchesTrafficText(e, e.payload, needleOf(f.text));
}

/** The filter as a query sends it: empty parts left out (so a query of no filter is `{}`). */
export function trafficFilter(f: {
  connectionId?: number | null;
  method?: string;
  errorsOnly?: boolean;
  failure?: TrafficQuery['failure'] | '';
  text?: string;
}): TrafficFilter {
  const text = f.text?.trim();
  return {
    ...(f.connectionId !== undefined && f.connectionId !== null ? { connectionId: f.connectionId } : {}),
    ...(f.method ? { method: f.method } : {}),
    ...(f.errorsOnly ? { errorsOnly: true } : {}),
    ...(f.failure ? { failure: f.failure } : {}),
    ...(text ? { text } : {}),
  };
}
