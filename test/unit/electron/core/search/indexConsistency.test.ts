import { describe, expect, it } from 'vitest';

import { checkIndex, type IndexState } from '../../../../../electron/core/search/indexConsistency.js';
import { InvertedIndex } from '../../../../../electron/core/search/invertedIndex.js';

/** A real index's state after a sweep freed slot 0 ('gone'), with 'a' and 'b' live; its arrays are the index's own. */
function sweptIndex(): { ix: InvertedIndex; state: () => IndexState } {
  const ix = new InvertedIndex({ fromDocs: 0, fromPostings: 0, perAdd: 0 });
  ix.add('gone', 'otter seal');
  ix.add('a', 'otter river');
  ix.add('b', 'seal river river');
  ix.remove('gone');
  ix.compact();
  // The state the index hands its own check (private: a test of the check, not of the index).
  const state = () => (ix as unknown as { state(): IndexState }).state();
  return { ix, state };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyArray<infer E> ? E[] : T[K] };

describe('the inverted index consistency check', () => {
  it('finds nothing wrong with an index after adds, removes and a sweep', () => {
    expect(sweptIndex().ix.checkConsistency()).toEqual([]);
  });

  it('finds a posting that names a free slot: the next document there would be found by the dead one’s words', () => {
    const { state } = sweptIndex();
    const s = state() as Mutable<IndexState>;
    const river = s.termIds.get('river') as number;
    (s.postings[river] as number[]).push(0 * 256 + 1);
    s.df[river] = (s.df[river] as number) + 1;
    expect(checkIndex(s)).toContain('term "river" names free slot 0');
  });

  it('finds a document frequency, a length or a count that its postings do not add up to', () => {
    const { state } = sweptIndex();
    const s = state() as Mutable<IndexState>;
    s.df[s.termIds.get('seal') as number] = 7;
    s.docLength[1] = 99;
    expect(checkIndex({ ...s, totalLength: 1 })).toEqual(
      expect.arrayContaining([
        'term "seal": df 7, 1 postings',
        'slot 1: length 99, its postings count 2',
        "total length 1, live documents' lengths add up to 102",
      ]),
    );
  });

  it('finds a dead slot nobody knows of, and a live one about to be swept', () => {
    const { state } = sweptIndex();
    const s = state() as Mutable<IndexState>;
    s.freeSlots.length = 0;
    expect(checkIndex(s)).toContain('slot 0 is dead but neither dying, being swept nor free');
    const purge = new Uint8Array(3);
    purge[1] = 1;
    expect(checkIndex({ ...s, sweep: { purge, slots: [], next: 0, end: 1 } })).toContain('slot 1 is live but marked to sweep');
  });

  it('finds a term the dictionary and the ids disagree on', () => {
    const { state } = sweptIndex();
    const s = state() as Mutable<IndexState>;
    const termIds = new Map(s.termIds);
    termIds.set('walrus', termIds.get('otter') as number);
    expect(checkIndex({ ...s, termIds })).toContain(`term "walrus" has id ${String(s.termIds.get('otter'))}, which is otter's`);
  });
});
