import { collectAfterBigJob } from '../background/collectAfterBigJob.js';
import { nextSlice } from '../background/nextSlice.js';
import type { FolderIndex } from './folderIndex.js';
import { type FileEntry, NOT_STATTED } from './folderScan.js';

/**
 * After a full index lists a folder's files without their stats (a million
 * stats would hold the start), this walks the index in slices between
 * clients' requests and stat's what is not yet. A pass over an index that was
 * replaced since, or of a folder no longer served, stops.
 */
export class StatPass {
  private pass: { of: number; at: Iterator<FileEntry>; started: number } | null = null;

  constructor(
    private readonly index: FolderIndex,
    private readonly statNow: (entry: FileEntry) => void,
    /** True while clients keep sending requests: slices are then small and seldom (see nextSlice). */
    private readonly clientsBusy: () => boolean,
    private readonly serving: () => boolean,
    /** Called when a pass ends, with how long it took. */
    private readonly done: (files: number, ms: number) => void,
  ) {}

  /** Whether a pass is under way (sizes are still being read). */
  get running(): boolean {
    return this.pass !== null;
  }

  start(): void {
    this.pass = { of: this.index.generation, at: this.index.values(), started: performance.now() };
    this.schedule();
  }

  private schedule(): void {
    if (this.pass !== null) nextSlice(this.clientsBusy, (ms) => this.slice(ms));
  }

  private slice(ms: number): void {
    const pass = this.pass;
    if (pass === null || pass.of !== this.index.generation || !this.serving()) {
      if (pass !== null && pass === this.pass) this.pass = null;
      return;
    }
    const until = performance.now() + ms;
    while (performance.now() < until) {
      for (let i = 0; i < 64; i++) {
        const next = pass.at.next();
        if (next.done) {
          this.pass = null;
          collectAfterBigJob(this.index.size);
          this.done(this.index.size, performance.now() - pass.started);
          return;
        }
        if (next.value.size === NOT_STATTED) this.statNow(next.value);
      }
    }
    this.schedule();
  }
}
