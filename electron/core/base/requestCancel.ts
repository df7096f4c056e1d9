/**
 * Tells a request's work that its client cancelled it. Only work that waits
 * on someone (an ask-before-read prompt) listens, so a prompt the client no
 * longer wants an answer to is withdrawn. Lighter than an AbortController,
 * which the socket's fast path would otherwise make for every read.
 */
export interface CancelHook {
  /** Cancelled already: work not yet begun (an ask not yet made) is not begun. */
  readonly cancelled: boolean;
  /** `listener` runs once, when the request is cancelled (never if it is not). */
  onCancel(listener: () => void): void;
}

/** The socket transport's cancel of one intercepted request. */
export class RequestCancel implements CancelHook {
  cancelled = false;
  private listeners: Array<() => void> | null = null;

  onCancel(listener: () => void): void {
    if (this.cancelled) return void queueMicrotask(listener);
    (this.listeners ??= []).push(listener);
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const listeners = this.listeners ?? [];
    this.listeners = null;
    for (const l of listeners) l();
  }
}

/** The same, from the SDK's per-request AbortSignal. */
export function cancelOfSignal(signal: AbortSignal): CancelHook {
  return {
    get cancelled() {
      return signal.aborted;
    },
    onCancel(listener) {
      if (signal.aborted) return void queueMicrotask(listener);
      signal.addEventListener('abort', listener, { once: true });
    },
  };
}
