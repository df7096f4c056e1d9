import { MessageChannel } from 'node:worker_threads';

import { describe, expect, it } from 'vitest';

import { transferable } from '../../../../../electron/core/background/workerJobs.js';

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
