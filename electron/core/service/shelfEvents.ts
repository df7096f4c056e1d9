import type { ShelfEventName, ShelfEvents } from '../../../shared/shelfApi.js';

export type Listener<E extends ShelfEventName> = (payload: ShelfEvents[E]) => void;

/** The events the window listens to (ShelfApi's `on`): a listener that throws does not keep the others from theirs. */
export class ShelfEventHub {
  private readonly listeners = new Map<ShelfEventName, Set<Listener<ShelfEventName>>>();

  on<E extends ShelfEventName>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<ShelfEventName>);
    return () => set.delete(listener as Listener<ShelfEventName>);
  }

  emit<E extends ShelfEventName>(event: E, payload: ShelfEvents[E]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        l(payload);
      } catch {
        // a broken subscriber must not break the others
      }
    }
  }

  /** Whether anyone listens: events nobody hears are not batched at all. */
  heard(event: ShelfEventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  clear(): void {
    this.listeners.clear();
  }
}
