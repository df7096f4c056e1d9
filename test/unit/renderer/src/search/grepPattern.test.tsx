// A .tsx test: type-checked with the renderer's settings (its imports have no .js), not the root's.
import { describe, expect, it } from 'vitest';

import { grepPatternOf, markedLine, queryTerms } from '../../../../../renderer/src/search/grepPattern.js';

describe('a search query as grep looks for it', () => {
  it('takes words, phrases and prefixes as terms', () => {
    expect(queryTerms('status=500 "sea  otter" hold*')).toEqual(['status=500', 'sea otter', 'hold']);
    expect(queryTerms('  "" * ')).toEqual([]);
  });
  it('escapes what a regular expression would read and lets a phrase span any spaces', () => {
    expect(grepPatternOf('a.b "sea otter" (x)')).toBe('a\\.b|sea\\s+otter|\\(x\\)');
    expect(grepPatternOf('   ')).toBeNull();
  });
  it('marks the terms on a line and escapes the line’s own stars', () => {
    expect(markedLine('GET /api/Zebrafish **bold**', 'zebrafish')).toBe('GET /api/**Zebrafish** \\*\\*bold\\*\\*');
  });
});
