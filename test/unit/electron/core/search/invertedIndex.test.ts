import { describe, expect, it } from 'vitest';

import { InvertedIndex, tokens } from '../../../../../electron/core/search/invertedIndex.js';
import { hasPhrases, parseQuery, snippetOf } from '../../../../../electron/core/search/searchQuery.js';

const words = (...w: string[]) => w.map((term) => ({ term, prefix: false }));

describe('InvertedIndex', () => {
  it('ranks by BM25: more occurrences in a shorter text first, rare words weigh more, every word must match', () => {
    const ix = new InvertedIndex();
    ix.add('a', 'otters otters otters swim');
    ix.add('b', 'an otter and otters swim in the long river with many other animals around them');
    ix.add('c', 'rivers and lakes');
    ix.add('d', 'otters and rivers');
    expect(ix.search(words('otters')).map((h) => h.key)).toEqual(['a', 'd', 'b']);
    expect(ix.search(words('otters', 'rivers')).map((h) => h.key)).toEqual(['d']);
    expect(ix.search(words('otters', 'penguins'))).toEqual([]);
    // The path's words count, boosted.
    ix.add('e', 'nothing here', 'invoices/otters.txt');
    expect(ix.search(words('invoices')).map((h) => h.key)).toEqual(['e']);
  });

  it('prefixes match every word that starts with them', () => {
    const ix = new InvertedIndex();
    ix.add('a', 'sanctuary');
    ix.add('b', 'sanctions');
    ix.add('c', 'sand');
    expect(
      ix
        .search([{ term: 'sanct', prefix: true }])
        .map((h) => h.key)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(ix.search([{ term: 'san', prefix: true }])).toHaveLength(3);
  });

  it('replacing and removing documents leaves no trace, also after compaction renumbers everything', () => {
    const ix = new InvertedIndex();
    ix.add('keep', 'alpha beta');
    for (let i = 0; i < 25_000; i++) ix.add(`tmp${i % 100}`, `gamma unique${i}`);
    ix.add('keep', 'alpha delta');
    expect(ix.search(words('beta'))).toEqual([]);
    expect(ix.search(words('alpha')).map((h) => h.key)).toEqual(['keep']);
    expect(ix.search(words('gamma'))).toHaveLength(100);
    for (let i = 0; i < 100; i++) ix.remove(`tmp${i}`);
    for (let i = 0; i < 20_000; i++) {
      ix.add(`churn${i}`, 'epsilon');
      ix.remove(`churn${i}`);
    }
    expect(ix.search(words('gamma'))).toEqual([]);
    expect(ix.search(words('unique24999'))).toEqual([]);
    expect(ix.search(words('delta')).map((h) => h.key)).toEqual(['keep']);
    expect(ix.size).toBe(1);
  });

  it('filters by key while scoring', () => {
    const ix = new InvertedIndex();
    ix.add('x/1', 'word');
    ix.add('y/1', 'word');
    expect(ix.search(words('word'), (k) => k.startsWith('y/')).map((h) => h.key)).toEqual(['y/1']);
  });

  it('tokenizes letters, digits and underscores in any script, and drops tokens longer than 64', () => {
    expect(tokens('Größe: 12 μέτρα, snake_case and ' + 'x'.repeat(65))).toEqual(['größe', '12', 'μέτρα', 'snake_case', 'and']);
  });
});

describe('search queries', () => {
  it('parses words, "phrases" and prefixes*', () => {
    expect(parseQuery('Otter "sea lion" sanct*')).toEqual({
      words: ['otter', 'sea', 'lion'],
      prefixes: ['sanct'],
      phrases: ['sea lion'],
      terms: ['otter', 'sea', 'lion', 'sanct'],
    });
    expect(hasPhrases('A Sea\n  Lion swims', ['sea lion'])).toBe(true);
    expect(hasPhrases('a lion by the sea', ['sea lion'])).toBe(false);
  });

  it('takes a phrase of any number of words (no spread of them into one call)', () => {
    expect(parseQuery(`"${'otter '.repeat(200_000)}"`).words).toHaveLength(200_000);
  });

  it('snippets the best line, marks every term and says which line', () => {
    const q = parseQuery('otter sanct*');
    expect(snippetOf('# Title\nnothing\nThe otter sanctuary opened.\nAn otter.', q)).toEqual({ line: 3, snippet: 'The **otter** **sanctuary** opened.' });
    // The file's own asterisks (Markdown bold, a glob) are escaped: only matches read as **bold**.
    expect(snippetOf('**Note:** the otter ate *.fish', parseQuery('otter'))?.snippet).toBe('\\*\\*Note:\\*\\* the **otter** ate \\*.fish');
  });
});
