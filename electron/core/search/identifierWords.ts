/**
 * Words as the full-text index keeps them, code identifiers included: a run
 * of letters, digits and _ is kept whole (lowercased), and one written in
 * snake_case or camelCase also gives its parts, so "invoice total" finds
 * compute_invoice_total and computeInvoiceTotal (issue 39 item 8). Digits
 * stay with the letters before them (utf8, sha256, parseV2Config → v2), and
 * a run without _ or a case change is one word (2fa, iPhone is two: i, phone).
 */

const WORD = /[\p{L}\p{N}_]+/gu;
/** Longer tokens (hashes, base64) are not words anyone searches for. */
export const MAX_TOKEN = 64;
/** Where camelCase turns: a lowercase letter before a capital, a capital before a capitalised word (HTTPServer), a digit before a capital. */
const CASE_TURN = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{N}\p{Lu}/u;
/** A camelCase part: a word (maybe capitalised, digits after), an acronym not followed by lowercase, or a run of uncased characters. */
const CAMEL_PART = /\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*(?!\p{Ll})|[^\p{Lu}\p{Ll}]+|\p{Lu}/gu;

/** The parts of an identifier (as written), lowercased; empty when it is one word. */
export function identifierParts(word: string): string[] {
  if (!word.includes('_') && !CASE_TURN.test(word)) return [];
  const parts: string[] = [];
  for (const segment of word.split('_')) {
    if (!segment) continue;
    if (!CASE_TURN.test(segment)) parts.push(segment.toLowerCase());
    else for (const m of segment.matchAll(CAMEL_PART)) parts.push(m[0].toLowerCase());
  }
  return parts.length > 1 ? parts : [];
}

/** The words of a text as the index keeps them: each run lowercased, then an identifier's parts. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (word.length > MAX_TOKEN) continue;
    out.push(word.toLowerCase());
    for (const part of identifierParts(word)) out.push(part);
  }
  return out;
}

/** A query word's terms: an identifier's parts (all must match, so either spelling is found), else the word. */
export function queryWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const parts = identifierParts(m[0]);
    if (parts.length === 0) out.push(m[0].toLowerCase());
    else for (const part of parts) out.push(part);
  }
  return out;
}
