import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Cursors a client cannot forge. A cursor that says where a call stopped is
 * client input coming back: grep's named a file to resume inside, and a
 * hand-made one once resumed a file of an ask-before-read folder that the
 * walk would have skipped. A sealed cursor carries an HMAC (a key made at
 * start, never sent) over its payload and the query it belongs to, so only a
 * cursor this process handed out for this query is taken back. Callers still
 * re-check what a cursor names: the seal says where it came from, not that
 * the decisions it encodes still hold (a folder may have begun to ask since).
 */

const KEY = randomBytes(32);
/** Bytes of the MAC kept: 128 bits, beyond guessing. */
const MAC_BYTES = 16;

function mac(kind: string, bound: string, payload: string): Buffer {
  return createHmac('sha256', KEY).update(kind).update('\u0000').update(bound).update('\u0000').update(payload).digest().subarray(0, MAC_BYTES);
}

/** `payload` sealed for `kind` (which tool) and `bound` (the query it continues). */
export function sealCursor(kind: string, bound: string, payload: string): string {
  return `${Buffer.from(payload).toString('base64url')}.${mac(kind, bound, payload).toString('base64url')}`;
}

/** The payload of a cursor this process sealed for the same kind and query, else null. */
export function openCursor(kind: string, bound: string, cursor: string): string | null {
  const dot = cursor.indexOf('.');
  if (dot <= 0 || dot !== cursor.lastIndexOf('.')) return null;
  const payload = Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8');
  const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
  const expected = mac(kind, bound, payload);
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
}
