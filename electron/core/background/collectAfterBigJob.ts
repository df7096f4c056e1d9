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

/** Jobs below this many files leave too little behind to be worth a pause. */
export const BIG_JOB_FILES = 50_000;

/** Collects now if `files` made the job big; the next turn of the event loop, so the job's last slice is done. */
export function collectAfterBigJob(files: number): void {
  if (files < BIG_JOB_FILES) return;
  setImmediate(() => collector()?.());
}
