import { fileUriOfText } from '../../../shared/documentUris.js';
import type { AccessEntry, FileAccess } from '../../../shared/shelfApi.js';

/** The file a read counts for: a document's text is the document. */
export const fileOf = (e: AccessEntry): string => fileUriOfText(e.uri) ?? e.uri;

/** Counts one successful read in a per-file map. */
export function addRead(perFile: Map<string, FileAccess>, e: AccessEntry): void {
  if (e.outcome === 'ok' && !e.search && !e.change) addReads(perFile, fileOf(e), 1, e.time, e.client);
}

/** Adds `n` (or takes back) entries of a client; a client with none left is forgotten. */
export function addClient(perClient: Map<string, number>, name: string | null, n: number): void {
  if (name === null) return;
  const left = (perClient.get(name) ?? 0) + n;
  if (left > 0) perClient.set(name, left);
  else perClient.delete(name);
}

/** Adds `reads` reads of a file, the last at `lastTime` by `lastClient` (one read, or a segment counted apart). */
export function addReads(perFile: Map<string, FileAccess>, uri: string, reads: number, lastTime: number, lastClient: string | null): void {
  const known = perFile.get(uri);
  if (!known) perFile.set(uri, { uri, reads, lastTime, lastClient });
  else {
    known.reads += reads;
    if (lastTime >= known.lastTime) {
      known.lastTime = lastTime;
      known.lastClient = lastClient;
    }
  }
}
