import type { NotIndexedFile, NotIndexedReason } from '../../../shared/shelfApi.js';
import type { PublishedFolder } from '../library/publishedFolder.js';

/**
 * The files the search index left out and why (too big, not text, unreadable
 * or without extractable text, the index full), so a search can say what it
 * cannot find and grep can be pointed at just those. Kept by the index's own
 * document id (folder id + NUL + path). Bounded like every other store: past
 * MAX_TRACKED files only a count is kept.
 */
export const MAX_TRACKED = 100_000;

const folderOf = (id: string) => Number(id.slice(0, id.indexOf('\u0000')));
const relOf = (id: string) => id.slice(id.indexOf('\u0000') + 1);

export class SkippedFiles {
  private readonly reasons = new Map<string, NotIndexedReason>();
  /** Files left out once the map was full (not named; the counts are at least the map's). */
  private over = 0;

  constructor(private readonly maxTracked = MAX_TRACKED) {}

  note(id: string, reason: NotIndexedReason): void {
    if (this.reasons.has(id) || this.reasons.size < this.maxTracked) this.reasons.set(id, reason);
    else this.over++;
  }

  /** The file is indexed now, or gone. */
  clear(id: string): void {
    this.reasons.delete(id);
  }

  clearFolder(folderId: number): void {
    for (const id of [...this.reasons.keys()]) if (folderOf(id) === folderId) this.reasons.delete(id);
  }

  get untracked(): number {
    return this.over;
  }

  /** Whether a file of `folder` is left out (grep over just these). */
  has(folder: PublishedFolder, rel: string): boolean {
    return this.reasons.has(`${folder.id}\u0000${rel}`);
  }

  /** Counts by reason, and the first `limit` files in folder then path order, among `folders` (a file no longer listed is passed over). */
  report(folders: readonly PublishedFolder[], limit: number): { counts: Record<NotIndexedReason, number>; files: NotIndexedFile[] } {
    const counts: Record<NotIndexedReason, number> = { 'too-big': 0, binary: 0, unreadable: 0, full: 0 };
    const byId = new Map(folders.map((f) => [f.id, f]));
    const found: Array<{ folder: PublishedFolder; rel: string; reason: NotIndexedReason }> = [];
    for (const [id, reason] of this.reasons) {
      const folder = byId.get(folderOf(id));
      const rel = relOf(id);
      if (!folder?.get(rel)) continue;
      counts[reason]++;
      found.push({ folder, rel, reason });
    }
    const order = new Map(folders.map((f, i) => [f.id, i]));
    // The biggest reason to miss a match first: files too big to index are where a search most often looks in vain.
    const rank: Record<NotIndexedReason, number> = { 'too-big': 0, unreadable: 1, full: 2, binary: 3 };
    found.sort(
      (a, b) =>
        rank[a.reason] - rank[b.reason] || (order.get(a.folder.id) ?? 0) - (order.get(b.folder.id) ?? 0) || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0),
    );
    const files = found
      .slice(0, limit)
      .map(({ folder, rel, reason }) => ({ uri: folder.uriOf(rel), folder: folder.root, path: rel, size: folder.get(rel)?.size ?? 0, reason }));
    return { counts, files };
  }
}
