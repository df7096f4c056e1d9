import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A heap snapshot of a running `mcp-shelf serve`, taken by the kernel signal
 * Node offers for it (`--heapsnapshot-signal`): V8 collects all garbage
 * first, so what the snapshot holds is what the server keeps.
 */
export interface HeapSnapshots {
  /** Give these to startShelf's `env`. */
  env: NodeJS.ProcessEnv;
  /** The strings of at least `minBytes` the server keeps, by their first characters. */
  largeStrings(pid: number, minBytes: number): Promise<Array<{ start: string; bytes: number }>>;
  dispose(): Promise<void>;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

export async function heapSnapshots(): Promise<HeapSnapshots> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'heap-'));
  return {
    env: { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}` },
    async largeStrings(pid, minBytes) {
      process.kill(pid, 'SIGUSR2');
      const deadline = Date.now() + 60_000;
      let snapshot: Snapshot | null = null;
      while (!snapshot) {
        if (Date.now() > deadline) throw new Error('no heap snapshot within 60 s');
        await new Promise((r) => setTimeout(r, 250));
        const file = (await readdir(dir)).find((n) => n.endsWith('.heapsnapshot'));
        if (!file) continue;
        try {
          snapshot = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Snapshot;
          await rm(path.join(dir, file));
        } catch {
          // still being written
        }
      }
      const fields = snapshot.snapshot.meta.node_fields;
      const types = snapshot.snapshot.meta.node_types[0];
      const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
      const found: Array<{ start: string; bytes: number }> = [];
      for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
        const bytes = snapshot.nodes[i + size] as number;
        if (bytes >= minBytes && types[snapshot.nodes[i + type] as number] === 'string')
          found.push({ start: (snapshot.strings[snapshot.nodes[i + name] as number] ?? '').slice(0, 40), bytes });
      }
      return found;
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
