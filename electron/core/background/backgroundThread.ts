import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** How much lower than the server's thread a worker runs (nice 10). */
const BACKGROUND_NICE = 10;

/**
 * Marks the calling worker thread as background work: on Linux (where a
 * nice value is a thread's, not the process's) it gets a lower priority
 * than the thread answering clients, so a document, an image, a grep or a
 * diff being worked on never takes a core from a client's small read.
 * Returns the thread's id (its processor time can be read by it,
 * documents/threadCpu.ts), or null where there is no /proc (macOS, Windows:
 * the default priority).
 */
export function runAsBackgroundThread(): number | null {
  let thread: number;
  try {
    thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null; // no /proc (macOS, Windows): the default priority
  }
  if (!Number.isInteger(thread) || thread <= 0) return null;
  try {
    setPriority(thread, BACKGROUND_NICE);
  } catch {
    // not allowed here: the default priority (the thread's id still times its jobs)
  }
  return thread;
}
