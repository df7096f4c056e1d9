import { parentPort } from 'node:worker_threads';

import { runAsBackgroundThread } from '../background/backgroundThread.js';
import { type LineDiff, lineDiff } from './lineDiff.js';

// Background work: below the thread answering clients (backgroundThread.ts).
runAsBackgroundThread();

/**
 * The diff of a large proposed change, off the main thread: two unrelated
 * 200,000-line texts cost about 0.6 s to find out, which the thread that
 * answers every client must not spend (lineDiffer.ts sends only large pairs).
 */

export interface DiffRequest {
  id: number;
  oldText: string;
  newText: string;
}

export type DiffReply = { id: number } & LineDiff;

parentPort?.on('message', (m: DiffRequest) => {
  parentPort?.postMessage({ id: m.id, ...lineDiff(m.oldText, m.newText) } satisfies DiffReply);
});
