/**
 * A string a client sent, cut to `max` characters, as a copy of its own.
 *
 * Why a copy: V8 makes `s.slice(0, 200)` of a long string a "sliced string"
 * that points into the original, so keeping the 200 characters keeps all of
 * it. Kept in a traffic log entry, a 3 MiB client name cost 3 MiB per entry,
 * long after the client had gone. A JSON round trip makes a new flat string
 * (every code unit kept, lone surrogates included).
 */
export function keptString(value: string, max: number, mark = ''): string {
  if (value.length <= max) return value;
  return JSON.parse(JSON.stringify(value.slice(0, max) + mark)) as string;
}
