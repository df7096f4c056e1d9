import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { Library } from '../../../../../electron/core/library/library.js';
import { truncateForLog } from '../../../../../electron/core/traffic/truncate.js';
import { eventually, makeTree } from '../../../../support/fixtures.js';

const RULES = { showHidden: false, gitignore: true, extraIgnore: [] };

/** The page listResourcesJson gives, as the object the SDK's handler returns. */
const parsed = (library: Library, cursor?: string) => JSON.parse(`${library.listResourcesJson(cursor).json}}`) as ReturnType<Library['listResources']>;

describe('resources/list as JSON (the socket fast path)', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('is listResources, page by page, and follows a file that changes, comes and goes', async () => {
    const files = Object.fromEntries(Array.from({ length: 2500 }, (_, i) => [`d${i % 7}/f${i}.txt`, `file ${i}\n`]));
    const root = await makeTree(files);
    const library = new Library({ maxReadBytes: 1 << 20 });
    cleanup.push(
      () => rm(root, { recursive: true, force: true }),
      () => library.close(),
    );
    await library.add(root, RULES);
    const pages = () => {
      const all: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = library.listResources(cursor);
        expect(parsed(library, cursor)).toEqual(page);
        all.push(...page.resources);
        cursor = page.nextCursor;
      } while (cursor);
      return all.length;
    };
    expect(pages()).toBe(2500);
    // Unchanged: the same string is handed out again.
    expect(library.listResourcesJson().json).toBe(library.listResourcesJson().json);
    const before = library.listResourcesJson().json;
    await writeFile(path.join(root, 'd0/f0.txt'), 'a longer text than before\n');
    await writeFile(path.join(root, 'a-new.txt'), 'new\n');
    await rm(path.join(root, 'd1/f1.txt'));
    await eventually(() => library.listResources().resources.some((r) => r.name === 'a-new.txt'), 10_000, 'the new file listed');
    await eventually(() => library.listResources().resources.find((r) => r.name === 'd0/f0.txt')?.size === 26, 10_000, 'the change seen');
    await eventually(() => !library.listResources().resources.some((r) => r.name === 'd1/f1.txt'), 10_000, 'the removal seen');
    expect(library.listResourcesJson().json).not.toBe(before);
    expect(pages()).toBe(2500);
    expect(() => library.listResourcesJson('!!')).toThrow(/Invalid cursor/);
  });

  it('gives the traffic log the cut form truncateForLog makes: 200 entries, long strings cut', async () => {
    // A path over 1,024 characters (in folders, as a name has at most 255 bytes); it sorts first.
    const long = `${Array.from({ length: 5 }, (_, i) => `${i}${'n'.repeat(220)}`).join('/')}/z.txt`;
    const root = await makeTree({ ...Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'x'])), [long]: 'y' });
    const library = new Library({ maxReadBytes: 1 << 20 });
    cleanup.push(
      () => rm(root, { recursive: true, force: true }),
      () => library.close(),
    );
    await library.add(root, RULES);
    const whole = library.listResources();
    const page = library.listResourcesJson();
    expect(page.entries).toBe(301);
    expect(JSON.parse(`${page.json}}`)).toEqual(whole);
    expect(JSON.parse(`${page.cut}}`)).toEqual(truncateForLog(whole).value);
    expect(page.cut).toContain('chars]');
    expect(page.cut).toContain('… 101 more items');
  });
});
