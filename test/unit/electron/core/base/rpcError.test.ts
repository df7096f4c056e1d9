import { describe, expect, it } from 'vitest';

import { toRpcError } from '../../../../../electron/core/base/rpcError.js';
import { ShelfError } from '../../../../../electron/core/base/shelfError.js';
import { ErrorCodes } from '../../../../../shared/errorCodes.js';

describe('toRpcError', () => {
  it("gives a ShelfError's code, message and data as they are", () => {
    expect(toRpcError(ShelfError.notFound('file:///x/a.txt'))).toEqual({ code: -32602, message: 'Resource not found', data: { uri: 'file:///x/a.txt' } });
    expect(toRpcError(ShelfError.tooLarge('file:///x/b', 10, 5))).toEqual({
      code: ErrorCodes.resourceTooLarge,
      message: 'Resource is 10 bytes, over the 5-byte read limit',
      data: { uri: 'file:///x/b', size: 10, limit: 5 },
    });
    expect(toRpcError(new ShelfError(ErrorCodes.permissionDenied, 'Permission denied'))).toEqual({ code: 1003, message: 'Permission denied' });
  });

  it('makes anything without a whole-number code -32603, keeping its message', () => {
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/x'"), { code: 'ENOENT' });
    expect(toRpcError(enoent)).toEqual({ code: -32603, message: "ENOENT: no such file or directory, open '/x'" });
    expect(toRpcError(Object.assign(new Error('odd'), { code: 1.5 }))).toEqual({ code: -32603, message: 'odd' });
  });

  it("says 'Internal error' for what has no message (and never throws on odd values)", () => {
    expect(toRpcError(new Error(''))).toEqual({ code: -32603, message: 'Internal error' });
    expect(toRpcError(undefined)).toEqual({ code: -32603, message: 'Internal error' });
    expect(toRpcError('a string')).toEqual({ code: -32603, message: 'Internal error' });
  });
});
