import { ErrorCodes } from '../../../shared/errorCodes.js';

/**
 * An error with a JSON-RPC code and data. The SDK turns a thrown error's
 * `code`, `message` and `data` into the error response as they are.
 */
export class ShelfError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ShelfError';
  }

  static notFound(uri: string): ShelfError {
    return new ShelfError(ErrorCodes.resourceNotFound, 'Resource not found', { uri });
  }

  static permissionDenied(uri: string): ShelfError {
    return new ShelfError(ErrorCodes.permissionDenied, 'Permission denied', { uri });
  }

  static tooLarge(uri: string, size: number, limit: number): ShelfError {
    return new ShelfError(ErrorCodes.resourceTooLarge, `Resource is ${size} bytes, over the ${limit}-byte read limit`, { uri, size, limit });
  }

  static invalidParams(message: string): ShelfError {
    return new ShelfError(ErrorCodes.invalidParams, message);
  }
}
