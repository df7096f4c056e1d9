/**
 * Jobs waiting for one worker, taken in turn by party (round robin) with a
 * cap per party and in total: first come, first served let one client that
 * queued 16 slow images hold another client's 1×1 PNG for 261 s. A party is
 * whoever asks (a client, the search index); jobs of one party keep their
 * order. Shared by every worker lane (workerJobs.ts, documents/extractLane.ts).
 */

export interface FairLimits {
  /** Jobs waiting at most, all parties together. */
  total: number;
  /** Jobs one party may have waiting. */
  perParty: number;
}

/** Why a job was not queued: its party's share is full, or the queue is. */
export type Refusal = 'party-full' | 'full';

/** Parties whose last turn is remembered (the oldest is forgotten first): a party's turn outlives its empty queue. */
const REMEMBERED_PARTIES = 1_024;

export class FairQueue<T> {
  /** Waiting jobs by party, in the order the parties came. */
  private readonly byParty = new Map<string, T[]>();
  /** When each party was last served (a count of jobs taken): the party served longest ago goes next. */
  private readonly served = new Map<string, number>();
  private taken = 0;
  private count = 0;

  constructor(private readonly limits: FairLimits) {}

  get size(): number {
    return this.count;
  }

  /** Queues a job, or says why not. */
  push(party: string, job: T): Refusal | null {
    const mine = this.byParty.get(party);
    if ((mine?.length ?? 0) >= this.limits.perParty) return 'party-full';
    if (this.count >= this.limits.total) return 'full';
    if (mine) mine.push(job);
    else this.byParty.set(party, [job]);
    this.count++;
    return null;
  }

  /**
   * The next job: the oldest of the waiting party served longest ago (never
   * served first; among those, the one that came first). A party that was
   * just served waits behind one that came after it.
   */
  shift(): T | undefined {
    let pick: string | undefined;
    let pickServed = Infinity;
    for (const party of this.byParty.keys()) {
      const at = this.served.get(party) ?? -1;
      if (at < pickServed) {
        pick = party;
        pickServed = at;
      }
    }
    if (pick === undefined) return undefined;
    const jobs = this.byParty.get(pick) as T[];
    const job = jobs.shift() as T;
    if (jobs.length === 0) this.byParty.delete(pick);
    this.count--;
    this.served.delete(pick);
    this.served.set(pick, this.taken++);
    if (this.served.size > REMEMBERED_PARTIES) this.served.delete(this.served.keys().next().value as string);
    return job;
  }

  /** Every waiting job, in no particular order, leaving the queue empty. */
  drain(): T[] {
    const all = [...this.byParty.values()].flat();
    this.byParty.clear();
    this.count = 0;
    return all;
  }
}

/** What a refusal tells the client. */
export function refusalMessage(refusal: Refusal, what: string): string {
  return refusal === 'party-full'
    ? `this client already has as many ${what} waiting as it may; try again when they are done`
    : `too many ${what} are waiting; try again shortly`;
}
