import { describe, expect, it } from 'vitest';

import { heldCost } from '../../../../../electron/core/clientMemory/memoryBudget.js';
import { pathToUri, resourceKey } from '../../../../../electron/core/library/uriPath.js';
import { spellingOf, UriSpellings } from '../../../../../electron/core/mcp/uriSpellings.js';

describe('UriSpellings', () => {
  const listed = pathToUri('/tmp/shelf/q&a.txt');
  const encoded = listed.replace('&', '%26');

  it('finds each spelling of a file by its library URI, counted until its last holder lets go', () => {
    const s = new UriSpellings();
    s.add(spellingOf(encoded));
    s.add(spellingOf(encoded));
    s.add(spellingOf(listed));
    expect(new Set(s.of(listed))).toEqual(new Set([encoded, listed]));
    s.delete(spellingOf(encoded));
    expect(new Set(s.of(listed))).toEqual(new Set([encoded, listed]));
    s.delete(spellingOf(encoded));
    s.delete(spellingOf(listed));
    expect(s.of(listed)).toEqual([]);
    expect(s.empty).toBe(true);
  });

  it('ignores a delete of what it never held', () => {
    const s = new UriSpellings();
    s.add(spellingOf(listed));
    s.delete(spellingOf(encoded));
    expect(s.of(listed)).toEqual([listed]);
  });
});

describe('spellingOf', () => {
  it('counts the key a spelling is kept under, which can be many times the URI (every non-ASCII character percent-encoded)', () => {
    const uri = `file:///tmp/${'€'.repeat(900)}`;
    const key = resourceKey(uri);
    expect(key.length).toBeGreaterThan(8 * uri.length);
    expect(spellingOf(uri)).toEqual({ uri, key, cost: heldCost(uri) + heldCost(key) });
    // A URI that is its own key costs what it did.
    const plain = pathToUri('/tmp/plain.txt');
    expect(spellingOf(plain).cost).toBe(heldCost(plain));
  });
});
