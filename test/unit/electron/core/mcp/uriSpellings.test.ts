import { describe, expect, it } from 'vitest';

import { pathToUri } from '../../../../../electron/core/library/uriPath.js';
import { UriSpellings } from '../../../../../electron/core/mcp/uriSpellings.js';

describe('UriSpellings', () => {
  const listed = pathToUri('/tmp/shelf/q&a.txt');
  const encoded = listed.replace('&', '%26');

  it('finds each spelling of a file by its library URI, counted until its last holder lets go', () => {
    const s = new UriSpellings();
    s.add(encoded);
    s.add(encoded);
    s.add(listed);
    expect(new Set(s.of(listed))).toEqual(new Set([encoded, listed]));
    s.delete(encoded);
    expect(new Set(s.of(listed))).toEqual(new Set([encoded, listed]));
    s.delete(encoded);
    s.delete(listed);
    expect(s.of(listed)).toEqual([]);
    expect(s.empty).toBe(true);
  });

  it('ignores a delete of what it never held', () => {
    const s = new UriSpellings();
    s.add(listed);
    s.delete(encoded);
    expect(s.of(listed)).toEqual([listed]);
  });
});
