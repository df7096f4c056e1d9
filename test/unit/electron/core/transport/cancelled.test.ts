import { describe, expect, it } from 'vitest';

import { cancelledRequestId } from '../../../../../electron/core/transport/cancelled.js';

describe('cancelledRequestId', () => {
  const cancel = (extra: object) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', ...extra });

  it('names the request a cancel notification cancels', () => {
    expect(cancelledRequestId(cancel({ params: { requestId: 7 } }))).toBe(7);
    expect(cancelledRequestId(cancel({ params: { requestId: 'r1' } }))).toBe('r1');
  });

  it('cancels nothing for a request of that name, any id key (the SDK answers it as an unknown method), or a requestId that names no request', () => {
    expect(cancelledRequestId(cancel({ id: 1, params: { requestId: 7 } }))).toBeUndefined();
    expect(cancelledRequestId(cancel({ id: null, params: { requestId: 7 } }))).toBeUndefined();
    for (const requestId of [null, true, { id: 1 }, [1], undefined]) expect(cancelledRequestId(cancel({ params: { requestId } }))).toBeUndefined();
    for (const other of [null, 'x', [cancel({ params: { requestId: 1 } })], { jsonrpc: '2.0', method: 'ping', params: { requestId: 1 } }])
      expect(cancelledRequestId(other)).toBeUndefined();
  });
});
