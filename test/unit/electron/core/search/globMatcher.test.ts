import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';

import { globMatcher } from '../../../../../electron/core/search/globMatcher.js';

const PATHS = [
  'README.md',
  'notes/todo.md',
  'notes/.hidden.md',
  'src/app.ts',
  'src/lib/util.test.ts',
  'src/lib/deep/x.tsx',
  'a/b/c/d.txt',
  'docs/report 2024.pdf',
  'docs/[draft].md',
  'x{1}.txt',
  'img/photo.PNG',
  'img/photo.png',
  'data/file-a.csv',
  'data/file-b.csv',
  'data/file-ab.csv',
  '.github/workflows/ci.yml',
];

const GLOBS = [
  '*.md',
  '**/*.md',
  'notes/*.md',
  'src/**',
  'src/**/*.ts',
  '**/*.{ts,tsx}',
  '*.{md,pdf}',
  'data/file-?.csv',
  'data/file-[ab].csv',
  'data/file-[a-b]*.csv',
  '**/.*',
  '**/*',
  'img/*.png',
  'a/**/d.txt',
  'a/**/c/*.txt',
  '**/deep/**',
  '!**/*.md',
  'docs/\\[draft\\].md',
  'x\\{1\\}.txt',
  '@(src|docs)/**',
  'data/file-+(a|b).csv',
  'data/file-?(a)b.csv',
  '**/*.{md,{ts,tsx}}',
  '[[:upper:]]*',
  'src/*/util.*.ts',
];

describe('globMatcher: picomatch semantics ({ dot: true }) in linear time', () => {
  it('agrees with picomatch on a set of globs and paths', () => {
    for (const glob of GLOBS) {
      const ours = globMatcher(glob);
      const theirs = picomatch(glob, { dot: true, basename: !glob.includes('/') });
      for (const p of PATHS) expect([glob, p, ours(p)]).toEqual([glob, p, theirs(p)]);
    }
  });

  it('agrees with picomatch on generated globs of *, ?, ** and literals', () => {
    const part = fc.constantFrom('*', '?', '**', 'a', 'b', '.', 'ab', '/', '-', '{a,b}', '[ab]');
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), fc.constantFrom(...PATHS, 'a', 'ab/b', 'a.b', 'b/a/b.a', '-a', 'a/b', 'ab'), (parts, p) => {
        const glob = parts.join('');
        const theirs = picomatch(glob, { dot: true, basename: !glob.includes('/') });
        expect([glob, p, globMatcher(glob)(p)]).toEqual([glob, p, theirs(p)]);
      }),
      { seed: 23, numRuns: 3000 },
    );
  });

  it('answers a glob that makes picomatch backtrack for seconds at once', () => {
    // picomatch took 3.3 s on 17 characters of this and over 50 s on 25 against a 45-character name.
    const evil = globMatcher('*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?!');
    const name = 'a'.repeat(4000);
    const started = process.hrtime.bigint();
    expect(evil(name)).toBe(false);
    // Not a timing assertion of the product (that is npm run bench): a backtracking matcher would not return here at all.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(20);
  });

  it('negates a class with ! as shells do (picomatch reads [!a] as "! or a")', () => {
    expect(globMatcher('data/file-[!a].csv')('data/file-b.csv')).toBe(true);
    expect(globMatcher('data/file-[!a].csv')('data/file-a.csv')).toBe(false);
    expect(globMatcher('data/file-[^a].csv')('data/file-a.csv')).toBe(false);
    expect(globMatcher('data/file-[!a].csv')('data/file-/.csv')).toBe(false);
  });

  it('refuses what it cannot match, saying why', () => {
    expect(() => globMatcher('!(a)*')).toThrow(/!\(…\) is not supported/);
    expect(() => globMatcher('a'.repeat(501))).toThrow(/longer than 500/);
    expect(() => globMatcher('{'.repeat(20) + 'a' + '}'.repeat(20))).toThrow(/nested more than/);
    expect(() => globMatcher('@(a')).toThrow(/unclosed \(/);
    expect(() => globMatcher('[[:nope:]]')).toThrow(/unknown class/);
  });

  it('compiles a glob sent again once, keeping the last 64 globs and no more', () => {
    const first = globMatcher('**/*.{md,txt}');
    expect(globMatcher('**/*.{md,txt}')).toBe(first);
    for (let i = 0; i < 64; i++) globMatcher(`other-${i}/**`);
    const again = globMatcher('**/*.{md,txt}');
    expect(again).not.toBe(first); // pushed out by 64 others: compiled anew, and the same answers
    expect([again('a/b.md'), again('a/b.js')]).toEqual([true, false]);
    // An invalid glob is refused every time it is sent.
    expect(() => globMatcher('@(a')).toThrow(/unclosed \(/);
    expect(() => globMatcher('@(a')).toThrow(/unclosed \(/);
  });
});
