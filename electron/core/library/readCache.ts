import type { Stats } from 'node:fs';

import type { ReadOutcome } from './safeRead.js';

/** Files larger than this are always read from disk. */
const MAX_ENTRY_BYTES = 64 * 1024;
/** All cached replies together: each counts its JSON twice (the JSON itself and the contents object's copy of the text). */
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
/**
 * Only files unchanged for this long are cached. File times tick in
 * milliseconds or coarser, so two writes close together can leave the same
 * size and times; once the clock has moved well past a file's last change, a
 * later write must change them (git's "racy" rule for its index).
 */
const SETTLED_MS = 2000;

interface Entry {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  outcome: ReadOutcome;
  /** JSON of outcome.contents, so a hit is not stringified again. */
  json: string;
  cost: number;
  /** Read since eviction last passed it: it gets a second chance (cheaper than moving it to the end on every hit). */
  used: boolean;
}

/**
 * Replies to small reads of settled files, by URI. Every read still opens the
 * file, checks where it really is and stats it (safeRead does that before
 * asking); a hit only skips reading, decoding and serialising, and only when
 * the opened file is the same inode with the same size and times. The
 * watcher's changes drop entries too.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  get(uri: string, st: Stats): { outcome: ReadOutcome; json: string } | undefined {
    const e = this.entries.get(uri);
    if (!e) return undefined;
    if (e.dev !== st.dev || e.ino !== st.ino || e.size !== st.size || e.mtimeMs !== st.mtimeMs || e.ctimeMs !== st.ctimeMs) {
      this.drop(uri, e);
      return undefined;
    }
    e.used = true;
    return e;
  }

  /** Remembers a reply when the file is small and settled; returns its contents' JSON then, else null. */
  put(uri: string, st: Stats, outcome: ReadOutcome): string | null {
    if (st.size > MAX_ENTRY_BYTES || Date.now() - Math.max(st.mtimeMs, st.ctimeMs) < SETTLED_MS) return null;
    const json = JSON.stringify(outcome.contents);
    const old = this.entries.get(uri);
    if (old) this.drop(uri, old);
    const cost = json.length * 2 + 200;
    this.entries.set(uri, { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, outcome, json, cost, used: false });
    this.bytes += cost;
    // Oldest first; one read since the last pass moves an entry to the end instead (a Map visits
    // what is added while it is iterated, so such an entry comes round again, unmarked).
    for (const [key, e] of this.entries) {
      if (this.bytes <= MAX_TOTAL_BYTES) break;
      if (e.used) {
        e.used = false;
        this.entries.delete(key);
        this.entries.set(key, e);
      } else this.drop(key, e);
    }
    return json;
  }

  /** Forgets files that changed or went away. */
  forget(uris: readonly string[]): void {
    for (const uri of uris) {
      const e = this.entries.get(uri);
      if (e) this.drop(uri, e);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(uri: string, e: Entry): void {
    this.entries.delete(uri);
    this.bytes -= e.cost;
  }
}
