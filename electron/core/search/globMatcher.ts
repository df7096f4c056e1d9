import { RE2JS } from 're2js';

import { ShelfError } from '../base/shelfError.js';

/**
 * A client's glob, matched in linear time. picomatch turns a glob into a
 * backtracking JavaScript RegExp: `*?*?*?*?*?*?*?*?*?*?*?*?!` against one
 * 45-character name held the thread for 50 s. Here the glob is translated
 * to RE2 syntax and run by re2js (an automaton: time linear in the path,
 * whatever the glob).
 *
 * Semantics follow picomatch with `{ dot: true }`, as the tools always used:
 * `*` and `?` never cross `/`, `**` as a whole segment spans any number of
 * segments, `[…]` / `[!…]` classes, `{a,b}` alternatives (nested), the
 * extglobs `@(…)`, `?(…)`, `+(…)`, `*(…)`, `\` escapes, and a leading `!`
 * negates. A glob without `/` matches the file name alone. `!(…)` needs
 * look-ahead and is refused with a clear message.
 */

export const MAX_GLOB_CHARS = 500;
const MAX_NESTING = 16;

export type PathMatcher = (relPath: string) => boolean;

class GlobSyntax extends Error {}

const SPECIAL = /[\\^$.|?*+()[\]{}]/g;
const quote = (s: string) => s.replace(SPECIAL, '\\$&');

/** The RE2 source for `glob` (without anchors). */
function translate(glob: string): string {
  let i = 0;
  const out: string[] = [];
  // Open groups, innermost last: inside {…} a `,` and inside (…) a `|` separates alternatives; `close` ends the group.
  const stack: Array<{ kind: 'brace' | 'ext'; close: string }> = [];
  const open = (kind: 'brace' | 'ext', close: string, skip: number) => {
    if (stack.length >= MAX_NESTING) throw new GlobSyntax(`groups nested more than ${MAX_NESTING} deep`);
    out.push('(?:');
    stack.push({ kind, close });
    i += skip;
  };
  const inside = () => stack[stack.length - 1]?.kind;

  const segmentStart = () => i === 0 || glob[i - 1] === '/';
  while (i < glob.length) {
    const c = glob[i] as string;
    if (c === '\\') {
      const next = glob[i + 1];
      if (next === undefined) throw new GlobSyntax('a glob cannot end with \\');
      out.push(quote(next));
      i += 2;
      continue;
    }
    if (c === '*') {
      if (glob[i + 1] === '(') {
        open('ext', ')*', 2);
        continue;
      }
      if (glob[i + 1] === '*') {
        // `**` as a whole segment: any number of segments (none included).
        let j = i;
        while (glob[j] === '*') j++;
        const atStart = segmentStart();
        const atEnd = j === glob.length || glob[j] === '/' || glob[j] === '}' || glob[j] === ',' || glob[j] === ')' || glob[j] === '|';
        if (atStart && atEnd) {
          if (glob[j] === '/') {
            out.push('(?:[^/]*/)*');
            i = j + 1;
          } else if (j === glob.length && out[out.length - 1] === '/' && !glob.slice(0, i - 1).endsWith('*')) {
            // A trailing `/**` also matches the folder itself (`a/**` matches `a`; picomatch makes `*/**` the exception).
            out[out.length - 1] = '(?:/.*)?';
            i = j;
          } else {
            out.push('.*');
            i = j;
          }
          continue;
        }
        out.push('[^/]*');
        i = j;
        continue;
      }
      out.push('[^/]*');
      i++;
      continue;
    }
    if (c === '?') {
      if (glob[i + 1] === '(') {
        open('ext', ')?', 2);
        continue;
      }
      out.push('[^/]');
      i++;
      continue;
    }
    if ((c === '@' || c === '+') && glob[i + 1] === '(') {
      open('ext', c === '+' ? ')+' : ')', 2);
      continue;
    }
    if (c === '!' && glob[i + 1] === '(') throw new GlobSyntax('the extglob !(…) is not supported (use a leading ! to negate the whole glob)');
    if (c === '[') {
      const end = classEnd(glob, i);
      if (end < 0) {
        out.push('\\[');
        i++;
        continue;
      }
      let body = glob.slice(i + 1, end);
      let negate = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      out.push(`[${negate ? '^/' : ''}${classBody(body)}]`);
      i = end + 1;
      continue;
    }
    if (c === '{') {
      const close = braceEnd(glob, i);
      if (close < 0) {
        out.push('\\{');
        i++;
        continue;
      }
      open('brace', ')', 1);
      continue;
    }
    if ((c === ',' && inside() === 'brace') || (c === '|' && inside() === 'ext')) {
      out.push('|');
      i++;
      continue;
    }
    if ((c === '}' && inside() === 'brace') || (c === ')' && inside() === 'ext')) {
      out.push((stack.pop() as { close: string }).close);
      i++;
      continue;
    }
    out.push(quote(c));
    i++;
  }
  if (stack.length > 0) throw new GlobSyntax(`an unclosed ${inside() === 'brace' ? '{' : '('}`);
  return out.join('');
}

/** Index of the `]` closing the class opened at `start`, or -1 (then `[` is literal). */
function classEnd(glob: string, start: number): number {
  let j = start + 1;
  if (glob[j] === '!' || glob[j] === '^') j++;
  if (glob[j] === ']') j++; // a leading ] is a member
  for (; j < glob.length; j++) {
    if (glob[j] === '\\') j++;
    else if (glob[j] === '[' && glob[j + 1] === ':') {
      const close = glob.indexOf(':]', j + 2);
      if (close > 0) j = close + 1;
    } else if (glob[j] === ']') return j;
  }
  return -1;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\s',
  word: '\\w',
  xdigit: 'a-fA-F0-9',
  punct: '!-\\/:-@\\[-`{-~',
};

/** A class's members in RE2 syntax: ranges kept, POSIX names expanded, RE2's own metacharacters escaped. */
function classBody(body: string): string {
  let out = '';
  for (let j = 0; j < body.length; j++) {
    const c = body[j] as string;
    if (c === '\\' && j + 1 < body.length) {
      out += quote(body[++j] as string);
    } else if (c === '[' && body[j + 1] === ':') {
      const close = body.indexOf(':]', j + 2);
      const name = close > 0 ? body.slice(j + 2, close) : '';
      const expanded = POSIX_CLASSES[name];
      if (!expanded) throw new GlobSyntax(`unknown class [:${name}:]`);
      out += expanded;
      j = close + 1;
    } else if (c === '-' && out !== '' && j + 1 < body.length) {
      out += '-';
    } else {
      out += c === '-' ? '\\-' : /[\\\]^[]/.test(c) ? `\\${c}` : c;
    }
  }
  return out;
}

/** Index of the `}` closing the brace group at `start`, or -1 (then `{` is literal, as in picomatch). */
function braceEnd(glob: string, start: number): number {
  let level = 0;
  for (let j = start; j < glob.length; j++) {
    const c = glob[j];
    if (c === '\\') j++;
    else if (c === '{') level++;
    else if (c === '}' && --level === 0) return j;
  }
  return -1;
}

/**
 * A matcher for `glob`, or a ShelfError (-32602) that says what is wrong
 * with it. Matching costs time linear in the path's length.
 */
export function globMatcher(glob: string): PathMatcher {
  if (glob.length > MAX_GLOB_CHARS) throw ShelfError.invalidParams(`The glob is longer than ${MAX_GLOB_CHARS} characters`);
  let made = compiled.get(glob);
  if (made)
    compiled.delete(glob); // the most recently used goes last
  else {
    made = compile(glob);
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value as string);
  }
  compiled.set(glob, made);
  return made;
}

/**
 * Globs compiled lately: the same glob sent again (a client paging, or one sending it as fast as it can)
 * costs a lookup, not a compile (that was 4% of the server's thread in the
 * soak beside the attacks). At most COMPILED_KEPT, each from a glob of at
 * most MAX_GLOB_CHARS.
 */
const COMPILED_KEPT = 64;
const compiled = new Map<string, PathMatcher>();

function compile(glob: string): PathMatcher {
  let source = glob;
  let negate = false;
  while (source.startsWith('!') && !source.startsWith('!(')) {
    negate = !negate;
    source = source.slice(1);
  }
  // As the tools always called picomatch: the file name alone when the glob (as given) has no `/`.
  const basename = !glob.includes('/');
  if (source.startsWith('./')) source = source.slice(2);
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^(?:${translate(source)})$`, RE2JS.DOTALL);
  } catch (err) {
    const why = err instanceof GlobSyntax ? err.message : 'it cannot be read as a glob';
    throw ShelfError.invalidParams(`Invalid glob "${glob.slice(0, 100)}": ${why}`);
  }
  return (rel) => {
    const subject = basename ? rel.slice(rel.lastIndexOf('/') + 1) : rel;
    return re.matches(subject) !== negate;
  };
}
