import path from 'node:path';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isInside, joinRel, MAX_KEY_CHARS, pathToUri, relativeBelow, resourceKey, uriToPath, uriUnder } from '../../../../../electron/core/library/uriPath.js';
import { MAX_URI_CHARS } from '../../../../../shared/limits.js';

/** The oracle: Node's own relative path, with / separators (the product has relativeBelow). */
const relativeInside = (root: string, candidate: string): string => path.relative(root, candidate).split(path.sep).join('/');

describe('isInside', () => {
  it('compares by segments, not by string prefix', () => {
    expect(isInside('/x/docs', '/x/docs/a.txt')).toBe(true);
    expect(isInside('/x/docs', '/x/docs')).toBe(true);
    expect(isInside('/x/docs', '/x/docs_evil/a.txt')).toBe(false);
    expect(isInside('/x/docs', '/x/docs /a.txt')).toBe(false);
    expect(isInside('/x/docs', '/x/docs"/a.txt')).toBe(false);
    expect(isInside('/x/docs', '/x')).toBe(false);
    expect(isInside('/', '/etc/passwd')).toBe(true);
  });
});

describe('uriToPath', () => {
  it('maps plain and percent-encoded file URLs', () => {
    expect(uriToPath('file:///x/docs/a.txt')).toBe('/x/docs/a.txt');
    expect(uriToPath('file:///x/docs/with%20space.txt')).toBe('/x/docs/with space.txt');
    expect(uriToPath('file:///x/docs/%C3%A9t%C3%A9.md')).toBe('/x/docs/été.md');
    expect(uriToPath('file://localhost/x/a.txt')).toBe('/x/a.txt');
  });

  it('round-trips with pathToUri, spaces and unicode included', () => {
    for (const p of ['/x/a b.txt', '/x/日本/ファイル.txt', '/x/100%.txt', '/x/#hash?.txt']) {
      expect(uriToPath(pathToUri(p))).toBe(p);
    }
  });

  it.each([
    ['dot-dot', 'file:///x/docs/../etc/passwd'],
    ['encoded dot-dot', 'file:///x/docs/%2e%2e/etc/passwd'],
    ['upper-case encoded dot-dot', 'file:///x/docs/%2E%2E/etc/passwd'],
    ['dot-dot then encoded slash', 'file:///x/docs/..%2Fetc/passwd'],
    ['double-encoded dot-dot', 'file:///x/docs/%252e%252e/etc/passwd'],
    ['encoded slash', 'file:///x/docs%2F..%2Fetc/passwd'],
    ['NUL', 'file:///x/docs/a.txt%00.md'],
    ['raw NUL', 'file:///x/docs/a.txt\0'],
    ['single dot', 'file:///x/./docs/a.txt'],
    ['remote host', 'file://evil.example/x/a.txt'],
    ['query', 'file:///x/a.txt?x=1'],
    ['fragment', 'file:///x/a.txt#frag'],
    ['http', 'http://localhost/x/a.txt'],
    ['not a URL', 'not a url'],
    ['empty', ''],
    ['relative', 'file:a.txt'],
  ])('refuses %s', (_name, uri) => {
    expect(uriToPath(uri)).toBeNull();
  });

  it('never maps a generated URI outside the folder to a path inside it', () => {
    const root = '/srv/pub/docs';
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '%2e%2e', '%2E.', '..%2F', '%252e%252e', 'docs', 'docs_evil', 'docs ', 'docs"', '', '%00', 'a', '%2F', '\\..'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segs) => {
        const uri = `file:///srv/pub/${segs.join('/')}`;
        const p = uriToPath(uri);
        if (p === null) return true;
        // Whatever maps, maps to exactly its literal segments: no dot segment survives
        // and a path is inside only when its literal spelling is.
        expect(path.normalize(p).replace(/\/+$/, '')).toBe(p.replace(/\/+$/, ''));
        if (isInside(root, p)) expect(relativeInside(root, p).split('/')).not.toContain('..');
        return true;
      }),
      { seed: 20261130, numRuns: 5000 },
    );
  });
});

describe('the fast paths agree with the slow ones', () => {
  const root = path.resolve('/tmp/shelf root/ünï');
  const rootUri = pathToUri(root).replace(/\/$/, '');
  const segment = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/),
    fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes('/') && !s.includes('\0')),
    fc.constantFrom('.', '..', 'a b', '#x', '?q', '%41', 'é', '漢字', 'x.md', '.hidden'),
  );
  const rel = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

  it('uriUnder is what pathToFileURL makes of the joined path', () => {
    fc.assert(
      fc.property(rel, (r) => uriUnder(root, rootUri, r) === pathToUri(joinRel(root, r))),
      { seed: 7, numRuns: 2000 },
    );
  });

  it('joinRel is path.join, and relativeBelow inverts it for paths below the root', () => {
    fc.assert(
      fc.property(rel, (r) => {
        const joined = joinRel(root, r);
        expect(joined).toBe(path.join(root, ...r.split('/')));
        const back = relativeBelow(root, joined);
        expect(back).toBe(isInside(root, joined) && joined !== root ? relativeInside(root, joined) : null);
      }),
      { seed: 7, numRuns: 2000 },
    );
  });
});

describe('resourceKey', () => {
  it('gives one key for the spellings reads take as one file, and keeps ?as=text', () => {
    const listed = pathToUri('/tmp/x/r&d notes.pdf');
    expect(resourceKey(listed)).toBe(listed);
    expect(resourceKey(listed.replace('&', '%26'))).toBe(listed);
    expect(resourceKey(listed.replace('file:///', 'file://localhost/'))).toBe(listed);
    expect(resourceKey(`${listed.replace('&', '%26')}?as=text`)).toBe(`${listed}?as=text`);
  });

  it('gives a plain URI (its shortcut) the key the long way gives', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean(), (segments, slash) => {
        const uri = `file:///${segments.join('/')}${slash ? '/' : ''}`;
        const p = uriToPath(uri);
        expect(resourceKey(uri)).toBe(p === null ? uri : pathToUri(p));
      }),
    );
  });

  it("keeps a URI whose key would outgrow any file's listed URI as its own key, working out no other key", () => {
    // 8,000 "€" make a 72,000-character key: the flood that held the main thread.
    const flood = `file:///tmp/${'€'.repeat(8000)}`;
    expect(resourceKey(flood)).toBe(flood);
    // A file whose listed URI is longer than a request may carry still has its key: a client names it in raw Unicode.
    const deep = `/tmp/${'é'.repeat(240)}/${'ü'.repeat(240)}/${'ö'.repeat(240)}/${'ä'.repeat(240)}/${'ß'.repeat(240)}/${'ñ'.repeat(240)}`;
    expect(pathToUri(deep).length).toBeGreaterThan(MAX_URI_CHARS);
    expect(resourceKey(`file://${deep}`)).toBe(pathToUri(deep));
    // The shortcut's bound never cuts a key that fits: the long way agrees, just under and over the limit
    // ("é" is 6 characters of key, as the bound counts it; "😀", two units, 12)...
    const prefix = 'file:///tmp/';
    for (const piece of ['é', '😀'])
      for (const extra of [0, 1]) {
        const n = Math.floor((MAX_KEY_CHARS - prefix.length) / (piece === '😀' ? 12 : 6)) + extra;
        const uri = prefix + piece.repeat(n);
        expect(resourceKey(uri)).toBe(extra === 0 ? pathToUri(uriToPath(uri) as string) : uri);
      }
    // ...and for any mixture.
    const piece = fc.constantFrom('€', 'é', '😀', '\ud800', '%c3%a9', '%e2%82%ac', '%41', 'a', ' ');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 800, maxLength: 2400, size: 'max' }), fc.boolean(), (pieces, localhost) => {
        const uri = `file://${localhost ? 'localhost' : ''}/tmp/${pieces.join('')}`;
        const p = uriToPath(uri);
        const long = p === null ? uri : pathToUri(p);
        expect(resourceKey(uri)).toBe(long.length > MAX_KEY_CHARS ? uri : long);
      }),
      { numRuns: 200 },
    );
  });

  it("maps a URI to the path Node's fileURLToPath gives, refusing what it refuses", () => {
    const piece = fc.constantFrom('a', '€', '%2f', '%2F', '%c3%a9', '%ff', '%20', ' ', '/', '%', '%41', '%252f', '😀', '\\');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom('file:///', 'file://localhost/', 'file://host/'), (pieces, start) => {
        const uri = start + pieces.join('');
        let node: string | null;
        try {
          node = fileURLToPath(uri);
        } catch {
          node = null;
        }
        const mapped = uriToPath(uri);
        // uriToPath refuses more (dot segments, doubled slashes…), never less, and never maps elsewhere.
        if (mapped !== null) expect(mapped).toBe(node);
        if (node === null) expect(mapped).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a URI reads refuse as its own key, so it matches only itself', () => {
    for (const bad of ['file:///tmp/x/../etc/passwd', 'https://example.com/a', 'file://evil/a', 'not a uri']) expect(resourceKey(bad)).toBe(bad);
  });
});
