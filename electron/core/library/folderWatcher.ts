/**
 * What PublishedFolder needs of a watcher back-end. There are three:
 * DirectoryWatches (Linux: a watch per directory, placed as scans reach
 * them), the native recursive watcher (nativeWatcher.ts), and polling
 * (pollingWatcher.ts) for when the system runs out of watches.
 */
export interface ActiveWatcher {
  close(): Promise<void>;
  /** Polling only: look at a path it stopped watching (a file that became a folder). */
  add?(absPath: string): void;
}

/** Where a back-end reports: a path that changed (structural: created, deleted, renamed; else written), or an error. */
export interface WatchSink {
  path(absPath: string, structural: boolean): void;
  error(err: Error): void;
}

/** ENOSPC / EMFILE from any watcher (the native one says it only in words). */
export function watchErrorCode(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.code === 'string') return e.code;
  const text = String(e?.message ?? err);
  if (/ENOSPC|No space left|inotify.*limit/i.test(text)) return 'ENOSPC';
  if (/EMFILE|Too many open files/i.test(text)) return 'EMFILE';
  return undefined;
}

/** Out of inotify watches or descriptors: polling still delivers updates. */
export const isOutOfWatches = (err: unknown): boolean => {
  const code = watchErrorCode(err);
  return code === 'ENOSPC' || code === 'EMFILE';
};
