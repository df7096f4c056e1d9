import type { Socket } from 'node:net';

/** Why a connection's input is paused; it is read again only when no reason holds. */
export type PauseReason = 'backpressure' | 'held' | 'queue' | 'memory';

/** The socket's reading, paused while any reason holds (several parts of flow control pause it for their own reasons). */
export class InputGate {
  private readonly reasons = new Set<PauseReason>();

  constructor(private readonly socket: Socket) {}

  pause(reason: PauseReason): void {
    if (this.reasons.size === 0) this.socket.pause();
    this.reasons.add(reason);
  }

  resume(reason: PauseReason): void {
    if (!this.reasons.delete(reason)) return;
    if (this.reasons.size === 0 && !this.socket.destroyed) this.socket.resume();
  }

  has(reason: PauseReason): boolean {
    return this.reasons.has(reason);
  }
}
