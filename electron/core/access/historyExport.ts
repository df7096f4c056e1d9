import { stringify } from 'csv-stringify/sync';

import type { AccessEntry, HistoryExportFormat } from '../../../shared/shelfApi.js';

/** Entries as an export's text: JSON Lines, or CSV safe to open in a spreadsheet. */
export function historyText(entries: readonly AccessEntry[], format: HistoryExportFormat): string {
  return format === 'jsonl'
    ? entries.map((e) => `${JSON.stringify(e)}\n`).join('')
    : stringify(
        entries.map((e) => [
          new Date(e.time).toISOString(),
          e.client,
          e.clientVersion,
          e.protocolVersion,
          e.transport,
          e.via,
          e.uri,
          e.folder,
          e.size,
          e.outcome,
          e.errorCode,
          e.errorReason ?? null,
          e.errorMessage,
          e.repeated ?? 1,
          e.detail ?? null,
          e.failure ?? null,
          e.search ? `${e.search.tool} ${e.search.query}` : null,
          e.change ? `${e.change.kind} ${e.change.outcome} +${e.change.added} -${e.change.removed}${e.change.edited ? ' edited' : ''}` : null,
        ]),
        {
          header: true,
          columns: [
            'time',
            'client',
            'clientVersion',
            'protocolVersion',
            'transport',
            'via',
            'uri',
            'folder',
            'size',
            'outcome',
            'errorCode',
            'errorReason',
            'errorMessage',
            'reads',
            'detail',
            'failure',
            'search',
            'change',
          ],
          // A client chooses its name and the URIs it asks for: a cell starting with = + - @ must not become a spreadsheet formula.
          escape_formulas: true,
          // Where the list separator is ";" (many locales), an unquoted `x;=1+1;` splits into cells and the middle one is a formula.
          quoted_match: /[;\t]/,
        },
      );
}
