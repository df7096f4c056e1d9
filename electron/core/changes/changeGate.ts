import type { ChangeDecision, ChangeOutcome, ChangeProposal } from '../../../shared/changeTypes.js';
import { partyOf, type Requester } from '../access/askGate.js';
import type { CancelHook } from '../base/requestCancel.js';

/**
 * Changes a model proposed, waiting for the person's decision in the
 * window: Approve (with the text as the person may have edited it) or
 * Decline; no answer within the timeout declines. As with ask-before-read,
 * with no window open nothing waits (refused at once, `no-window`), a
 * client's cancel or disconnect withdraws its proposal, and the waiting
 * list is bounded per connection, per client name and in total, a newcomer
 * never refused because one client holds the rest.
 */

export type Refusal = Exclude<ChangeOutcome, 'written' | 'conflict' | 'failed'>;

export interface ChangeGateOptions {
  timeoutMs: () => number;
  /** Windows that can show a proposal; with none, changes are refused at once. */
  windows: () => number;
  /** The waiting list changed (for the window, and the desktop's notification). */
  changed: (proposals: ChangeProposal[]) => void;
}

/** Proposals waiting at once: for all clients, per client name, per connection. */
export const MAX_PROPOSALS = 16;
const MAX_PER_PARTY = 8;
const MAX_PER_CONNECTION = 4;

interface Waiting {
  proposal: ChangeProposal;
  party: string;
  settle: (decision: ChangeDecision | Refusal) => void;
  timer: NodeJS.Timeout;
}

export type ProposalFacts = Pick<
  ChangeProposal,
  'uri' | 'folder' | 'path' | 'kind' | 'added' | 'removed' | 'sizeBefore' | 'sizeAfter' | 'hunks' | 'newFolders'
>;

export class ChangeGate {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(private readonly options: ChangeGateOptions) {}

  /**
   * Waits for the person's decision on a change; resolves with it, or with
   * why nobody decided. `made` is told the proposal's id once it waits (the
   * diff is kept under it).
   */
  propose(who: Requester, via: 'tool' | 'app', facts: ProposalFacts, cancel?: CancelHook, made?: (id: number) => void): Promise<ChangeDecision | Refusal> {
    if (this.options.windows() === 0) return Promise.resolve('no-window');
    if (cancel?.cancelled) return Promise.resolve('cancelled');
    const party = partyOf(who);
    let mine = 0;
    let ours = 0;
    for (const w of this.waiting.values()) {
      if (w.proposal.connectionId === who.connectionId) mine++;
      if (w.party === party) ours++;
    }
    if (mine >= MAX_PER_CONNECTION || ours >= MAX_PER_PARTY) return Promise.resolve('busy');
    // Full: the party holding the most gives up its newest, if it holds more than this one would.
    if (this.waiting.size >= MAX_PROPOSALS && !this.makeRoom(ours)) return Promise.resolve('busy');
    const now = Date.now();
    const timeout = this.options.timeoutMs();
    const proposal: ChangeProposal = {
      id: this.nextId++,
      time: now,
      deadline: now + timeout,
      client: who.name,
      clientVersion: who.version,
      connectionId: who.connectionId,
      transport: who.transport,
      protocolVersion: who.protocolVersion,
      connectedAt: who.connectedAt,
      via,
      ...facts,
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.finish(proposal.id, 'timeout'), timeout);
      this.waiting.set(proposal.id, { proposal, party, settle: resolve, timer });
      made?.(proposal.id);
      cancel?.onCancel(() => this.finish(proposal.id, 'cancelled'));
      this.changed();
    });
  }

  private makeRoom(ours: number): boolean {
    const counts = new Map<string, number>();
    for (const w of this.waiting.values()) counts.set(w.party, (counts.get(w.party) ?? 0) + 1);
    let largest: string | null = null;
    for (const [party, n] of counts) if (largest === null || n > (counts.get(largest) ?? 0)) largest = party;
    if (largest === null || (counts.get(largest) ?? 0) <= ours + 1) return false;
    let newest: Waiting | null = null;
    for (const w of this.waiting.values()) if (w.party === largest && (!newest || w.proposal.id > newest.proposal.id)) newest = w;
    if (newest) this.finish(newest.proposal.id, 'busy');
    return newest !== null;
  }

  /** The person's decision; false when the proposal is no longer waiting. */
  answer(id: number, decision: ChangeDecision): boolean {
    if (!this.waiting.has(id)) return false;
    this.finish(id, decision);
    return true;
  }

  pending(): ChangeProposal[] {
    return [...this.waiting.values()].map((w) => w.proposal);
  }

  get(id: number): ChangeProposal | undefined {
    return this.waiting.get(id)?.proposal;
  }

  connectionClosed(connectionId: number): void {
    for (const w of [...this.waiting.values()]) if (w.proposal.connectionId === connectionId) this.finish(w.proposal.id, 'disconnected');
  }

  /** The last window closed: nobody can decide, so waiting proposals are refused now. */
  windowsChanged(): void {
    if (this.options.windows() > 0) return;
    for (const w of [...this.waiting.values()]) this.finish(w.proposal.id, 'no-window');
  }

  close(): void {
    for (const w of [...this.waiting.values()]) this.finish(w.proposal.id, 'no-window');
  }

  private finish(id: number, outcome: ChangeDecision | Refusal): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    w.settle(outcome);
    this.changed();
  }

  private changed(): void {
    this.options.changed(this.pending());
  }
}
