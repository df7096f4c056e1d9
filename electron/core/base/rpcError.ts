import { ErrorCodes } from '../../../shared/errorCodes.js';

/** A JSON-RPC error object, as a client gets it. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The JSON-RPC error a thrown value becomes, the one mapping for every path
 * (the SDK's handlers, the socket's read fast path, the tools' `isError`
 * results, the window's previews): a ShelfError's code, message and data as
 * they are (the SDK builds the same from what a handler throws); anything
 * without a whole-number code, a Node error's 'ENOENT' say, is -32603; an
 * error without a message says 'Internal error'.
 */
export function toRpcError(err: unknown): RpcError {
  const e = (err ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e.code === 'number' && Number.isSafeInteger(e.code) ? e.code : ErrorCodes.internalError;
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : 'Internal error';
  return { code, message, ...(e.data !== undefined ? { data: e.data } : {}) };
}
