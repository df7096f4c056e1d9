import { parentPort } from 'node:worker_threads';

import { runAsBackgroundThread } from '../background/backgroundThread.js';
import type { DocumentKind } from './documentKinds.js';
import { ExtractionError } from './extractionError.js';
import { type ExtractOptions, extractText } from './extractText.js';

/**
 * The extraction worker: one document at a time, posted back as text or as
 * a reason. The same file runs as the text worker and as the OCR worker
 * (documentText.ts keeps one of each, so a long OCR never holds up a
 * document's text). Its heap is capped by the Worker's resourceLimits; its time and
 * the memory it adds to the process by the parent, which terminates it past
 * either (documentText.ts).
 */

// Extraction is background work (a lower priority on Linux); the parent times a job by this thread's
// processor time (threadCpu.ts), so a busy machine does not time it out.
const thread = runAsBackgroundThread();
if (thread !== null) parentPort?.postMessage({ thread });

export interface ExtractRequest {
  id: number;
  kind: DocumentKind;
  bytes: Uint8Array;
  options: ExtractOptions;
}

export type ExtractReply =
  { id: number; ok: true; text: string; parts: number; pageTexts?: string[] } | { id: number; ok: false; reason: ExtractionError['reason']; message: string };

parentPort?.on('message', (req: ExtractRequest) => {
  extractText(req.kind, req.bytes, req.options).then(
    (r) =>
      parentPort?.postMessage({
        id: req.id,
        ok: true,
        text: r.text,
        parts: r.parts,
        ...(r.pageTexts ? { pageTexts: r.pageTexts } : {}),
      } satisfies ExtractReply),
    (err: unknown) =>
      parentPort?.postMessage({
        id: req.id,
        ok: false,
        reason: err instanceof ExtractionError ? err.reason : 'corrupt',
        message: err instanceof Error ? err.message : String(err),
      } satisfies ExtractReply),
  );
});
