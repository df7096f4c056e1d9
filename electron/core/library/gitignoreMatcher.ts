import { RE2JS } from 're2js';

/**
 * Gitignore rules matched in linear time. A `.gitignore` is hostile input
 * (any file a published folder holds), and the `ignore` package compiles
 * each line to a backtracking JavaScript RegExp: `**∕a/**∕a/…/b` against a
 * chain of 80 nested `a/` folders held the main thread for 16 s. Here each
 * line is translated to RE2 syntax and the lines are run by re2js, an
 * automaton: time linear in the path, whatever the line.
 *
 * The semantics are those of `ignore` 7 (its `ignores()`, case-insensitive,
 * as the app always called it), which follows gitignore(5): `#` comments,
 * `\#` and `\!`, trailing spaces unless escaped, `!` negation, a trailing `/`
 * for directories only, a `/` at the start or in the middle anchors to the
 * .gitignore's folder, `*` `?` `[…]` (`[!…]`, ranges, POSIX classes) never
 * cross `/`, the `**` forms, a path is ignored when a parent directory is
 * (parents asked first), and the last matching line wins. The test in
 * test/unit/electron/core/library/gitignoreMatcher.test.ts compares the two
 * on thousands of generated lines and paths.
 */

/** Lines of one source past this are not read (GitHub's largest templates have a few hundred). */
export const MAX_GITIGNORE_LINES = 10_000;
/** A line longer than this is skipped (git's own paths stop at 4096 bytes; real lines are short). */
export const MAX_PATTERN_CHARS = 1024;

/** Directory answers a matcher keeps before it starts afresh (a walk asks about one directory's entries together). */
const CACHED_DIRS = 20_000;
/** Lines joined into one automaton: a bounded program per regex, few regexes per path. */
const LINES_PER_REGEX = 128;

const BOM = '\uFEFF';
const FLAGS = RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL;

type Token =
  | { kind: 'lit'; char: string }
  | { kind: 'slash' }
  /** An escaped `\/`: a separator to match, but not a segment boundary for `**`. */
  | { kind: 'escapedSlash' }
  | { kind: 'stars'; count: number }
  | { kind: 'any' }
  | { kind: 'class'; source: string };

/** One line, compiled: the RE2 source of a full match on a probe, and whether it re-includes. */
export interface GitignoreRule {
  negative: boolean;
  source: string;
}

const POSIX_CLASSES: Record<string, Array<[number, number]>> = {
  alnum: [r('0', '9'), r('A', 'Z'), r('a', 'z')],
  alpha: [r('A', 'Z'), r('a', 'z')],
  blank: [r(' ', ' '), r('\t', '\t')],
  cntrl: [
    [0, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [r('0', '9')],
  graph: [r('!', '.'), r('0', '~')],
  lower: [r('a', 'z')],
  print: [r(' ', '.'), r('0', '~')],
  punct: [r('!', '.'), r(':', '@'), r('[', '`'), r('{', '~')],
  space: [r(' ', ' '), r('\t', '\t'), r('\n', '\n'), r('\r', '\r')],
  upper: [r('A', 'Z')],
  xdigit: [r('0', '9'), r('A', 'F'), r('a', 'f')],
};

function r(from: string, to: string): [number, number] {
  return [from.charCodeAt(0), to.charCodeAt(0)];
}

const SLASH_CODE = 0x2f;
const hex = (code: number) => `\\x{${code.toString(16)}}`;
const SPECIAL = /[\\^$.|?*+()[\]{}]/;
const quote = (c: string) => (SPECIAL.test(c) ? `\\${c}` : c);

/**
 * The bracket expression at `body[start] === '['`, as git's wildmatch reads
 * it: a leading `]` is a member, `\` quotes, `a-z` ranges (out of order: the
 * lower bound alone), `[:name:]`. Null when it never closes or names an
 * unknown class (git then matches nothing with the whole line).
 */
function scanClass(body: string, start: number): { end: number; source: string | null } | null {
  let index = start + 1;
  let negated = false;
  if (body[index] === '!' || body[index] === '^') {
    negated = true;
    index++;
  }
  const ranges: Array<[number, number]> = [];
  let prev = '';
  for (;;) {
    const char = body[index];
    if (char === undefined) return null;
    if (char === '\\') {
      const escaped = body[++index];
      if (escaped === undefined) return null;
      ranges.push([escaped.charCodeAt(0), escaped.charCodeAt(0)]);
      prev = escaped;
    } else if (char === '-' && prev && index + 1 < body.length && body[index + 1] !== ']') {
      index++;
      let to = body[index] as string;
      if (to === '\\') to = body[++index] as string;
      if (to === undefined) return null;
      if (prev <= to) ranges.push([prev.charCodeAt(0), to.charCodeAt(0)]);
      prev = '';
    } else if (char === '[' && body[index + 1] === ':') {
      const nameStart = index + 2;
      const end = body.indexOf(']', nameStart);
      if (end < 0) return null;
      if (end > nameStart && body[end - 1] === ':') {
        const members = Object.hasOwn(POSIX_CLASSES, body.slice(nameStart, end - 1)) ? POSIX_CLASSES[body.slice(nameStart, end - 1)] : undefined;
        if (!members) return null;
        ranges.push(...members);
        prev = '';
        index = end;
      } else {
        // No `:]` before the next `]`: the `[` is a plain member.
        ranges.push(['['.charCodeAt(0), '['.charCodeAt(0)]);
        prev = '[';
      }
    } else {
      ranges.push([char.charCodeAt(0), char.charCodeAt(0)]);
      prev = char;
    }
    index++;
    if (body[index] === ']') return { end: index, source: classSource(negated, ranges) };
  }
}

/** A class never matches `/`; null when nothing is left of it. */
function classSource(negated: boolean, ranges: Array<[number, number]>): string | null {
  if (negated) return `[^/${ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('')}]`;
  const kept: string[] = [];
  for (const [lo, hi] of ranges) {
    for (const [a, b] of [
      [lo, Math.min(hi, SLASH_CODE - 1)],
      [Math.max(lo, SLASH_CODE + 1), hi],
    ] as const) {
      if (a <= b) kept.push(a === b ? hex(a) : `${hex(a)}-${hex(b)}`);
    }
  }
  return kept.length > 0 ? `[${kept.join('')}]` : null;
}

/** The line's parts, or null when it can never match (an unclosed class, a final `\/`). */
function tokenize(body: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c === '\\') {
      const escaped = body[i + 1] as string;
      if (escaped === '/') {
        // git drops a final directory slash first, which leaves a lone `\`: an invalid line.
        if (i + 2 === body.length) return null;
        tokens.push({ kind: 'escapedSlash' });
      } else tokens.push({ kind: 'lit', char: escaped });
      i += 2;
    } else if (c === '[') {
      const scanned = scanClass(body, i);
      if (scanned === null || scanned.source === null) return null;
      tokens.push({ kind: 'class', source: scanned.source });
      i = scanned.end + 1;
    } else if (c === '*') {
      let j = i;
      while (body[j] === '*') j++;
      tokens.push({ kind: 'stars', count: j - i });
      i = j;
    } else {
      tokens.push(c === '?' ? { kind: 'any' } : c === '/' ? { kind: 'slash' } : { kind: 'lit', char: c });
      i++;
    }
  }
  return tokens;
}

const isSlash = (t: Token | undefined) => t?.kind === 'slash';
/** Two or more stars filling a segment: between separators (or the line's ends). */
const isGlobstarAt = (tokens: Token[], k: number) => {
  const t = tokens[k];
  return t?.kind === 'stars' && t.count >= 2 && isSlash(tokens[k - 1]) && (k + 1 === tokens.length || isSlash(tokens[k + 1]));
};

/** The RE2 source that fully matches a probe (a path, `/`-terminated for a directory) the line matches, or null. */
export function translateLine(line: string): string | null {
  const body = /^\/\*{2,}$/.test(line) ? '**' : line;
  const slashAt = body.indexOf('/');
  const anchored = slashAt >= 0 && slashAt < body.length - 1;
  const all = tokenize(body);
  if (all === null) return null;

  let start = 0;
  const rooted = isSlash(all[0]);
  if (rooted) start = 1;
  // A leading `**/` (after the root `/`, repeated or not) matches in all directories.
  let anyDepth = false;
  for (;;) {
    const t = all[start];
    if (t?.kind !== 'stars' || t.count < 2 || !isSlash(all[start + 1])) break;
    start += 2;
    anyDepth = true;
  }
  const tokens = all.slice(start);
  let out = anyDepth || (!rooted && !anchored) ? '(?:.*/)?' : '';
  let open = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    switch (t.kind) {
      case 'slash':
        if (isGlobstarAt(tokens, k + 1)) {
          if (k + 2 === tokens.length) {
            // A trailing `/**`: everything inside, not the folder itself.
            out += '/.+';
            open = true;
          } else {
            // `/**/`: zero or more folders; one or more when it ends the line (`a/**/`).
            out += k + 3 === tokens.length ? '(?:/[^/]+)+' : '(?:/[^/]+)*';
          }
          k++;
        } else out += '/';
        break;
      case 'escapedSlash':
        out += '/';
        break;
      case 'stars': {
        const last = k === tokens.length - 1;
        const afterSeparator = k > 0 && (tokens[k - 1]?.kind === 'slash' || tokens[k - 1]?.kind === 'escapedSlash');
        // `abc/*` does not match `abc/` itself.
        out += last && t.count === 1 && afterSeparator ? '[^/]+' : '[^/]*';
        break;
      }
      case 'any':
        out += '[^/]';
        break;
      case 'class':
        out += t.source;
        break;
      case 'lit':
        out += quote(t.char);
        break;
    }
  }
  // A trailing `/` matches a directory only; otherwise a file, or a directory of that name.
  if (!open && !isSlash(tokens[tokens.length - 1])) out += '/?';
  return out;
}

/** An odd run of `\` at the end: the line ends on an unpaired escape. */
function hasTrailingBackslash(s: string): boolean {
  let count = 0;
  while (s[s.length - count - 1] === '\\') count++;
  return count % 2 === 1;
}

/**
 * Trailing spaces trimmed as git does (a space after an odd run of `\` stays,
 * unescaped); with `stripLineEnd` (a pattern given alone, not a file's
 * line), trailing blank lines and a CR go too. Scanned from the end: linear.
 */
function trimEnd(body: string, stripLineEnd: boolean): string {
  let lineEnd = body.length;
  let end: number;
  for (;;) {
    if (stripLineEnd && body[lineEnd - 1] === '\r') lineEnd--;
    end = lineEnd;
    while (body[end - 1] === ' ') end--;
    if (!stripLineEnd || body[end - 1] !== '\n') break;
    lineEnd = end - 1;
  }
  if (end === lineEnd) return body.slice(0, lineEnd);
  let backslashes = 0;
  while (body[end - backslashes - 1] === '\\') backslashes++;
  return backslashes % 2 ? `${body.slice(0, end - 1)} ` : body.slice(0, end);
}

/** One line as a rule, or null for a blank line, a comment, or a line that can never match. */
function parseLine(line: string, stripLineEnd: boolean, stripBOM: boolean): GitignoreRule | null {
  let body = stripBOM && line.startsWith(BOM) ? line.slice(1) : line;
  if (body.length > MAX_PATTERN_CHARS) return null;
  if (body[0] === '#') return null;
  let negative = false;
  if (body[0] === '!') {
    negative = true;
    body = body.slice(1);
  }
  const last = body[body.length - 1];
  if (last === ' ' || (stripLineEnd && (last === '\r' || last === '\n'))) body = trimEnd(body, stripLineEnd);
  if (!body || hasTrailingBackslash(body)) return null;
  if (body.startsWith('\\!') || body.startsWith('\\#')) body = body.slice(1);
  const source = translateLine(body);
  return source === null ? null : { negative, source };
}

/**
 * The rules of a .gitignore's text (split into lines) or of a list of
 * patterns (one each), in order. Lines past MAX_GITIGNORE_LINES and lines
 * longer than MAX_PATTERN_CHARS are skipped.
 */
export function parseGitignore(patterns: string | readonly string[]): GitignoreRule[] {
  const split = typeof patterns === 'string';
  let lines: readonly string[];
  if (split) {
    const text = patterns.endsWith('\r') ? patterns.slice(0, -1) : patterns;
    lines = text.split(/\r?\n/, MAX_GITIGNORE_LINES * 4).filter(Boolean);
  } else lines = patterns;
  const stripBOM = !split || patterns.startsWith(BOM);
  const rules: GitignoreRule[] = [];
  for (let i = 0; i < lines.length && i < MAX_GITIGNORE_LINES; i++) {
    const line = lines[i];
    if (typeof line !== 'string' || line === '') continue;
    const rule = parseLine(line, !split, stripBOM && i === 0);
    if (rule) rules.push(rule);
  }
  return rules;
}

/** Consecutive rules of one sign, as few automata: whether any of them matches a probe. */
class RuleRun {
  private readonly regexes: RE2JS[] = [];

  constructor(
    readonly negative: boolean,
    sources: string[],
  ) {
    for (let i = 0; i < sources.length; i += LINES_PER_REGEX) this.regexes.push(...compileAll(sources.slice(i, i + LINES_PER_REGEX)));
  }

  matches(probe: string): boolean {
    for (const re of this.regexes) if (re.matches(probe)) return true;
    return false;
  }
}

/** The sources as one alternation; should one be refused by RE2, each alone, without the refused. */
function compileAll(sources: string[]): RE2JS[] {
  try {
    return [RE2JS.compile(`^(?:${sources.join('|')})$`, FLAGS)];
  } catch {
    const kept: RE2JS[] = [];
    for (const s of sources) {
      try {
        kept.push(RE2JS.compile(`^(?:${s})$`, FLAGS));
      } catch {
        // A line RE2 cannot take (a lone surrogate in a class, say) matches nothing, as an invalid line in git.
      }
    }
    return kept;
  }
}

/**
 * A set of gitignore rules. `ignores(probe)`: probe is relative to the
 * rules' folder, with a trailing `/` for a directory.
 */
export class GitignoreMatcher {
  /** From the last rule's run to the first: the first run that matches decides. */
  private readonly runs: RuleRun[] = [];
  private readonly dirs = new Map<string, boolean>();

  constructor(patterns: string | readonly string[]) {
    const rules = parseGitignore(patterns);
    let end = rules.length;
    while (end > 0) {
      const negative = (rules[end - 1] as GitignoreRule).negative;
      let begin = end - 1;
      while (begin > 0 && (rules[begin - 1] as GitignoreRule).negative === negative) begin--;
      // Re-including what nothing before excluded changes nothing: the first run, if negative, is left out.
      if (!(negative && begin === 0))
        this.runs.push(
          new RuleRun(
            negative,
            rules.slice(begin, end).map((rule) => rule.source),
          ),
        );
      end = begin;
    }
  }

  ignores(probe: string): boolean {
    // Parents first: nothing inside an excluded directory can be re-included.
    const last = probe.endsWith('/') ? probe.length - 1 : probe.length;
    for (let cut = probe.indexOf('/'); cut >= 0 && cut < last; cut = probe.indexOf('/', cut + 1)) {
      if (this.dirIgnored(probe.slice(0, cut + 1))) return true;
    }
    return this.decide(probe);
  }

  private dirIgnored(dir: string): boolean {
    const known = this.dirs.get(dir);
    if (known !== undefined) return known;
    if (this.dirs.size >= CACHED_DIRS) this.dirs.clear();
    const ignored = this.decide(dir);
    this.dirs.set(dir, ignored);
    return ignored;
  }

  /** The last matching rule's answer, for this probe alone. */
  private decide(probe: string): boolean {
    for (const run of this.runs) if (run.matches(probe)) return !run.negative;
    return false;
  }
}
