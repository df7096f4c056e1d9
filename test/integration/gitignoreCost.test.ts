import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, MIN_DEADLINE_MS, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * A .gitignore is any file a published folder holds. With the `ignore`
 * package, `**∕a/**∕a/…/b` beside a chain of 52 nested `a/` folders made
 * another folder's reader wait up to 3.3 s a request (backtracking RegExps on
 * the main thread). Matched by RE2 now, the reads of the other folder go on
 * while a client keeps asking about paths at the bottom of the chain.
 */

const DEPTH = 60;
const LINES = ['**/a/**/a/**/a/**/a/**/a/**/a/**/b', '**/a/**/a/**/a/**/a/**/a/**/a/**/c/', '/**/a/**/a/**/a/**/a/**/a/**/d'];
const READS = 50;

describe('a hostile .gitignore does not hold up another folder', () => {
  let hostile: string;
  let other: string;
  let shelf: ShelfProcess;
  const chain = 'a/'.repeat(DEPTH);

  beforeAll(async () => {
    hostile = await makeTree({ '.gitignore': `${LINES.join('\n')}\n` }, 'gi-hostile-');
    await mkdir(path.join(hostile, chain), { recursive: true });
    for (let i = 0; i < 10; i++) await writeFile(path.join(hostile, chain, `x${i}.txt`), `deep ${i}\n`);
    await writeFile(path.join(hostile, chain, 'b'), 'ignored\n');
    other = await makeTree(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`note${i}.txt`, `note ${i}\n`])), 'gi-other-');
    shelf = await startShelf([hostile, other]);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(hostile, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it(`${READS} reads of the other folder are answered while a client asks about the chain's bottom`, async () => {
    const attacker = await RawClient.initialized(shelf.socketPath);
    const reader = await RawClient.initialized(shelf.socketPath);
    let stop = false;
    let asked = 0;
    // New names each time: nothing a cache could answer.
    const attack = (async () => {
      while (!stop) {
        const rel = `${chain}${asked % 2 ? `x${asked % 10}.txt` : `missing${asked}.txt`}`;
        const id = 10_000 + asked++;
        attacker.send({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: uriOf(hostile, rel) } });
        await attacker.waitFor((m) => m.id === id, MIN_DEADLINE_MS);
      }
    })();
    try {
      let answered = 0;
      for (let i = 0; i < READS; i++) {
        const id = i + 1;
        reader.send({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: uriOf(other, `note${i % 5}.txt`) } });
        // A deadline for failure only (the old matcher took seconds a request, and longer at this depth).
        const reply = await reader.waitFor((m) => m.id === id, MIN_DEADLINE_MS);
        const contents = (reply.result as { contents: Array<{ text: string }> }).contents;
        if (contents[0]?.text === `note ${i % 5}\n`) answered++;
      }
      expect(answered).toBe(READS);
      expect(asked).toBeGreaterThan(0);
    } finally {
      stop = true;
      await attack.catch(() => undefined);
      attacker.close();
      reader.close();
    }
    // The rules still hold at the bottom of the chain: `b` is ignored there, `x0.txt` is published.
    const probe = await RawClient.initialized(shelf.socketPath);
    try {
      expect((await probe.request('resources/read', { uri: uriOf(hostile, `${chain}b`) })).error).toBeDefined();
      expect((await probe.request('resources/read', { uri: uriOf(hostile, `${chain}x0.txt`) })).result).toBeDefined();
    } finally {
      probe.close();
    }
  });
});
