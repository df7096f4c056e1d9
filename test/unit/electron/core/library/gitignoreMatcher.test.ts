import ignore from 'ignore';
import { describe, expect, it } from 'vitest';

import { GitignoreMatcher, MAX_PATTERN_CHARS } from '../../../../../electron/core/library/gitignoreMatcher.js';

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATTERN_PARTS = [
  'a',
  'b',
  'A',
  'ab',
  '.',
  'x',
  '1',
  '-',
  '*',
  '*',
  '**',
  '***',
  '?',
  '/',
  '/',
  '/',
  '[ab]',
  '[!a]',
  '[^b]',
  '[a-c]',
  '[c-a]',
  '[]a]',
  '[[:digit:]]',
  '[[:alpha:]]',
  '[[:bogus:]]',
  '[a',
  '[--0]',
  '[/]',
  '\\*',
  '\\?',
  '\\[',
  '\\a',
  '\\\\',
  '\\/',
  '\\ ',
  ' ',
  '!',
  '#',
  '.*',
  '*.b',
  'a*',
  '*a',
];
const LINE_PREFIXES = ['', '', '', '', '!', '#', '\\!', '\\#', '/', '**/', '!/'];
const LINE_SUFFIXES = ['', '', '', '', '/', '/**', '/*', '/**/', ' ', '  ', '\\ ', '\\'];
const SEGMENTS = ['a', 'b', 'A', 'ab', 'ba', 'a.b', '.a', '1', 'x', 'x-y', '*', 'a b', '!a', '#a', 'a ', '[a]', '\\', '-', 'é'];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function generatedLine(rand: () => number): string {
  let body = '';
  const parts = 1 + Math.floor(rand() * 5);
  for (let i = 0; i < parts; i++) body += pick(rand, PATTERN_PARTS);
  return pick(rand, LINE_PREFIXES) + body + pick(rand, LINE_SUFFIXES);
}

function generatedPath(rand: () => number): string {
  const depth = 1 + Math.floor(rand() * 5);
  const parts: string[] = [];
  for (let i = 0; i < depth; i++) parts.push(pick(rand, SEGMENTS));
  return parts.join('/') + (rand() < 0.4 ? '/' : '');
}

/** Where the two disagree: [gitignore, path, ignore's answer]. */
/** How many compared paths `ignore` said were ignored (so the comparison is not all `false`). */
let ignoredSeen = 0;
function disagreements(text: string | string[], paths: readonly string[]): Array<[string, string, boolean]> {
  const reference = ignore().add(text);
  const ours = new GitignoreMatcher(text);
  const wrong: Array<[string, string, boolean]> = [];
  for (const p of paths) {
    // Only paths a folder can hold: relative, no empty or `.` parts.
    if (!ignore.isPathValid(p) || p.includes('//') || /(^|\/)\.{1,2}(\/|$)/.test(p)) continue;
    const expected = reference.ignores(p);
    if (expected) ignoredSeen++;
    if (ours.ignores(p) !== expected) wrong.push([Array.isArray(text) ? JSON.stringify(text) : text, p, expected]);
  }
  return wrong;
}

describe('GitignoreMatcher agrees with the ignore package', () => {
  it('on generated lines × generated paths (seeded)', () => {
    const rand = random(37);
    const wrong: Array<[string, string, boolean]> = [];
    let cases = 0;
    for (let set = 0; set < 1500; set++) {
      const lines = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => generatedLine(rand));
      const paths = Array.from({ length: 30 }, () => generatedPath(rand));
      // Paths made of the lines' own words match far more often than random ones.
      for (const line of lines) {
        const literal = line.replace(/[\\!#[\]*? ]/g, '').replace(/^\/+|\/+$/g, '');
        if (literal) paths.push(literal, `${literal}/`, `x/${literal}`, `${literal}/x`);
      }
      wrong.push(...disagreements(lines.join(rand() < 0.2 ? '\r\n' : '\n'), paths));
      wrong.push(...disagreements(lines, paths));
      cases += paths.length * 2;
    }
    expect(cases).toBeGreaterThan(90_000);
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(ignoredSeen).toBeGreaterThan(5_000);
  });

  it('on the examples of git’s documentation (gitignore(5)) and the edge cases of ignore’s README', () => {
    const examples: Array<[string, string[]]> = [
      ['hello.*', ['hello.txt', 'hello.', 'a/hello.c', 'hello/', 'hellox']],
      ['foo/', ['foo', 'foo/', 'a/foo/', 'a/foo', 'foo/bar', 'a/foo/bar']],
      ['doc/frotz/', ['doc/frotz/', 'a/doc/frotz/', 'doc/frotz', 'doc/frotz/x']],
      ['frotz/', ['frotz/', 'a/frotz/', 'doc/frotz/x']],
      ['/bar', ['bar', 'bar/', 'a/bar', 'bar/x']],
      ['*.c', ['cat-file.c', 'mozilla-sha1/sha1.c', 'c']],
      ['/*.c', ['cat-file.c', 'mozilla-sha1/sha1.c']],
      ['**/foo', ['foo', 'a/foo', 'a/b/foo/', 'afoo']],
      ['**/foo/bar', ['foo/bar', 'a/foo/bar', 'foo/x/bar', 'a/foo/bar/']],
      ['abc/**', ['abc', 'abc/', 'abc/x', 'abc/x/y/', 'a/abc/x']],
      ['a/**/b', ['a/b', 'a/x/b', 'a/x/y/b', 'a/xb', 'x/a/b']],
      ['a/**/', ['a/', 'a/b/', 'a/b/c/', 'a/b', 'a/b/c']],
      ['foo/*', ['foo/test.json', 'foo/bar/', 'foo/bar/hello.c', 'foo/', 'foo']],
      ['/*\n!/foo\n/foo/*\n!/foo/bar', ['foo/bar', 'foo/bar/x', 'foo/baz', 'other', 'foo/']],
      ['*.log\n!important.log', ['a.log', 'important.log', 'x/important.log']],
      ['build/\n!build/keep', ['build/keep', 'build/', 'build/x']],
      ['\\#file\n\\!file\n#comment', ['#file', '!file', 'comment', '#comment']],
      ['trailing   \nescaped\\ \nboth\\  ', ['trailing', 'trailing   ', 'escaped ', 'escaped', 'both ', 'both']],
      ['[!a]bc\n[a-c]x\n[[:digit:]]9\nq[]]', ['abc', 'bbc', 'ax', 'dx', '19', 'a9', 'q]']],
      ['*\n!*/\n!*.md', ['a.md', 'a/b.md', 'a/b.txt', 'x', 'a/']],
      ['NODE_MODULES', ['node_modules', 'Node_Modules/x']],
      ['\uFEFF# bom\nbom', ['bom', '# bom']],
    ];
    const wrong: Array<[string, string, boolean]> = [];
    for (const [text, paths] of examples) wrong.push(...disagreements(text, paths));
    expect(wrong).toEqual([]);
    // The documentation's own claims, as a check on the examples.
    const m = new GitignoreMatcher('foo/*');
    expect([m.ignores('foo/test.json'), m.ignores('foo/bar/'), m.ignores('foo/bar/hello.c'), m.ignores('foo')]).toEqual([true, true, true, false]);
  });

  it('answers for the pathological line against 80 nested folders (the ignore package took 16 s and more)', () => {
    const line = '**/a/**/a/**/a/**/a/**/a/**/a/**/b';
    const m = new GitignoreMatcher(`${line}\n${line.replace(/b$/, 'c')}\n`);
    const deep = 'a/'.repeat(80);
    expect(m.ignores(`${deep}x`)).toBe(false);
    expect(m.ignores(`${deep}b`)).toBe(true);
    for (let i = 0; i < 20; i++) expect(m.ignores(`${deep}x${i}/`)).toBe(false);
  });

  it('skips a line over the bound and still applies the rest', () => {
    const m = new GitignoreMatcher(`${'a'.repeat(MAX_PATTERN_CHARS + 1)}\n*.log\n`);
    expect(m.ignores('a'.repeat(MAX_PATTERN_CHARS + 1))).toBe(false);
    expect(m.ignores('x.log')).toBe(true);
  });
});
