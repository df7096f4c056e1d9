import { readdir, readFile, rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * Every worker thread of a real `mcp-shelf serve` runs below the thread that
 * answers clients (Linux: a nice value is a thread's): a grep, an image or a
 * diff being worked on does not take a core from a client's small read.
 */

/** The nice value of each thread of `pid`, by thread id (field 19 of /proc/PID/task/TID/stat, after the command's parentheses). */
async function threadNices(pid: number): Promise<Map<number, number>> {
  const nices = new Map<number, number>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 16) nices.set(Number(tid), Number(fields[16]));
  }
  return nices;
}

describe.runIf(process.platform === 'linux')('background threads', () => {
  let root: string;
  let shelf: ShelfProcess;
  beforeAll(async () => {
    // Plain text only: no document or image is indexed, so no worker starts before the grep.
    root = await makeTree({ 'notes.txt': 'alpha beta\ngamma alpha\n', 'b.txt': 'nothing here\n' }, 'bg-threads-');
    shelf = await startShelf([root]);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('the grep worker runs at a lower priority than the main thread, which keeps its own', async () => {
    const pid = shelf.proc.pid as number;
    const before = await threadNices(pid);
    expect(before.get(pid)).toBe(0);
    const client = await connectSdkClient(shelf.socketPath, 'bg-threads');
    try {
      const r = await client.callTool({ name: 'grep_resources', arguments: { pattern: 'alpha' } });
      expect(JSON.stringify(r.content)).toContain(uriOf(root, 'notes.txt').split('/').pop());
    } finally {
      await client.close();
    }
    const after = await threadNices(pid);
    expect(after.get(pid)).toBe(0);
    const lowered = [...after].filter(([tid, nice]) => tid !== pid && nice === 10 && !before.has(tid));
    expect(lowered.length).toBeGreaterThanOrEqual(1);
  });
});
