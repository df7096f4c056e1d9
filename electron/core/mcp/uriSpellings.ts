import { heldCost } from '../clientMemory/memoryBudget.js';
import { resourceKey } from '../library/uriPath.js';

/**
 * A URI a client named in a subscription or listen, with the resource key it
 * is kept under and what holding both costs. Made once per URI: the key can
 * take a slow parse (a long non-ASCII path), so nothing works it out twice.
 */
export interface Spelling {
  readonly uri: string;
  readonly key: string;
  /**
   * The URI, and the key when that differs. A key can be much longer than its
   * URI (every non-ASCII character percent-encoded: "€" is 9 characters), so
   * counting the URI alone let 96 MiB of budget hold 526 MiB.
   */
  readonly cost: number;
}

export function spellingOf(uri: string): Spelling {
  const key = resourceKey(uri);
  return { uri, key, cost: heldCost(uri) + (key === uri ? 0 : heldCost(key)) };
}

/** The spellings of the URIs a listen's params name (the params were checked before), and what they cost together. */
export function listenSpellings(params: unknown): { spellings: Spelling[]; cost: number } {
  const uris = (params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications?.resourceSubscriptions;
  const spellings = Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string').map(spellingOf) : [];
  return { spellings, cost: spellings.reduce((sum, s) => sum + s.cost, 0) };
}

/**
 * The URIs a connection's subscriptions or listens name, kept by the resource
 * each names (`resourceKey`): an update for a library URI finds every
 * spelling a client used for that file, and goes out in that spelling. Each
 * spelling is counted (two listens may name it). What this holds is bounded
 * by the callers, whose held-bytes budget counts every spelling's cost.
 */
export class UriSpellings {
  private readonly byKey = new Map<string, Map<string, number>>();

  add({ uri, key }: Spelling): void {
    let spellings = this.byKey.get(key);
    if (!spellings) this.byKey.set(key, (spellings = new Map()));
    spellings.set(uri, (spellings.get(uri) ?? 0) + 1);
  }

  delete({ uri, key }: Spelling): void {
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
