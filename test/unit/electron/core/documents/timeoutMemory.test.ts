import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { DocumentText } from '../../../../../electron/core/documents/documentText.js';

/** A real worker thread that speaks the extraction protocol and never answers for some documents. */
const STALLING_WORKER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/workers/stallingExtractWorker.mjs');

const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'text',
    (e: { data?: { reason?: string }; message?: string }) => `${e.data?.reason}: ${e.message}`,
  );

describe('DocumentText timeouts', () => {
  it('a document that timed out is not extracted again for a while, even after the text cache let it go', async () => {
    // A tiny text cache: two small documents push everything else out of it.
    const docs = new DocumentText({ workerFile: STALLING_WORKER, timeoutMs: 3000, cacheChars: 8 });
    const bytes = (s: string) => async () => new Uint8Array(Buffer.from(s));
    try {
      expect(await reason(docs.text('file:///slow.pdf?as=text', 'slow-v1', 'pdf', bytes('STALL forever')))).toMatch(/^timeout: /);
      expect(docs.extractions).toBe(1);
      await docs.text('file:///a.pdf?as=text', 'a-v1', 'pdf', bytes('aaaaaa'));
      await docs.text('file:///b.pdf?as=text', 'b-v1', 'pdf', bytes('bbbbbb'));
      expect(docs.extractions).toBe(3);
      // Asked again at once: answered from memory, no new 30 s of the worker.
      expect(await reason(docs.text('file:///slow.pdf?as=text', 'slow-v1', 'pdf', bytes('STALL forever')))).toMatch(
        /^timeout: .*not tried again for 10 minutes/,
      );
      expect(docs.extractions).toBe(3);
      // A new version of the file is tried.
      expect(await reason(docs.text('file:///slow.pdf?as=text', 'slow-v2', 'pdf', bytes('now quick')))).toBe('text');
      expect(docs.extractions).toBe(4);
    } finally {
      await docs.close();
    }
  });
});
