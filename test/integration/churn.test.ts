import { appendFile, chmod, lstat, mkdir, readdir, realpath, rename, rm, stat, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isInside } from '../../electron/core/library/uriPath.js';
import { eventually, fingerprint, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, startShelf, UNPRIVILEGED } from '../support/shelfProcess.js';

/** Small seeded PRNG (mulberry32), so a failing run can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a client may list: regular files, and symlinks to regular files inside the folder; no dotfiles. */
async function publishable(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(path.join(root, rel))) {
    if (name.startsWith('.')) continue;
    const r = rel ? `${rel}/${name}` : name;
    const abs = path.join(root, r);
    const st = await lstat(abs);
    if (st.isDirectory()) out.push(...(await publishable(root, r)));
    else if (st.isFile()) out.push(r);
    else if (st.isSymbolicLink()) {
      const target = await realpath(abs).catch(() => null);
      if (target && isInside(root, target) && (await stat(target)).isFile()) out.push(r);
    }
  }
  return out.sort();
}

describe('file-system churn while 10 clients list and read', () => {
  let base: string;
  let root: string;
  let shelf: ShelfProcess;
  let controlPrint: string;

  beforeAll(async () => {
    base = await makeTree({ 'outside.txt': 'OUTSIDE', 'pub/control/keep.txt': 'never changes', 'pub/seed.txt': 'seed' });
    root = path.join(base, 'pub');
    if (UNPRIVILEGED) await chmod(base, 0o755);
    controlPrint = await fingerprint(path.join(root, 'control'));
    shelf = await startShelf([root], [], { unprivileged: true });
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(base, { recursive: true, force: true });
  });

  it('every read is a complete version or -32602/1003; the listing settles to the disk; nothing is written', async () => {
    const random = rng(20261130);
    const versions = new Map<string, Set<string>>([
      ['seed.txt', new Set(['seed'])],
      ['control/keep.txt', new Set(['never changes'])],
    ]);
    const valid = (rel: string) => {
      let set = versions.get(rel);
      if (!set) versions.set(rel, (set = new Set([''])));
      return set;
    };
    const current = new Map<string, string>([['seed.txt', 'seed']]); // what each path holds now, as far as the churn knows
    const links = new Set<string>(); // symlinks: writing through them would change their target
    const files = () => [...versions.keys()].filter((r) => !r.startsWith('control/') && !links.has(r));
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;
    const violations: string[] = [];
    let reads = 0;
    let running = true;

    const churn = (async () => {
      let n = 0;
      // 6 s of churn and at least 200 reads beside it, however busy the machine (40 s at most: the test's own
      // deadline must hold this, the settling after it and the server's start; it allowed a minute inside a minute).
      const deadline = Date.now() + 6000;
      const cap = Date.now() + 40_000;
      while ((Date.now() < deadline || reads <= 200) && Date.now() < cap) {
        n++;
        const existing = files();
        const op = random();
        try {
          if (op < 0.25 || existing.length < 3) {
            const rel = `d${n % 4}/f${n}.txt`;
            const content = `file ${rel} v${n} ${'x'.repeat(Math.floor(random() * 2000))}`;
            valid(rel).add(content);
            current.set(rel, content);
            await mkdir(path.join(root, path.dirname(rel)), { recursive: true });
            await writeFile(path.join(root, rel), content);
          } else {
            const rel = pick(existing);
            const abs = path.join(root, rel);
            const set = valid(rel);
            if (op < 0.4) {
              const next = `${current.get(rel) ?? ''}+${n}`;
              set.add(next);
              current.set(rel, next);
              await appendFile(abs, `+${n}`);
            } else if (op < 0.48) {
              set.add('');
              current.set(rel, '');
              await truncate(abs, 0);
            } else if (op < 0.58) {
              const to = `moved/m${n}.txt`;
              const moved = valid(to);
              for (const v of set) moved.add(v);
              current.set(to, current.get(rel) ?? '');
              current.set(rel, ''); // gone: a later append creates it afresh
              await mkdir(path.join(root, 'moved'), { recursive: true });
              await rename(abs, path.join(root, to));
            } else if (op < 0.68) {
              current.set(rel, '');
              await unlink(abs);
            } else if (op < 0.74) {
              await unlink(abs);
              await mkdir(abs, { recursive: true });
              const inner = `${rel}/inner.txt`;
              valid(inner).add('inner');
              current.set(inner, 'inner');
              await writeFile(path.join(root, inner), 'inner');
            } else if (op < 0.8) {
              // Replaced by a symlink: inside (reads the target's versions) or outside (refused).
              await unlink(abs);
              links.add(rel);
              if (random() < 0.5) {
                await symlink(path.join(base, 'outside.txt'), abs);
                versions.set(rel, new Set()); // any content would be a leak
              } else {
                for (const v of valid('seed.txt')) set.add(v);
                await symlink(path.join(root, 'seed.txt'), abs);
              }
            } else if (op < 0.9) {
              // Unreadable for a moment (files only: a locked folder is another story).
              if ((await lstat(abs)).isFile()) {
                await chmod(abs, 0o000);
                setTimeout(() => void chmod(abs, 0o644).catch(() => undefined), 50);
              }
            } else {
              const content = `rewritten ${n}`;
              set.add(content);
              current.set(rel, content);
              await writeFile(abs, content);
            }
          }
        } catch {
          // a path an earlier step moved or removed: churn goes on
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      running = false;
    })();

    const reader = async () => {
      const c = await RawClient.initialized(shelf.socketPath);
      while (running) {
        const list = await c.request('resources/list');
        const resources = ((list.result as { resources?: Array<{ uri: string; name: string }> })?.resources ?? []).filter(
          (r) => !r.name.startsWith('control/'),
        );
        for (const r of resources.slice(0, 8)) {
          const res = await c.request('resources/read', { uri: r.uri });
          reads++;
          if (res.error) {
            if (res.error.code !== -32602 && res.error.code !== 1003) violations.push(`${r.name}: error ${res.error.code} ${res.error.message}`);
            continue;
          }
          const content = (res.result as { contents: Array<{ text?: string; blob?: string }> }).contents[0];
          const text = content?.text ?? Buffer.from(content?.blob ?? '', 'base64').toString();
          if (text === 'OUTSIDE') violations.push(`${r.name}: read a file outside the folder`);
          else if (!versions.get(r.name)?.has(text)) violations.push(`${r.name}: content no version had: ${JSON.stringify(text.slice(0, 60))}`);
        }
      }
      c.close();
    };
    await Promise.all([churn, ...Array.from({ length: 10 }, reader)]);
    expect(violations.slice(0, 5)).toEqual([]);
    expect(reads).toBeGreaterThan(200);

    // Once the watcher settles, the listing is exactly what is on disk.
    await new Promise((r) => setTimeout(r, 100)); // the last chmod 000 is undone after 50 ms
    const c = await RawClient.initialized(shelf.socketPath);
    let diff = '';
    await eventually(
      async () => {
        const names: string[] = [];
        let cursor: string | undefined;
        do {
          const page = (await c.request('resources/list', cursor ? { cursor } : {})).result as { resources: Array<{ name: string }>; nextCursor?: string };
          names.push(...page.resources.map((r) => r.name));
          cursor = page.nextCursor;
        } while (cursor);
        const disk = await publishable(root);
        names.sort();
        diff = `listed only: ${names.filter((n) => !disk.includes(n)).join(', ')}; on disk only: ${disk.filter((n) => !names.includes(n)).join(', ')}`;
        return JSON.stringify(names) === JSON.stringify(disk);
      },
      8000,
      'the listing to match the disk',
    ).catch((err: Error) => {
      throw new Error(`${err.message} (${diff})`);
    });
    c.close();
    expect(await fingerprint(path.join(root, 'control'))).toBe(controlPrint);
  }, 120_000);

  it('a published folder renamed away, deleted and recreated: refused while gone, served again after', async () => {
    const c = await RawClient.initialized(shelf.socketPath);
    const names = async () => ((await c.request('resources/list')).result as { resources: Array<{ name: string }> }).resources.map((r) => r.name);
    await rename(root, `${root}-away`);
    await eventually(async () => (await names()).length === 0, 5000, 'an empty listing');
    expect((await c.request('resources/read', { uri: uriOf(root, 'seed.txt') })).error?.code).toBe(-32602);
    await rm(`${root}-away`, { recursive: true, force: true });
    await mkdir(root);
    await writeFile(path.join(root, 'reborn.txt'), 'again');
    await eventually(async () => (await names()).includes('reborn.txt'), 8000, 'the recreated folder to be served');
    expect((await c.request('resources/read', { uri: uriOf(root, 'reborn.txt') })).result).toMatchObject({ contents: [{ text: 'again' }] });
    c.close();
  });
});
