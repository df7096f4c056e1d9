/**
 * What nobody caught, said in the log instead of lost or fatal. A rejection
 * nobody awaited and an exception thrown from a callback belong to one piece
 * of work (a request, a folder's rescan): the rest of the shelf's state is
 * untouched, so it keeps serving. Silently, a failure inside the index once
 * left search naming the wrong files until a restart.
 */

/** A log that says at most `max` lines a minute per key, then how many it left out (a client cannot flood it). */
export function boundedLog(log: (message: string) => void, max = 10): (key: string, message: string) => void {
  const seen = new Map<string, { count: number; since: number; dropped: number }>();
  return (key, message) => {
    const now = Date.now();
    let entry = seen.get(key);
    if (!entry || now - entry.since >= 60_000) {
      if (entry && entry.dropped > 0) log(`${key}: ${entry.dropped} more like this in the last minute, not shown`);
      entry = { count: 0, since: now, dropped: 0 };
      seen.set(key, entry);
      // Keys come from connections; the map is bounded by forgetting the oldest.
      if (seen.size > 1000) seen.delete(seen.keys().next().value as string);
    }
    if (entry.count++ < max) log(`${key}: ${message}`);
    else entry.dropped++;
  };
}

const describe = (value: unknown): string => (value instanceof Error ? (value.stack ?? `${value.name}: ${value.message}`) : String(value));

/** Logs unhandled rejections and uncaught exceptions with their stack and keeps the process serving; returns the uninstaller. */
export function reportUncaught(log: (message: string) => void): () => void {
  const say = boundedLog(log);
  const rejected = (reason: unknown) => say('unhandled rejection', `${describe(reason)} (the work it belonged to failed; serving goes on)`);
  const thrown = (err: Error, origin: string) => say('uncaught exception', `${describe(err)} (${origin}; serving goes on)`);
  process.on('unhandledRejection', rejected);
  process.on('uncaughtException', thrown);
  return () => {
    process.off('unhandledRejection', rejected);
    process.off('uncaughtException', thrown);
  };
}
