import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, once, after a big background job (the first
 * full-text index of a large folder, the stat pass over a million files).
 *
 * Why: such a job leaves some 150 MiB of dead objects in the old generation
 * (a million files: 374 MiB of heap used, 222 MiB after a collection), and
 * once it stops allocating V8 has no reason to collect — 15 s later the heap
 * was still 374 MiB. One collection (a pause of about 130 ms there, once)
 * brings the server back to what it holds. The hook is the standard
 * `--expose-gc` one, enabled here because a CLI cannot ask its users for
 * Node flags.
 */
let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  } catch {
    collect = null; // not available in this runtime: V8 collects when it next needs to
  }
  return collect;
}

/** Collections asked for by collectGarbage at most this often (each is a pause). */
const COLLECT_EVERY_MS = 2000;
let lastCollect = 0;

/**
 * Collects now (the next turn), at most once in COLLECT_EVERY_MS: for work
 * that leaves large dead strings behind faster than V8 looks for them (the
 * memory budget calls it after replies of hundreds of MiB were given back).
 */
let trailing: NodeJS.Timeout | null = null;

export function collectGarbage(): void {
  // Once more when the burst is over: what its last replies left is collected too.
  if (trailing) clearTimeout(trailing);
  trailing = setTimeout(() => {
    trailing = null;
    lastCollect = performance.now();
    collector()?.();
  }, COLLECT_EVERY_MS);
  trailing.unref();
  const now = performance.now();
  if (now - lastCollect < COLLECT_EVERY_MS) return;
  lastCollect = now;
  setImmediate(() => collector()?.());
}

/** Jobs below this many files leave too little behind to be worth a pause. */
export const BIG_JOB_FILES = 50_000;

/** Collects now if `files` made the job big; the next turn of the event loop, so the job's last slice is done. */
export function collectAfterBigJob(files: number): void {
  if (files < BIG_JOB_FILES) return;
  setImmediate(() => collector()?.());
}
