/**
 * @parcel/watcher gathers events for up to 500 ms and drops a path that was
 * created and deleted within one batch. If we looked at that file on disk in
 * between (scanning a folder that just appeared, or after an earlier event
 * for the same path), we listed it and its deletion never comes. So a file
 * whose inode changed within RECENT_MS of our look is looked at again after
 * each of LOOK_AFTER_MS: the cost follows what changed, not what exists.
 */
export const RECENT_MS = 2000;
const LOOK_AFTER_MS = [1000, 3000] as const;
/** Paths waiting for a second look at most; past this new ones are not looked at again. */
const MAX_WAITING = 100_000;
/** Second looks per turn of the event loop (synchronous lstat: microseconds each). */
const LOOKS_PER_TURN = 5000;

/** A path to look at again: when it was first noted, and whether it was a folder then. */
interface Noted {
  since: number;
  dir: boolean;
}

/** Paths noted as new when seen, each looked at again LOOK_AFTER_MS later, in turns of at most LOOKS_PER_TURN. */
export class SecondLooks {
  /** One queue per look, each in the order its looks fall due. */
  private readonly queues: Array<Map<string, Noted>> = LOOK_AFTER_MS.map(() => new Map());
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** Looks at `rel` again (a folder when `dir`). */
    private readonly look: (rel: string, dir: boolean) => void,
    /** After a turn that looked at anything. */
    private readonly looked: () => void,
  ) {}

  note(rel: string, dir: boolean): void {
    const first = this.queues[0] as Map<string, Noted>;
    if (this.waiting() >= MAX_WAITING && !first.has(rel)) return;
    first.delete(rel); // to the end: the queue stays in the order its looks fall due
    first.set(rel, { since: Date.now(), dir });
    this.arm(LOOK_AFTER_MS[0]);
  }

  clear(): void {
    for (const q of this.queues) q.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private waiting(): number {
    return this.queues.reduce((n, q) => n + q.size, 0);
  }

  private arm(ms: number): void {
    if (this.timer || this.waiting() === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.turn();
    }, ms);
    this.timer.unref();
  }

  private turn(): void {
    const now = Date.now();
    let done = 0;
    let nextDue = Infinity;
    // The last queue first, so a path moved on from an earlier one this turn is not looked at twice.
    for (let round = this.queues.length - 1; round >= 0; round--) {
      const queue = this.queues[round] as Map<string, Noted>;
      const after = LOOK_AFTER_MS[round] as number;
      for (const [rel, noted] of queue) {
        if (noted.since + after > now || done >= LOOKS_PER_TURN) {
          nextDue = Math.min(nextDue, noted.since + after);
          break;
        }
        done++;
        queue.delete(rel);
        this.look(rel, noted.dir);
        const next = this.queues[round + 1];
        if (next && !next.has(rel)) next.set(rel, noted);
      }
    }
    if (done > 0) this.looked();
    if (this.waiting() > 0) this.arm(Math.max(10, Math.min(nextDue, now + (LOOK_AFTER_MS[1] - LOOK_AFTER_MS[0])) - Date.now()));
  }
}
