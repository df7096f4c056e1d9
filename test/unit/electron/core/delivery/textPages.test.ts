import { closeSync, fstat, openSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';

import { LineIndex, LineIndexCache } from '../../../../../electron/core/delivery/lineIndex.js';
import { type PagedEncoding, textEncoding } from '../../../../../electron/core/delivery/textEncoding.js';
import { FileLines, type PageRequest, StringLines } from '../../../../../electron/core/delivery/textPages.js';
import { tempDirs } from '../../../../support/tempDirs.js';

const fstatAsync = promisify(fstat);
const tempDir = tempDirs('pages-');

/** The bytes a file of `text` holds in `encoding` (with the BOM such a file starts with), and where line 1 starts. */
function encode(text: string, encoding: PagedEncoding, bom: boolean): { bytes: Buffer; start: number } {
  if (encoding === 'windows-1252') return { bytes: iconv.encode(text, 'windows-1252'), start: 0 };
  if (encoding === 'utf-16le') return { bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), start: 2 };
  if (encoding === 'utf-16be') return { bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), start: 2 };
  return bom ? { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), start: 3 } : { bytes: Buffer.from(text), start: 0 };
}

async function fileLines(text: string, encoding: PagedEncoding, bom = false): Promise<{ lines: FileLines; close(): void; index: LineIndex }> {
  const file = path.join(await tempDir(), 'f.txt');
  const { bytes, start } = encode(text, encoding, bom);
  await writeFile(file, bytes);
  const fd = openSync(file, 'r');
  const st = await fstatAsync(fd);
  const index = await LineIndex.build(fd, st, textEncoding(encoding), start);
  return { lines: new FileLines(fd, index, st.size), index, close: () => closeSync(fd) };
}

describe('StringLines', () => {
  it('pages whole lines within the budget, counts from the end, and cuts a long line between characters', () => {
    const lines = new StringLines('one\ntwo\nthree\nfour');
    expect(lines.totalLines).toBe(4);
    expect(lines.page({ budget: 9 })).toMatchObject({ text: 'one\ntwo\n', firstLine: 1, lastLine: 2, next: { offset: 3 } });
    expect(lines.page({ budget: 100, offset: -2 })).toMatchObject({ text: 'three\nfour', firstLine: 3, lastLine: 4, next: null });
    expect(lines.page({ budget: 100, offset: 2, limit: 1 })).toMatchObject({ text: 'two\n', next: { offset: 3 } });
    expect(lines.page({ budget: 3, offset: 3 })).toMatchObject({ text: 'thr', cutLine: true, next: { offset: 3, column: 4 } });
    expect(lines.page({ budget: 100, offset: 3, column: 4 })).toMatchObject({ text: 'ee\nfour', startColumn: 4, next: null });
    // An emoji is two UTF-16 units: a cut never falls between them.
    expect(new StringLines('a😀b').page({ budget: 2 })).toMatchObject({ text: 'a', next: { offset: 1, column: 2 } });
    expect(new StringLines('').page({ budget: 10 })).toMatchObject({ text: '', totalLines: 0, next: null });
  });

  it('refuses what is not a place in the text, saying why', () => {
    const lines = new StringLines('one\ntwo\n');
    expect(() => lines.page({ budget: 10, offset: 0 })).toThrow(/offset is a line number/);
    expect(() => lines.page({ budget: 10, offset: 3 })).toThrow(/past the end: the text has 2 line/);
    expect(() => lines.page({ budget: 10, offset: 1, column: 5 })).toThrow(/column 5 is past the end of line 1 \(it has 4/);
    expect(() => lines.page({ budget: 10, limit: 0 })).toThrow(/limit/);
  });
});

const ALPHABET = ['a', 'b', ' ', 'é', '€', '😀', '\n', '\n', '\r\n', 'zzzzzzzzzz'];

describe('FileLines: a file on disk paged as its text would be', () => {
  for (const [encoding, bom] of [
    ['utf-8', false],
    ['utf-8', true],
    ['windows-1252', false],
    ['utf-16le', true],
    ['utf-16be', true],
  ] as const) {
    it(`${encoding}${bom ? ' with a BOM' : ''}: every page equals the in-memory page, and the pages make the text`, async () => {
      const alphabet = encoding === 'windows-1252' ? ALPHABET.filter((c) => c !== '😀') : ALPHABET;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...alphabet), { maxLength: 400 }),
          fc.integer({ min: 1, max: 40 }),
          fc.option(fc.integer({ min: 1, max: 7 })),
          async (parts, budget, limit) => {
            const text = parts.join('');
            const disk = await fileLines(text, encoding, bom);
            try {
              const memory = new StringLines(text);
              expect(disk.lines.totalLines).toBe(memory.totalLines);
              let req: PageRequest | null = { budget, ...(limit ? { limit } : {}) };
              const got: string[] = [];
              while (req) {
                const a = await disk.lines.page(req);
                const b = memory.page(req);
                expect(a).toEqual(b);
                got.push(a.text);
                req = a.next ? { ...req, ...a.next } : null;
                if (a.next && a.next.column === undefined) delete req?.column;
              }
              expect(got.join('')).toBe(text);
              if (memory.totalLines > 0) expect(await disk.lines.page({ budget: 1000, offset: -1 })).toEqual(memory.page({ budget: 1000, offset: -1 }));
            } finally {
              disk.close();
            }
          },
        ),
        { seed: 7, numRuns: 150 },
      );
    });
  }

  it('finds a line far into a large file by reading near its checkpoint', async () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `line ${i + 1}${'.'.repeat(i % 50)}`).join('\n');
    const disk = await fileLines(text, 'utf-8');
    try {
      expect(disk.index.checkpoints).toBeGreaterThan(20);
      const page = await disk.lines.page({ budget: 1000, offset: 43_210, limit: 2 });
      expect(page.text).toBe(`line 43210${'.'.repeat(43_209 % 50)}\nline 43211${'.'.repeat(43_210 % 50)}\n`);
      expect(page.totalLines).toBe(50_000);
    } finally {
      disk.close();
    }
  });
});

describe('LineIndexCache', () => {
  it('extends the index of a file that only grew (a log), and builds it again when the file was rewritten', async () => {
    const file = path.join(await tempDir(), 'app.log');
    await writeFile(file, 'one\ntwo\n');
    const cache = new LineIndexCache();
    const utf8 = textEncoding('utf-8');
    const read = async () => {
      const fd = openSync(file, 'r');
      try {
        const st = await fstatAsync(fd);
        const index = (await cache.current(fd, st)) ?? (await cache.build(fd, st, utf8, 0));
        return { total: index.totalLines, last: (await new FileLines(fd, index, st.size).page({ budget: 1000, offset: -1 })).text };
      } finally {
        closeSync(fd);
      }
    };
    expect(await read()).toEqual({ total: 2, last: 'two\n' });
    await appendFile(file, 'thr');
    expect(await read()).toEqual({ total: 3, last: 'thr' });
    await appendFile(file, 'ee\nfour é\n');
    expect(await read()).toEqual({ total: 4, last: 'four é\n' });
    expect(cache.builds).toBe(1);
    // Rewritten (same size or not): indexed again from the start.
    await writeFile(file, 'x\ny\nz\n');
    expect(await read()).toEqual({ total: 3, last: 'z\n' });
    expect(cache.builds).toBe(2);
    // Bytes that are not UTF-8 appended: indexed again (the caller decides the file's kind anew).
    await appendFile(file, Buffer.from([0xff, 0x0a]));
    await read();
    expect(cache.builds).toBe(3);
  });
});
