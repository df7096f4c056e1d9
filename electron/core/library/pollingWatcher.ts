import type { Stats } from 'node:fs';

import type { ActiveWatcher, WatchSink } from './folderWatcher.js';

/**
 * Polling (chokidar), for when the system has no watches left. It misses
 * some fast sequences (a file replaced by a folder comes as a mere change, or
 * not at all), so PublishedFolder rescans once things settle. `ignored` is
 * asked per path, with stats when chokidar has them. Resolves once its first
 * look is done; `opened` gets the watcher before that, so it can be closed
 * while it starts.
 */
export async function watchByPolling(
  root: string,
  ignored: (absPath: string, stats?: Stats) => boolean,
  sink: WatchSink,
  opened: (w: ActiveWatcher) => void,
): Promise<void> {
  const { watch } = await import('chokidar'); // the fallback only
  const poller = watch(root, { ignoreInitial: true, followSymlinks: false, usePolling: true, interval: 500, ignored });
  opened({ close: () => poller.close(), add: (p) => void poller.add(p) });
  poller.on('add', (p) => sink.path(p, true));
  poller.on('change', (p) => sink.path(p, false));
  poller.on('unlink', (p) => sink.path(p, true));
  poller.on('addDir', (p) => sink.path(p, true));
  poller.on('unlinkDir', (p) => sink.path(p, true));
  poller.on('error', (err) => sink.error(err as Error));
  await new Promise<void>((resolve) => poller.once('ready', () => resolve()));
}
