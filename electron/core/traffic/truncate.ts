/** Strings longer than this are cut in the log (a 10 MB blob keeps only a preview). */
export const MAX_LOGGED_STRING = 1024;
/** Deeper structures are summarised (deeply nested input must not blow the stack). */
const MAX_DEPTH = 32;
/** Arrays and objects keep at most this many members. */
export const MAX_LOGGED_MEMBERS = 200;
/** What stands in the log for the members of an array past MAX_LOGGED_MEMBERS. */
export const moreItems = (n: number): string => `… ${n} more items`;

/**
 * A copy of a JSON value that is safe to keep: long strings become a preview
 * plus their true length, deep or wide structures are summarised. Never
 * copies a long string whole.
 */
export function truncateForLog(value: unknown): { value: unknown; truncated: boolean } {
  let truncated = false;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      if (v.length <= MAX_LOGGED_STRING) return v;
      truncated = true;
      return `${v.slice(0, MAX_LOGGED_STRING)}… [${v.length} chars]`;
    }
    if (v === null || typeof v !== 'object') return v;
    if (depth >= MAX_DEPTH) {
      truncated = true;
      return Array.isArray(v) ? `[… nested array]` : `{… nested object}`;
    }
    if (Array.isArray(v)) {
      const out = v.slice(0, MAX_LOGGED_MEMBERS).map((x) => walk(x, depth + 1));
      if (v.length > MAX_LOGGED_MEMBERS) {
        truncated = true;
        out.push(moreItems(v.length - MAX_LOGGED_MEMBERS));
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    let n = 0;
    for (const key of Object.keys(v)) {
      if (n++ === MAX_LOGGED_MEMBERS) {
        truncated = true;
        out['…'] = `${Object.keys(v).length - MAX_LOGGED_MEMBERS} more keys`;
        break;
      }
      const value = walk((v as Record<string, unknown>)[key], depth + 1);
      // A key is the client's too: a long one is cut like a long value.
      if (key.length > MAX_LOGGED_STRING) truncated = true;
      out[key.length > MAX_LOGGED_STRING ? `${key.slice(0, MAX_LOGGED_STRING)}… [${key.length} chars]` : key] = value;
    }
    return out;
  };
  const value2 = walk(value, 0);
  return { value: value2, truncated };
}
