import { ShelfError } from '../base/shelfError.js';

/**
 * Opaque list cursor: the position after the last resource of a page, as
 * (folder id, relative path). A position survives files coming and going
 * between pages, unlike an offset.
 */
export interface ListPosition {
  folderId: number;
  rel: string;
}

export function encodeCursor(pos: ListPosition): string {
  return Buffer.from(JSON.stringify({ v: 1, f: pos.folderId, r: pos.rel })).toString('base64url');
}

export function decodeCursor(cursor: unknown): ListPosition {
  const invalid = ShelfError.invalidParams('Invalid cursor');
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 16384 || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw invalid;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  const p = parsed as { v?: unknown; f?: unknown; r?: unknown };
  if (typeof parsed !== 'object' || parsed === null || p.v !== 1 || !Number.isSafeInteger(p.f) || typeof p.r !== 'string') {
    throw invalid;
  }
  return { folderId: p.f as number, rel: p.r };
}
