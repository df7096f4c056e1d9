import { heldCost } from '../clientMemory/heldBytes.js';
import { resourceKey } from '../library/uriPath.js';

/**
 * What one spelling held here costs: the URI, and the key it is kept under
 * when that differs. A key can be much longer than its URI (every non-ASCII
 * character percent-encoded: "€" is 9 characters), so counting the URI alone
 * let 96 MiB of budget hold 526 MiB.
 */
export function spellingCost(uri: string): number {
  const key = resourceKey(uri);
  return heldCost(uri) + (key === uri ? 0 : heldCost(key));
}

/**
 * The URIs a connection's subscriptions or listens name, kept by the resource
 * each names (`resourceKey`): an update for a library URI finds every
 * spelling a client used for that file, and goes out in that spelling. Each
 * spelling is counted (two listens may name it). What this holds is bounded
 * by the callers, whose held-bytes budget counts every URI (spellingCost).
 */
export class UriSpellings {
  private readonly byKey = new Map<string, Map<string, number>>();

  add(uri: string): void {
    const key = resourceKey(uri);
    let spellings = this.byKey.get(key);
    if (!spellings) this.byKey.set(key, (spellings = new Map()));
    spellings.set(uri, (spellings.get(uri) ?? 0) + 1);
  }

  delete(uri: string): void {
    const key = resourceKey(uri);
    const spellings = this.byKey.get(key);
    const n = spellings?.get(uri);
    if (!spellings || n === undefined) return;
    if (n > 1) spellings.set(uri, n - 1);
    else spellings.delete(uri);
    if (spellings.size === 0) this.byKey.delete(key);
  }

  /** The spellings clients used for the library URI `uri` (none: an empty list). */
  of(uri: string): readonly string[] {
    const spellings = this.byKey.get(uri);
    return spellings ? [...spellings.keys()] : [];
  }

  get empty(): boolean {
    return this.byKey.size === 0;
  }

  clear(): void {
    this.byKey.clear();
  }
}
