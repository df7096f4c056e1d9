import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requiredLiteral } from '../../../../../electron/core/search/grepLiteral.js';
import { type GrepItem, type GrepItemResult, PIECE_BYTES, searchBatch } from '../../../../../electron/core/search/grepWorker.js';

/**
 * grep's literal prefilter (a byte search for the pattern's required literal,
 * the pattern run only on the lines holding it) finds exactly what the line
 * by line search finds: the same lines, text, context, and the same places to
 * go on from, piece after piece and batch after batch.
 */

/** Every step of a file's search, in both ways: each result must be the other's. */
function searchBoth(file: string, pattern: string, ignoreCase: boolean, context: number, maxMatches: number): GrepItemResult[] {
  const steps: GrepItemResult[] = [];
  let item: GrepItem = { key: 1, path: file, name: path.basename(file), firstLine: 1, before: [] };
  for (let n = 0; n < 1000; n++) {
    const req = { id: n, pattern, ignoreCase, context, maxMatches, items: [item] };
    const [fast] = searchBatch(req, true) as [GrepItemResult];
    const [slow] = searchBatch(req, false) as [GrepItemResult];
    expect(fast, `${pattern} step ${n}`).toEqual(slow);
    steps.push(fast);
    if (fast.again) item = { ...item, skipBefore: fast.again.skipBefore, encoding: fast.again.encoding };
    else if (fast.rest) {
      const { from, line, encoding, before } = fast.rest;
      item = { key: 1, path: file, name: item.name, from, firstLine: line, before, encoding };
    } else return steps;
  }
  throw new Error('no end');
}

describe('grep’s literal prefilter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'grep-scan-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the literal every match needs, and nothing a match may lack', () => {
    expect(requiredLiteral('ERROR')).toEqual({ literal: 'ERROR', exact: true });
    expect(requiredLiteral('a\\.b')).toEqual({ literal: 'a.b', exact: true });
    expect(requiredLiteral('\\b[A-Z]\\w+ed, \\w+s\\b')).toEqual({ literal: 'ed, ', exact: false });
    expect(requiredLiteral('colou?r')).toEqual({ literal: 'colo', exact: false });
    expect(requiredLiteral('timeouts+ after')).toEqual({ literal: 'timeouts', exact: false }); // the s once, then the run ends
    expect(requiredLiteral('ab{0,2}c')?.literal).toBe('a');
    expect(requiredLiteral('x(abc)+yz')?.literal).toBe('yz');
    expect(requiredLiteral('😀?abc')).toEqual({ literal: 'abc', exact: false });
    for (const p of ['a|b', 'foo|bar', '(?i)abc', '\\x41bc', '\\pLabc', '.*', '[abc]', '']) expect(requiredLiteral(p), p).toBeNull();
  });

  it('finds what the line-by-line search finds, on generated files: literals, regexes, any case, UTF-8, CRLF, context, few matches a batch', async () => {
    const char = fc.constantFrom('a', 'b', 'A', 'B', 'e', 'r', 'o', ' ', '.', 'é', 'ß', '€', '😀', 'ſ', 'K', 'k', 'İ', '\n', '\r\n', '\t');
    const patterns = fc.constantFrom('ab', 'a b', 'err', 'ERR', 'é', '€a', '😀', 'b+a', 'a.b', '^ab', 'ab$', 'r[oe]', 'k', 's', 'o\\.', 'x', 'e?rr', '\\bab');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(char, { maxLength: 300 }),
        patterns,
        fc.boolean(),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        async (chars, pattern, ignoreCase, context, maxMatches, bom) => {
          const file = path.join(dir, `t${n++}.txt`);
          await writeFile(file, Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(chars.join(''), 'utf8')]));
          searchBoth(file, pattern, ignoreCase, context, maxMatches);
        },
      ),
      { seed: 4201, numRuns: 600 },
    );
  });

  it('finds the same across piece boundaries of a file of three pieces, with context carried over', async () => {
    const line = (i: number) => (i % 997 === 0 ? `ERROR crans ${i} naïve €\r\n` : `info ${i} everything fine, ok ok ok\n`);
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 2.5 * PIECE_BYTES; i++) {
      const l = line(i);
      parts.push(l);
      size += Buffer.byteLength(l);
    }
    const file = path.join(dir, 'big.log');
    await writeFile(file, parts.join(''));
    for (const [pattern, ignoreCase] of [
      ['ERROR', false],
      ['error', true],
      ['crans \\d+ na', false],
      ['^info 4\\d\\d\\d every.*ok$', false],
    ] as const) {
      const steps = searchBoth(file, pattern, ignoreCase, 2, 500);
      expect(steps.filter((s) => s.rest).length, pattern).toBeGreaterThanOrEqual(2);
      const matches = steps.flatMap((s) => s.matches);
      if (!pattern.startsWith('^')) expect(matches.length, pattern).toBe(Math.ceil(parts.length / 997));
      else expect(matches.length).toBe(999); // info 4000–4999 but 4985 (an ERROR line), in two batches
    }
  }, 120_000);
});
