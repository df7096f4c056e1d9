import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * Processor time one thread of this process has used, where the system
 * says (Linux: /proc/self/task/TID/stat), in milliseconds; null elsewhere.
 *
 * Why: the extraction thread runs at a lower priority (extractWorker.ts), so
 * on a busy machine a document takes longer by the clock without doing more
 * work. Its time limit counts the work (processor time), so an honest large
 * document is not cut short by someone else's load, and a Flate bomb keeps
 * going until the memory watchdog, not the clock, stops it (too-large is
 * remembered; a timeout is not).
 */
const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux configuration Node supports

export async function threadCpuMs(thread: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/self/task/${thread}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), in parentheses: utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * Processor time the calling thread has used (Linux: /proc/thread-self),
 * in milliseconds; elsewhere the clock since it first asked. For work that
 * budgets itself inside a worker (OCR), so a busy machine does not cut it short.
 */
let clockStart: number | null = null;
export function ownThreadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    if (Number.isFinite(ticks)) return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    // not Linux
  }
  clockStart ??= performance.now();
  return performance.now() - clockStart;
}
