import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import writeFileAtomic from 'write-file-atomic';

/**
 * The previous version of every change the person approved, kept in the
 * settings folder (`changes/`) so History's Undo can put it back: one file
 * of bytes per change (none for a new file: undoing it removes it) and one
 * index, rewritten atomically. Bounded in bytes and in days; the oldest go
 * first, and a change whose version went can no longer be undone (it says so).
 */

export interface KeptChange {
  id: string;
  time: number;
  uri: string;
  folder: string;
  path: string;
  /** The change made the file: undoing it removes it. */
  created: boolean;
  /** Bytes of the kept previous version. */
  bytes: number;
  /** sha256 of what the change wrote: Undo goes ahead only while the file is still that. */
  writtenHash: string;
  undoneAt?: number;
}

export interface UndoLimits {
  maxBytes: number;
  maxAgeDays: number;
}

/** Changes remembered at most (each an index entry of a few hundred bytes). */
const MAX_KEPT = 10_000;
const INDEX = 'index.json';

export class UndoStore {
  private kept: KeptChange[] = [];
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly dir: string,
    private readonly limits: () => UndoLimits,
  ) {}

  static async open(dir: string, limits: () => UndoLimits): Promise<UndoStore> {
    const store = new UndoStore(dir, limits);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      const parsed = JSON.parse(await readFile(path.join(dir, INDEX), 'utf8')) as unknown;
      if (Array.isArray(parsed)) store.kept = parsed.filter(validEntry).slice(-MAX_KEPT);
    } catch {
      // No index yet, or a torn one: undo starts with nothing kept (the files it named are swept below).
    }
    await store.prune();
    return store;
  }

  /** Keeps the version a change is about to replace (null: the change makes the file); its id goes in the history entry. */
  async keep(change: Omit<KeptChange, 'id' | 'bytes'>, previous: Buffer | null): Promise<string> {
    const id = `${change.time.toString(36)}-${randomBytes(6).toString('hex')}`;
    if (previous) await writeFileAtomic(this.fileOf(id), previous, { mode: 0o600 });
    this.kept.push({ ...change, id, bytes: previous?.length ?? 0 });
    await this.save();
    return id;
  }

  /** The change was not written after all: what was kept for it goes. */
  async forget(id: string): Promise<void> {
    this.kept = this.kept.filter((k) => k.id !== id);
    await rm(this.fileOf(id), { force: true });
    await this.save();
  }

  get(id: string): KeptChange | undefined {
    return this.kept.find((k) => k.id === id);
  }

  /** The kept previous bytes (null for a change that made the file). */
  async previous(k: KeptChange): Promise<Buffer | null> {
    return k.created ? null : readFile(this.fileOf(k.id));
  }

  async markUndone(id: string): Promise<void> {
    const k = this.get(id);
    if (!k) return;
    k.undoneAt = Date.now();
    await rm(this.fileOf(id), { force: true });
    k.bytes = 0;
    await this.save();
  }

  /** Drops what is past the age or over the bytes, oldest first, and files no entry names. */
  async prune(): Promise<void> {
    const { maxBytes, maxAgeDays } = this.limits();
    const cutoff = Date.now() - maxAgeDays * 24 * 3600 * 1000;
    let total = this.kept.reduce((n, k) => n + k.bytes, 0);
    while (this.kept.length > 0 && ((this.kept[0] as KeptChange).time < cutoff || total > maxBytes || this.kept.length > MAX_KEPT)) {
      const k = this.kept.shift() as KeptChange;
      total -= k.bytes;
      await rm(this.fileOf(k.id), { force: true });
    }
    const named = new Set(this.kept.map((k) => `${k.id}.prev`));
    for (const name of await readdir(this.dir).catch(() => [] as string[]))
      if (name.endsWith('.prev') && !named.has(name)) await rm(path.join(this.dir, name), { force: true });
    await this.save();
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id.replace(/[^a-z0-9-]/g, '')}.prev`);
  }

  /** Index writes one after another (each atomic): the file always holds a whole index. */
  private save(): Promise<void> {
    const text = JSON.stringify(this.kept);
    this.writes = this.writes.then(
      () => writeFileAtomic(path.join(this.dir, INDEX), text, { mode: 0o600 }),
      () => writeFileAtomic(path.join(this.dir, INDEX), text, { mode: 0o600 }),
    );
    return this.writes;
  }

  /** Writes still on their way (a shutdown waits for them). */
  settled(): Promise<void> {
    return this.writes.catch(() => undefined);
  }
}

function validEntry(v: unknown): v is KeptChange {
  const k = v as KeptChange;
  return (
    typeof k === 'object' &&
    k !== null &&
    typeof k.id === 'string' &&
    /^[a-z0-9-]{1,64}$/.test(k.id) &&
    typeof k.time === 'number' &&
    typeof k.uri === 'string' &&
    typeof k.path === 'string' &&
    typeof k.folder === 'string' &&
    typeof k.created === 'boolean' &&
    typeof k.bytes === 'number' &&
    typeof k.writtenHash === 'string'
  );
}

/** The settings' defaults: 256 MiB and 30 days of previous versions. */
export const UNDO_DEFAULTS: UndoLimits = { maxBytes: 256 * 1024 * 1024, maxAgeDays: 30 };
