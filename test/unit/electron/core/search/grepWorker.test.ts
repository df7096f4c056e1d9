import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';

import { compile, lowercasable, mayMatch } from '../../../../../electron/core/search/grepWorker.js';

/**
 * grep tests each file as a whole before splitting it into lines; that test
 * may say yes too often, never no when a line matches — also when it
 * lowercases a case-insensitive pattern and the text to run faster.
 */
describe('grep’s whole-text test', () => {
  it('says which case-insensitive patterns keep their meaning lowercased', () => {
    for (const p of ['todo|fixme', 'error.*timeout', 'function\\s+\\w+', 'quakaka[a-z]*', '[A-Z][a-z]+', 'a\\.b', 'x{2,3}'])
      expect(lowercasable(p), p).toBe(true);
    for (const p of ['\\S+', '\\x41', '\\p{Lu}', '[[:upper:]]', '[A-z]', '(?-i)Abc', 'café']) expect(lowercasable(p), p).toBe(false);
  });

  it('never misses a file with a matching line, for patterns and texts mixing cases, classes and escapes', () => {
    // ſ (long s) and K (the Kelvin sign) are matched by s and k in any case, but only one of them lowercases to its letter.
    const atom = fc.constantFrom(
      'a',
      'B',
      'c',
      'Z',
      's',
      'S',
      '.',
      '\\d',
      '\\s',
      '\\w',
      '\\S',
      '[a-c]',
      '[A-C]',
      '[^a]',
      '[A-z]',
      '[r-t]',
      'ſ',
      'k',
      'K',
      '\\.',
      '-',
      '+',
      '*',
      '?',
    );
    const char = fc.constantFrom('a', 'A', 'b', 'B', 'c', 'C', 'z', 'Z', 'k', 'K', '\u212a', 's', 'ſ', 'S', '1', ' ', '.', '-', '_', '[', '\r', '\n');
    fc.assert(
      fc.property(fc.array(atom, { minLength: 1, maxLength: 5 }), fc.array(char, { maxLength: 40 }), fc.boolean(), (atoms, chars, ignoreCase) => {
        // Quantifiers only after something they can apply to.
        const pattern = atoms.map((a, i) => (/^[+*?]$/.test(a) && (i === 0 || /^[+*?]$/.test(atoms[i - 1] as string)) ? 'a' : a)).join('');
        const text = chars.join('');
        const line = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
        const someLine = text.split('\n').some((l) => line.matcher(l.endsWith('\r') ? l.slice(0, -1) : l).find());
        if (someLine)
          expect([pattern, text, mayMatch(compile(pattern, ignoreCase), ignoreCase ? null : Buffer.from(text), () => text)]).toEqual([pattern, text, true]);
      }),
      { seed: 42, numRuns: 5000 },
    );
  });
});
