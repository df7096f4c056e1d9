import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Creates a temp folder holding `files` (relative path → content); resolves to its real path. */
export async function makeTree(files: Record<string, string | Uint8Array>, prefix = 'shelf-'): Promise<string> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  await addFiles(root, files);
  return root;
}

export async function addFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

export function uriOf(root: string, rel: string): string {
  return pathToFileURL(path.join(root, rel)).href;
}

/**
 * A fingerprint of everything under `root` (paths, types, contents, link
 * targets, mtimes): equal fingerprints mean nothing was written, moved or deleted.
 */
export async function fingerprint(root: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      const abs = path.join(dir, name);
      const st = await lstat(abs);
      hash.update(`${path.relative(root, abs)}|${st.mode}|${st.size}|${st.mtimeMs}\n`);
      if (st.isSymbolicLink()) hash.update(await readlink(abs));
      else if (st.isDirectory()) await walk(abs);
      else if (st.isFile() && (st.mode & 0o444) !== 0) hash.update(await readFile(abs).catch(() => Buffer.from('unreadable')));
    }
  };
  await walk(root);
  return hash.digest('hex');
}

/** The least time `eventually` waits before it calls a condition failed (see there). */
export const MIN_DEADLINE_MS = 20_000;

/**
 * Polls `check` until it returns truthy, or fails naming `what` it waited
 * for. The deadline only decides when to give up on a failure, so it is never
 * short: `timeoutMs` is what the wait should take on a quiet machine, and a
 * busy one (a laptop at work, CI's CPU burner) gets at least MIN_DEADLINE_MS.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 5000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + Math.max(timeoutMs, MIN_DEADLINE_MS);
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
