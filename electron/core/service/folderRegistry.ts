import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { AddFoldersResult, FolderInfo, FolderOptions, ResourcePage } from '../../../shared/shelfApi.js';
import { folderProblem, type Library } from '../library/library.js';
import type { PublishedFolder } from '../library/publishedFolder.js';
import { credentialsRootProblem, type RuleOptions } from '../library/rules.js';

interface ManagedFolder {
  path: string;
  options: FolderOptions;
  /** Saved in settings (added in the window), or for this run only (the command line). */
  saved: boolean;
  /** The published folder while enabled. */
  published: PublishedFolder | null;
  /** Why it could not be published. */
  failure: string | null;
  /** Where it really is (symlinks resolved), once known: nesting and asking are judged by it. */
  real: string | null;
}

/** A new folder's options: published, dotfiles hidden, .gitignore honoured, unless given. */
export function folderOptions(given: Partial<Omit<FolderOptions, 'enabled'>> = {}): FolderOptions {
  return {
    enabled: true,
    showHidden: given.showHidden ?? false,
    gitignore: given.gitignore ?? true,
    extraIgnore: given.extraIgnore ?? [],
    askBeforeRead: given.askBeforeRead ?? false,
    changes: given.changes ?? 'off',
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

/** Whether `inner` is `outer` or below it. */
const holds = (outer: string, inner: string): boolean => outer === inner || isInside(outer, inner);

/** A path with its symlinks resolved; as given while it does not exist. */
const realOf = (p: string): Promise<string> => realpath(p).catch(() => p);

/**
 * Why a folder may not be published because of where it is: a credentials
 * folder (by the path given or where it leads), or null.
 */
export async function rootProblem(abs: string): Promise<string | null> {
  return credentialsRootProblem(abs) ?? credentialsRootProblem(await realOf(abs));
}

const ruleOptions = (o: FolderOptions): RuleOptions => ({ showHidden: o.showHidden, gitignore: o.gitignore, extraIgnore: o.extraIgnore });

export interface FolderRegistryEvents {
  /** The saved folders changed: write them to settings. */
  save(folders: Array<{ path: string } & FolderOptions>): Promise<void>;
  /** Something a FolderInfo shows changed. */
  changed(): void;
  /** A folder started or stopped asking before reads (or was removed). */
  asksChanged?(folder: string, asks: boolean): void;
  /** Which folders let a model propose changes may have changed (the change tools come and go with them). */
  changesChanged?(): void;
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
      this.folders.push({ path: path.resolve(p), options, saved, published: null, failure: null, real: null });
      if (options.askBeforeRead) this.asking.add(path.resolve(p));
    }
  }

  /**
   * Whether reads under the folder at this path may have to ask: it asks,
   * or it overlaps a folder that asks (by real path; nesting is refused, but
   * a saved folder that was missing can come back anywhere). Search leaves
   * such folders out.
   */
  asks(folderPath: string): boolean {
    if (this.asking.has(folderPath)) return true;
    if (this.asking.size === 0) return false;
    const f = this.folders.find((x) => x.path === folderPath);
    if (!f) return false;
    const real = this.realOf(f);
    return this.folders.some((a) => this.asking.has(a.path) && a.options.enabled && (holds(this.realOf(a), real) || holds(real, this.realOf(a))));
  }

  /**
   * The folder whose asking covers a file at this real path: the most
   * specific asking folder that holds it (a file asks if any folder holding
   * it asks), or null.
   */
  askingFolder(realFile: string): { root: string; realRoot: string } | null {
    let best: { root: string; realRoot: string } | null = null;
    for (const f of this.folders) {
      if (!this.asking.has(f.path) || !f.options.enabled) continue;
      const real = this.realOf(f);
      if (holds(real, realFile) && (!best || real.length > best.realRoot.length)) best = { root: f.path, realRoot: real };
    }
    return best;
  }

  /** Whether a turned-off folder holds this path (for History: "folder off" rather than "outside"). */
  holdsOff(absPath: string): boolean {
    return this.folders.some((f) => !f.options.enabled && (holds(f.path, absPath) || holds(this.realOf(f), absPath)));
  }

  /** Where a folder really is: the published folder's pinned root, else what was found when it was added. */
  private realOf(f: ManagedFolder): string {
    return f.published && f.published.state !== 'missing' ? f.published.realRoot : (f.real ?? f.path);
  }

  /** Whether the published folder at this root lets a model propose changes (`changes: 'ask'`, and it is on). */
  allowsChanges(folderPath: string): boolean {
    const f = this.folders.find((x) => x.path === folderPath);
    return f !== undefined && f.options.enabled && f.options.changes === 'ask';
  }

  get anyAsks(): boolean {
    return this.asking.size > 0;
  }

  /**
   * Publishes every enabled folder, indexing them in parallel (the order of
   * the listing stays the order given). A saved folder that is missing is
   * waited for; one of this run's fails the start.
   */
  /**
   * The enabled folders that may be published, judged in order before any is
   * published: of two that overlap (settings written by hand, an older
   * version, folders given twice), the first is published and the later one
   * says why not. Judged before the socket listens, so that once a client can
   * connect every folder is already in the library (see publishJudged).
   */
  async judgeAll(): Promise<readonly ManagedFolder[]> {
    const enabled: ManagedFolder[] = [];
    for (const f of this.folders.filter((x) => x.options.enabled)) {
      f.real = await realOf(f.path);
      const problem = (await rootProblem(f.path)) ?? this.overlapProblem(f, enabled);
      if (problem) {
        f.failure = problem;
        if (!f.saved) throw new Error(`${problem}: ${f.path}`);
        continue;
      }
      enabled.push(f);
    }
    return enabled;
  }

  /**
   * Publishes what judgeAll allowed. Each folder is in the library, indexing,
   * when this returns its promise (library.add places it before its first
   * await), so a read by URI is looked at on disk from then on instead of
   * being told "not found" by a server that had not yet heard of the folder.
   */
  async publishJudged(enabled: readonly ManagedFolder[]): Promise<void> {
    const results = await Promise.allSettled(enabled.map((f) => this.publish(f, f.saved)));
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
      // A relative path would be taken from wherever the server was started, which the person at the window cannot see: refused, saying what works.
      const given = expandHome(raw.trim());
      if (!path.isAbsolute(given)) {
        result.refused.push({
          path: raw.trim(),
          reason: `Not a full path: give one that starts with ${path.sep === '/' ? '/' : 'a drive (C:\\)'} or ~ (your home folder)`,
        });
        continue;
      }
      const abs = path.resolve(given);
      const problem = (await folderProblem(abs)) ?? (await rootProblem(abs));
      if (problem) {
        result.refused.push({ path: abs, reason: problem });
        continue;
      }
      const f: ManagedFolder = { path: abs, options: folderOptions(), saved: true, published: null, failure: null, real: await realOf(abs) };
      const overlap = this.overlapProblem(f, this.folders);
      if (overlap) {
        result.refused.push({ path: abs, reason: overlap });
        continue;
      }
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
    if (f.options.changes === 'ask') this.events.changesChanged?.();
    if (f.saved) await this.save();
    this.events.changed();
  }

  async setEnabled(folderPath: string, enabled: boolean): Promise<FolderInfo> {
    const f = this.find(folderPath);
    if (enabled !== f.options.enabled) {
      if (enabled) {
        f.real = await realOf(f.path);
        const problem =
          (await rootProblem(f.path)) ??
          this.overlapProblem(
            f,
            this.folders.filter((x) => x.options.enabled),
          );
        if (problem) throw new Error(`${problem}: ${f.path}`);
      }
      f.options.enabled = enabled;
      if (enabled) await this.publish(f, true);
      else if (f.published) {
        await this.library.remove(f.path);
        f.published = null;
      }
      if (f.saved) await this.save();
      if (f.options.changes === 'ask') this.events.changesChanged?.();
      this.events.changed();
    }
    return this.info(f);
  }

  async setOptions(folderPath: string, options: Partial<Omit<FolderOptions, 'enabled'>>): Promise<FolderInfo> {
    const f = this.find(folderPath);
    const rulesBefore = JSON.stringify(ruleOptions(f.options));
    const changesBefore = f.options.changes;
    f.options = { ...f.options, ...options };
    // Asking before reads changes no rule: the index stays as it is.
    if (f.published && JSON.stringify(ruleOptions(f.options)) !== rulesBefore) f.published = await this.library.reconfigure(f.path, ruleOptions(f.options));
    if (f.options.askBeforeRead !== this.asking.has(f.path)) {
      if (f.options.askBeforeRead) this.asking.add(f.path);
      else this.asking.delete(f.path);
      this.events.asksChanged?.(f.path, f.options.askBeforeRead);
    }
    if (f.options.changes !== changesBefore) this.events.changesChanged?.();
    if (f.saved) await this.save();
    this.events.changed();
    return this.info(f);
  }

  /** One page of one folder's files (none while it is not published). */
  resources(folderPath: string, cursor: string | undefined): ResourcePage {
    const f = this.find(folderPath);
    if (!f.published) return { resources: [] };
    // The window lists files only; it shows a document's text in the file's preview (and opens it there).
    const page = this.library.listResources(cursor, 1000, f.path, undefined, false) as ResourcePage;
    // A document's text, or (OCR on) an image's: the file's preview offers its Text view.
    if (this.library.documentsOn) for (const r of page.resources) if (this.library.textKindOf(r.name)) r.hasText = true;
    return page;
  }

  /**
   * Why `f` may not be published beside `others`: one file, one URI and one
   * set of rules, so a folder may not be, hold or lie inside another — by
   * real path as well as by the path given (`docs-link` → `docs` holds
   * `docs/private`).
   */
  private overlapProblem(f: ManagedFolder, others: readonly ManagedFolder[]): string | null {
    const mine = [...new Set([f.path, f.real ?? f.path])];
    for (const o of others) {
      if (o === f) continue;
      const theirs = [...new Set([o.path, this.realOf(o)])];
      if (mine.some((m) => theirs.includes(m))) return o.path === f.path ? 'Already published' : `Already published as ${o.path} (the same folder)`;
      if (mine.some((m) => theirs.some((t) => isInside(t, m)))) return `Already published as part of ${o.path}`;
      if (mine.some((m) => theirs.some((t) => isInside(m, t)))) return `Holds ${o.path}, which is published on its own: remove that one first`;
    }
    return null;
  }

  private async publish(f: ManagedFolder, allowMissing: boolean): Promise<void> {
    try {
      f.published = await this.library.add(f.path, ruleOptions(f.options), { allowMissing });
      f.failure = null;
      if (f.published.state !== 'missing') f.real = f.published.realRoot;
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
      sizing: p?.sizing ?? false,
      indexMs: p?.indexMs === null || p?.indexMs === undefined ? null : Math.round(p.indexMs),
      saved: f.saved,
      hidden: p?.hidden.map((h) => ({ ...h, examples: [...h.examples] })) ?? [],
    };
  }

  private save(): Promise<void> {
    return this.events.save(this.folders.filter((f) => f.saved).map((f) => ({ path: f.path, ...f.options })));
  }
}
