import { subscribe } from '@parcel/watcher';

import type { ActiveWatcher, WatchSink } from './folderWatcher.js';

/**
 * Native recursive watching (@parcel/watcher: inotify, FSEvents,
 * ReadDirectoryChangesW) sets up in a fraction of the time and memory
 * chokidar needed, which stats and tracks every file (50,000 files: 4.4 s
 * and 480 MiB against 0.14 s and 60 MiB). `ignore`: absolute folders left
 * unwatched, as plain paths (globs are tested against every path: 50,000
 * files took 0.64 s instead of 0.15 s).
 */
export async function watchNative(root: string, ignore: string[], sink: WatchSink): Promise<ActiveWatcher> {
  const subscription = await subscribe(
    root,
    (err, events) => {
      if (err) sink.error(err);
      else for (const e of events) sink.path(e.path, e.type !== 'update');
    },
    { ignore },
  );
  // Unsubscribing fails when the folder is already gone (the kernel dropped its watches): closed either way.
  return { close: () => subscription.unsubscribe().catch(() => undefined) };
}
