import os from 'node:os';
import path from 'node:path';

import type { AddFoldersResult, FolderInfo, FolderOptions, ResourcePage } from '../../../shared/shelfApi.js';
import { folderProblem, type Library } from '../library/library.js';
import type { PublishedFolder } from '../library/publishedFolder.js';
import type { RuleOptions } from '../library/rules.js';

interface ManagedFolder {
  path: string;
  options: FolderOptions;
  /** Saved in settings (added in the window), or for this run only (the command line). */
  saved: boolean;
  /** The published folder while enabled. */
  published: PublishedFolder | null;
  /** Why it could not be published. */
  failure: string | null;
}

/** A new folder's options: published, dotfiles hidden, .gitignore honoured, unless given. */
export function folderOptions(given: Partial<Omit<FolderOptions, 'enabled'>> = {}): FolderOptions {
  return {
    enabled: true,
    showHidden: given.showHidden ?? false,
    gitignore: given.gitignore ?? true,
    extraIgnore: given.extraIgnore ?? [],
    askBeforeRead: given.askBeforeRead ?? false,
  };
}

/** `~` and `~/…` mean the home folder, as in a shell (the server's working directory means nothing to the person typing). */
export function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') || p.startsWith(`~${path.sep}`) ? path.join(os.homedir(), p.slice(1)) : p;
}

/** Whether `inner` is strictly below `outer`. */
function isInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

const ruleOptions = (o: FolderOptions): RuleOptions => ({ showHidden: o.showHidden, gitignore: o.gitignore, extraIgnore: o.extraIgnore });

export interface FolderRegistryEvents {
  /** The saved folders changed: write them to settings. */
  save(folders: Array<{ path: string } & FolderOptions>): Promise<void>;
  /** Something a FolderInfo shows changed. */
  changed(): void;
  /** A folder started or stopped asking before reads (or was removed). */
  asksChanged?(folder: string, asks: boolean): void;
}

/**
 * The folders a person chose and their options, and which of them the
 * library publishes: add, remove, enable, reconfigure, each saved when the
 * folder is a saved one.
 */
export class FolderRegistry {
  private readonly folders: ManagedFolder[] = [];
  /** Folders that ask before each read (checked on every client read, so kept as a set). */
  private readonly asking = new Set<string>();

  constructor(
    private readonly library: Library,
    private readonly events: FolderRegistryEvents,
  ) {}

  /** The folders to manage at start: saved ones (a missing one is waited for), or this run's. */
  load(entries: Array<{ path: string } & FolderOptions>, saved: boolean): void {
    for (const { path: p, ...options } of entries) {
      this.folders.push({ path: path.resolve(p), options, saved, published: null, failure: null });
      if (options.askBeforeRead) this.asking.add(path.resolve(p));
    }
  }

  /** Whether the folder at this path asks before each client read. */
  asks(folderPath: string): boolean {
    return this.asking.has(folderPath);
  }

  get anyAsks(): boolean {
    return this.asking.size > 0;
  }

  /**
   * Publishes every enabled folder, indexing them in parallel (the order of
   * the listing stays the order given). A saved folder that is missing is
   * waited for; one of this run's fails the start.
   */
  async publishAll(): Promise<void> {
    const results = await Promise.allSettled(this.folders.filter((f) => f.options.enabled).map((f) => this.publish(f, f.saved)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  list(): FolderInfo[] {
    return this.folders.map((f) => this.info(f));
  }

  async add(paths: unknown[]): Promise<AddFoldersResult> {
    const result: AddFoldersResult = { added: [], refused: [] };
    for (const raw of paths) {
      if (typeof raw !== 'string' || raw.trim() === '' || raw.includes('\0')) {
        result.refused.push({ path: String(raw), reason: 'Not a path' });
        continue;
      }
      const abs = path.resolve(expandHome(raw.trim()));
      const problem = await folderProblem(abs);
      if (problem) {
        result.refused.push({ path: abs, reason: problem });
        continue;
      }
      if (this.folders.some((f) => f.path === abs)) {
        result.refused.push({ path: abs, reason: 'Already published' });
        continue;
      }
      // One file, one URI: a folder inside a published one (or around it) would publish the same files twice.
      const outer = this.folders.find((f) => isInside(f.path, abs));
      if (outer) {
        result.refused.push({ path: abs, reason: `Already published as part of ${outer.path}` });
        continue;
      }
      const inner = this.folders.find((f) => isInside(abs, f.path));
      if (inner) {
        result.refused.push({ path: abs, reason: `Holds ${inner.path}, which is published on its own: remove that one first` });
        continue;
      }
      const f: ManagedFolder = { path: abs, options: folderOptions(), saved: true, published: null, failure: null };
      try {
        await this.publish(f, false);
      } catch (err) {
        result.refused.push({ path: abs, reason: (err as Error).message });
        continue;
      }
      this.folders.push(f);
      result.added.push(abs);
    }
    if (result.added.length > 0) {
      await this.save();
      this.events.changed();
    }
    return result;
  }

  async remove(folderPath: string): Promise<void> {
    const f = this.find(folderPath);
    if (f.published) await this.library.remove(f.path);
    this.folders.splice(this.folders.indexOf(f), 1);
    if (this.asking.delete(f.path)) this.events.asksChanged?.(f.path, false);
    if (f.saved) await this.save();
    this.events.changed();
  }

  async setEnabled(folderPath: string, enabled: boolean): Promise<FolderInfo> {
    const f = this.find(folderPath);
    if (enabled !== f.options.enabled) {
      f.options.enabled = enabled;
      if (enabled) await this.publish(f, true);
      else if (f.published) {
        await this.library.remove(f.path);
        f.published = null;
      }
      if (f.saved) await this.save();
      this.events.changed();
    }
    return this.info(f);
  }

  async setOptions(folderPath: string, options: Partial<Omit<FolderOptions, 'enabled'>>): Promise<FolderInfo> {
    const f = this.find(folderPath);
    const rulesBefore = JSON.stringify(ruleOptions(f.options));
    f.options = { ...f.options, ...options };
    // Asking before reads changes no rule: the index stays as it is.
    if (f.published && JSON.stringify(ruleOptions(f.options)) !== rulesBefore) f.published = await this.library.reconfigure(f.path, ruleOptions(f.options));
    if (f.options.askBeforeRead !== this.asking.has(f.path)) {
      if (f.options.askBeforeRead) this.asking.add(f.path);
      else this.asking.delete(f.path);
      this.events.asksChanged?.(f.path, f.options.askBeforeRead);
    }
    if (f.saved) await this.save();
    this.events.changed();
    return this.info(f);
  }

  /** One page of one folder's files (none while it is not published). */
  resources(folderPath: string, cursor: string | undefined): ResourcePage {
    const f = this.find(folderPath);
    if (!f.published) return { resources: [] };
    // The window lists files only; it shows a document's text in the file's preview.
    return this.library.listResources(cursor, 1000, f.path, undefined, false) as ResourcePage;
  }

  private async publish(f: ManagedFolder, allowMissing: boolean): Promise<void> {
    try {
      f.published = await this.library.add(f.path, ruleOptions(f.options), { allowMissing });
      f.failure = null;
    } catch (err) {
      f.published = null;
      f.failure = (err as Error).message;
      if (!allowMissing) throw err;
    }
  }

  private find(folderPath: string): ManagedFolder {
    const abs = path.resolve(String(folderPath));
    const f = this.folders.find((x) => x.path === abs);
    if (!f) throw new Error(`Not a published folder: ${abs}`);
    return f;
  }

  private info(f: ManagedFolder): FolderInfo {
    const p = f.published;
    const state = !f.options.enabled ? 'disabled' : p ? (p.state === 'stopped' ? 'missing' : p.state) : 'error';
    return {
      path: f.path,
      options: { ...f.options, extraIgnore: [...f.options.extraIgnore] },
      state,
      error: f.options.enabled ? (p?.error ?? f.failure) : null,
      fileCount: p?.fileCount ?? 0,
      totalBytes: p?.totalBytes ?? 0,
      indexMs: p?.indexMs === null || p?.indexMs === undefined ? null : Math.round(p.indexMs),
      saved: f.saved,
      hidden: p?.hidden.map((h) => ({ ...h, examples: [...h.examples] })) ?? [],
    };
  }

  private save(): Promise<void> {
    return this.events.save(this.folders.filter((f) => f.saved).map((f) => ({ path: f.path, ...f.options })));
  }
}
