import { parentPort } from 'node:worker_threads';

import type { DocumentKind } from './documentKinds.js';
import { ExtractionError, extractText } from './extractText.js';

/**
 * The extraction worker: one document at a time, posted back as text or as
 * a reason. Its memory is capped by the Worker's resourceLimits and its time
 * by the parent, which terminates it when a document takes too long.
 */

export interface ExtractRequest {
  id: number;
  kind: DocumentKind;
  bytes: Uint8Array;
}

export type ExtractReply = { id: number; ok: true; text: string; parts: number } | { id: number; ok: false; reason: ExtractionError['reason']; message: string };

parentPort?.on('message', (req: ExtractRequest) => {
  extractText(req.kind, req.bytes).then(
    (r) => parentPort?.postMessage({ id: req.id, ok: true, text: r.text, parts: r.parts } satisfies ExtractReply),
    (err: unknown) =>
      parentPort?.postMessage({
        id: req.id,
        ok: false,
        reason: err instanceof ExtractionError ? err.reason : 'corrupt',
        message: err instanceof Error ? err.message : String(err),
      } satisfies ExtractReply),
  );
});
