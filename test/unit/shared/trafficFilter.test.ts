import { describe, expect, it } from 'vitest';

import { TrafficLog } from '../../../electron/core/traffic/trafficLog.js';
import type { TrafficEntry } from '../../../shared/shelfApi.js';
import { matchesTraffic, matchesTrafficFields, matchesTrafficText, needleOf, trafficFilter } from '../../../shared/trafficFilter.js';

/** Real entries, as the log makes them from messages. */
function entries(): TrafficEntry[] {
  const log = new TrafficLog({ maxEntries: 100, maxBytes: 1e7, explain: () => 'outside' });
  log.record(1, 'in', { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///tmp/Notes.md' } }, 80);
  log.record(1, 'out', { jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'file:///tmp/Notes.md', text: 'Quarterly PLAN' }] } }, 90);
  log.record(2, 'in', { jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'file:///etc/passwd' } }, 80);
  log.record(2, 'out', { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Resource not found', data: { uri: 'file:///etc/passwd' } } }, 90);
  log.record(2, 'in', { jsonrpc: '2.0', method: 'notifications/initialized' }, 50);
  return log.query();
}

describe('the shared traffic filter', () => {
  const all = entries();
  const seqs = (f: Parameters<typeof matchesTraffic>[1]) => all.filter((e) => matchesTraffic(e, f)).map((e) => e.seq);

  it('passes everything when empty', () => {
    expect(seqs({})).toEqual(all.map((e) => e.seq));
  });

  it('filters by connection, method, errors only and failure', () => {
    expect(seqs({ connectionId: 2 })).toEqual([3, 4, 5]);
    expect(seqs({ method: 'notifications/initialized' })).toEqual([5]);
    expect(seqs({ errorsOnly: true })).toEqual([4]);
    expect(seqs({ failure: 'outside' })).toEqual([4]);
    expect(seqs({ connectionId: 1, errorsOnly: true })).toEqual([]);
  });

  it('finds text in the method or the JSON, ignoring case and surrounding space', () => {
    expect(seqs({ text: '  quarterly plan ' })).toEqual([2]);
    expect(seqs({ text: 'NOTES.MD' })).toEqual([1, 2]);
    expect(seqs({ text: 'initialized' })).toEqual([5]);
    expect(seqs({ text: 'nowhere' })).toEqual([]);
  });

  it('splits into the row part and the text part, which the window and the core combine the same way', () => {
    const f = { connectionId: 1, text: 'plan' };
    for (const e of all) expect(matchesTraffic(e, f)).toBe(matchesTrafficFields(e, f) && matchesTrafficText(e, e.payload, needleOf(f.text)));
    expect(needleOf(undefined)).toBe('');
    expect(matchesTrafficText(all[0] as TrafficEntry, 'anything', '')).toBe(true);
  });

  it('builds the query from the controls, leaving empty parts out', () => {
    expect(trafficFilter({ connectionId: null, method: '', errorsOnly: false, failure: '', text: '  ' })).toEqual({});
    expect(trafficFilter({ connectionId: 0, method: 'ping', errorsOnly: true, failure: 'secret', text: ' x ' })).toEqual({
      connectionId: 0,
      method: 'ping',
      errorsOnly: true,
      failure: 'secret',
      text: 'x',
    });
  });

  it('is the filter the log queries and exports with', () => {
    const log = new TrafficLog({ maxEntries: 100, maxBytes: 1e7 });
    for (const e of all) log.record(e.connectionId, e.direction, JSON.parse(e.payload), e.bytes);
    for (const f of [{ text: 'plan' }, { connectionId: 2, errorsOnly: true }, { method: 'resources/read', text: 'passwd' }])
      expect(log.query(f).map((e) => e.seq)).toEqual(seqs(f));
  });
});
