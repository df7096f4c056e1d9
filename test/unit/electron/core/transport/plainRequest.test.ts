import { isJSONRPCRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { plainRequest } from '../../../../../electron/core/transport/socketTransport.js';

/** Messages as JSON.parse gives them: the usual requests and the shapes around them. */
const messages: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///a' } },
  { jsonrpc: '2.0', id: 'a', method: 'resources/list' },
  { jsonrpc: '2.0', id: 0, method: 'ping', params: {} },
  { jsonrpc: '2.0', id: -7, method: 'x', params: { deep: { er: [1, 2] } } },
  { jsonrpc: '2.0', id: 1.5, method: 'x' },
  { jsonrpc: '2.0', id: 2 ** 60, method: 'x' },
  { jsonrpc: '2.0', id: null, method: 'x' },
  { jsonrpc: '2.0', id: true, method: 'x' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '1.0', id: 1, method: 'x' },
  { id: 1, method: 'x' },
  { jsonrpc: '2.0', id: 1, method: 5 },
  { jsonrpc: '2.0', id: 1 },
  { jsonrpc: '2.0', id: 1, method: 'x', params: null },
  { jsonrpc: '2.0', id: 1, method: 'x', params: [1] },
  { jsonrpc: '2.0', id: 1, method: 'x', params: 'p' },
  { jsonrpc: '2.0', id: 1, method: 'x', extra: true },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 'p' } } },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: {} } } },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: null } },
  JSON.parse('{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{"y":1}}'),
  JSON.parse('{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"_meta":1}}}'),
  [{ jsonrpc: '2.0', id: 1, method: 'x' }],
  null,
  'text',
  42,
];

describe('plainRequest', () => {
  it("never says yes where the SDK's check says no, and says yes to the usual requests", () => {
    for (const m of messages) if (plainRequest(m)) expect([m, isJSONRPCRequest(m)]).toEqual([m, true]);
    expect(messages.slice(0, 4).every((m) => plainRequest(m))).toBe(true);
  });
});
