import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';

import writeFileAtomic from 'write-file-atomic';

import { readRegularFile } from '../base/regularFile.js';

/** What extracting a document gave: its text, or why there is none. */
export type CachedOutcome = { text: string; parts: number } | { reason: string; message: string };

interface Header {
  key: string;
  parts?: number;
  reason?: string;
  message?: string;
}

/** Cache file → its size and last use. */
type Index = Map<string, { size: number; used: number }>;

const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 32);

/** The folder part of a document key (`FOLDER\0path\0size\0mtime`): a folder's entries share a directory, so they go together. */
const folderOf = (key: string): string => {
  const cut = key.indexOf('\u0000');
  return cut < 0 ? key : key.slice(0, cut);
};

/**
 * Extracted document text kept on disk between runs, so a folder of
 * documents is not extracted again at every start (the search index reads
 * every document's text). One file per document version:
 * `DIR/<hash of folder>/<hash of key>.txt`, a JSON header line (the full
 * key, checked on read) and the text. Bounded: past `budgetBytes` the least
 * recently used go first. A folder's entries are deleted when it stops being
 * published, so text of files no longer shared does not stay behind.
 */
export class TextDiskCache {
  /** Loaded from the directory on first use. */
  private index: Index | null = null;
  private loading: Promise<void> | null = null;
  private total = 0;
  /** Writes and deletions, one at a time (a folder's deletion must not race a write into it). */
  private queue: Promise<void> = Promise.resolve();
  /**
   * Folders forgotten since their last read: an extraction that was under way
   * when its folder stopped being published is not written. A read means the
   * folder is published (again).
   */
  private readonly forgotten = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly budgetBytes: number,
  ) {}

  private fileOf(key: string): string {
    return path.join(this.dir, hash(folderOf(key)), `${hash(key)}.txt`);
  }

  /** The outcome kept for `key`, or null (never kept, evicted, or unreadable). */
  async get(key: string): Promise<CachedOutcome | null> {
    this.forgotten.delete(folderOf(key));
    const file = this.fileOf(key);
    let buf: Buffer;
    try {
      buf = await readRegularFile(file, { noFollow: true, maxBytes: this.budgetBytes });
    } catch {
      return null;
    }
    const nl = buf.indexOf(10);
    if (nl < 0) return null;
    let header: Header;
    try {
      header = JSON.parse(buf.subarray(0, nl).toString('utf8')) as Header;
    } catch {
      return null;
    }
    if (header?.key !== key) return null;
    void this.touch(file);
    if (typeof header.reason === 'string') return { reason: header.reason, message: String(header.message ?? '') };
    return { text: buf.subarray(nl + 1).toString('utf8'), parts: Number(header.parts) || 0 };
  }

  /** Keeps an outcome (written whole or not at all); one over a quarter of the budget is not kept. */
  put(key: string, outcome: CachedOutcome): Promise<void> {
    return this.serial(async () => {
      if (this.forgotten.has(folderOf(key))) return;
      await this.write(key, outcome);
    });
  }

  private async write(key: string, outcome: CachedOutcome): Promise<void> {
    const header: Header = 'text' in outcome ? { key, parts: outcome.parts } : { key, reason: outcome.reason, message: outcome.message };
    const data = `${JSON.stringify(header)}\n${'text' in outcome ? outcome.text : ''}`;
    const size = Buffer.byteLength(data);
    if (size > this.budgetBytes / 4) return;
    const index = await this.load();
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, data, { mode: 0o600 });
    this.total += size - (index.get(file)?.size ?? 0);
    index.set(file, { size, used: Date.now() });
    await this.evict(index);
  }

  /** Deletes every entry of a folder (it is no longer published). */
  forgetFolder(folder: string): Promise<void> {
    this.forgotten.add(folder);
    return this.serial(async () => {
      const sub = path.join(this.dir, hash(folder));
      const index = await this.load();
      for (const [file, e] of index) {
        if (path.dirname(file) !== sub) continue;
        index.delete(file);
        this.total -= e.size;
      }
      await rm(sub, { recursive: true, force: true });
    });
  }

  private serial(op: () => Promise<void>): Promise<void> {
    const run = this.queue.then(op, op);
    // A failed write (a full disk) leaves the cache as it was; the text is extracted again next time.
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Bytes kept (for tests). */
  async size(): Promise<number> {
    await this.load();
    return this.total;
  }

  private load(): Promise<Index> {
    this.loading ??= (async () => {
      const index: Index = new Map();
      const folders = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
      for (const d of folders) {
        if (!d.isDirectory()) continue;
        const sub = path.join(this.dir, d.name);
        for (const name of await readdir(sub).catch(() => [])) {
          if (!name.endsWith('.txt')) continue;
          const file = path.join(sub, name);
          const st = await stat(file).catch(() => null);
          if (!st?.isFile()) continue;
          index.set(file, { size: st.size, used: st.mtimeMs });
          this.total += st.size;
        }
      }
      this.index = index;
    })();
    return this.loading.then(() => this.index as Index);
  }

  private async touch(file: string): Promise<void> {
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    const e = this.index?.get(file);
    if (e) e.used = now.getTime();
  }

  /** Least recently used first, until within the budget. */
  private async evict(index: Index): Promise<void> {
    if (this.total <= this.budgetBytes) return;
    const oldest = [...index].sort((a, b) => a[1].used - b[1].used);
    for (const [file, e] of oldest) {
      if (this.total <= this.budgetBytes) break;
      index.delete(file);
      this.total -= e.size;
      await rm(file, { force: true });
    }
  }
}
