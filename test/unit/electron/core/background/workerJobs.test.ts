import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';

import { describe, expect, it } from 'vitest';

import { transferable, WorkerJobs } from '../../../../../electron/core/background/workerJobs.js';

describe('transferable', () => {
  it('moves bytes that own their buffer, and copies a view (a Buffer from the shared pool cannot be transferred on Node 22)', () => {
    const own = new Uint8Array([1, 2, 3]);
    expect(transferable(own)).toBe(own);
    const pooled = Buffer.allocUnsafe(100).subarray(10, 60).fill(7);
    const moved = transferable(pooled);
    expect(moved).not.toBe(pooled);
    expect([moved.byteOffset, moved.byteLength, moved.buffer.byteLength]).toEqual([0, 50, 50]);
    expect(Buffer.from(moved).equals(pooled)).toBe(true);
    // Transferring detaches only the copy's buffer: the pool (and the view into it) is untouched.
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(moved, [moved.buffer]);
    expect(moved.byteLength).toBe(0);
    expect(pooled.byteLength).toBe(50);
    port1.close();
    port2.close();
  });
});

describe('WorkerJobs.runWhenAdmitted', () => {
  it("makes a job's input only when its turn comes; what the loader throws is that job's failure and the next runs", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'jobs-'));
    const file = path.join(dir, 'echo.mjs');
    // Answers with the byte count it was sent, after a moment (so jobs queue up behind it).
    await writeFile(
      file,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => setTimeout(() => parentPort.postMessage({ id: m.id, n: m.bytes.byteLength }), 50));\n",
    );
    const jobs = new WorkerJobs<{ id: number; bytes: Uint8Array }, { id: number; n: number }>({ workerFile: file, timeoutMs: 30_000, maxQueued: 8 });
    try {
      const loaded: number[] = [];
      const load = (i: number) => () => {
        loaded.push(i);
        if (i === 2) throw new Error('the file is gone');
        const bytes = new Uint8Array(1000 + i);
        return { request: { bytes }, transfer: [bytes.buffer] };
      };
      const runs = [0, 1, 2, 3].map((i) =>
        jobs.runWhenAdmitted(load(i)).then(
          (r) => r.n,
          (e: Error) => e.message,
        ),
      );
      // The first is at work; the three waiting hold nothing yet.
      expect(loaded).toEqual([0]);
      await runs[0];
      expect(loaded).toEqual([0, 1]);
      expect(await Promise.all(runs)).toEqual([1000, 1001, 'the file is gone', 1003]);
      expect(loaded).toEqual([0, 1, 2, 3]);
    } finally {
      await jobs.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
