/**
 * Background work (a first full-text index, the stat pass after a big
 * folder's index) runs in slices between clients' requests. While clients
 * are quiet a slice takes QUIET_SLICE_MS on the next turn of the event loop;
 * while they keep sending requests, BUSY_SLICE_MS once every BUSY_GAP_MS
 * (4% of the thread: reads in flight lose a few percent at most).
 * A slice every turn made eight in-flight reads wait behind it each time
 * (100,000 files being indexed cut reads from 22,700 to 450 a second); a
 * gap of 250 ms, with "busy" meaning a request in the last 100 ms, let a
 * client that merely polls four times a second starve the index (50,000
 * files: over 120 s instead of 10).
 */
export const QUIET_SLICE_MS = 8;
export const BUSY_SLICE_MS = 2;
export const BUSY_GAP_MS = 50;

/** Calls `slice(ms)` on a later turn, sized and timed by whether clients are busy. */
export function nextSlice(clientsBusy: () => boolean, slice: (ms: number) => void): void {
  if (clientsBusy()) setTimeout(() => slice(BUSY_SLICE_MS), BUSY_GAP_MS).unref();
  else setImmediate(() => slice(QUIET_SLICE_MS));
}
