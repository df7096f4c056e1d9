/**
 * The literal every match of a pattern must contain, found without a regex
 * engine: grep looks for it first (a byte search, as ripgrep does) and runs
 * the pattern only on the lines that hold it; a pattern that is nothing but
 * a literal is not run at all. Conservative: whatever it cannot read for
 * sure (alternation at the top, groups, classes, escapes with arguments,
 * flags) gives no literal or ends the run, never a literal a match might lack.
 */

export interface RequiredLiteral {
  /** The longest run of characters every match holds, in order. */
  literal: string;
  /** The whole pattern is this literal: a line matches exactly when it holds it. */
  exact: boolean;
}

/** Escapes whose meaning is not one character, or that take arguments this scanner does not read. */
const UNREAD = /\\[pPxQ0-9C]|\(\?/;

export function requiredLiteral(pattern: string): RequiredLiteral | null {
  if (pattern.length === 0 || UNREAD.test(pattern)) return null;
  const runs: string[] = [];
  let run = '';
  let exact = true;
  let depth = 0;
  const end = () => {
    if (run) runs.push(run);
    run = '';
  };
  for (let i = 0; i < pattern.length;) {
    const c = String.fromCodePoint(pattern.codePointAt(i) as number); // a code point: a quantifier takes all of it
    let atom: string | null = null;
    let next = i + c.length;
    if (c === '\\') {
      const at = pattern.codePointAt(i + 1);
      if (at === undefined) return null;
      const e = String.fromCodePoint(at);
      next = i + 1 + e.length;
      if (/[a-zA-Z0-9]/.test(e))
        exact = false; // \d \w \s \b \n …: not a literal character here
      else atom = e;
    } else if (c === '[') {
      // A class: to its closing bracket (a ] right after [ or [^ is a member).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      if (j >= pattern.length) return null;
      next = j + 1;
      exact = false;
    } else if (c === '(') {
      depth++;
      exact = false;
    } else if (c === ')') {
      depth--;
      exact = false;
    } else if (c === '|') {
      if (depth === 0) return null; // either side may match without the other's literal
      exact = false;
    } else if ('.^$*+?{}'.includes(c)) {
      exact = false;
    } else atom = c;
    if (depth > 0 || (c === ')' && depth === 0)) {
      // Inside a group (or the group just closed): nothing there is required for sure.
      end();
      atom = null;
    }
    // A quantifier after the atom: optional (* ? {0…}) drops it, + and {n…} keep one, either way the run ends.
    const q = pattern[next];
    if (q === '*' || q === '?' || q === '+' || (q === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(next)))) {
      exact = false;
      const optional = q === '*' || q === '?' || (q === '{' && /^\{0[,}]/.test(pattern.slice(next)));
      if (atom !== null && !optional) run += atom;
      end();
      next += q === '{' ? pattern.indexOf('}', next) - next + 1 : 1;
      if (pattern[next] === '?') next++; // lazy
      i = next;
      continue;
    }
    if (atom !== null) run += atom;
    else end();
    i = next;
  }
  end();
  if (runs.length === 0) return null;
  const literal = runs.reduce((a, b) => (b.length > a.length ? b : a));
  return { literal, exact: exact && runs.length === 1 && literal.length === pattern.replace(/\\(.)/gu, '$1').length };
}
