// node bench/profile.mjs [READS] [--32] [--window]
// Where a sequential small read's time goes inside the server: `mcp-shelf
// serve` runs under `node --cpu-prof` (100 µs samples) while one raw
// newline-JSON client reads the small files one after another; each sample
// is charged to the innermost frame of our own source (mapped back through
// the bundle's source map), or else to where it ran (the SDK, a Node
// internal, the garbage collector, idle). Printed as µs per read.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { smallFiles } from './fixtures.mjs';
import { CLI, startShelf, startShelfWithWindow } from './subjects.mjs';

/** Reads `total` files, `inFlight` at a time. */
async function drive(shelf, files, total, inFlight = 1) {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const res = await shelf.read(files[(next++ * 7919) % files.length]);
        if (res.error) throw new Error(`read failed: ${JSON.stringify(res.error)}`);
      }
    }),
  );
}

/** Self samples of a .cpuprofile, each charged to a bucket named by `bucketOf(stack)`. */
function charge(profile, bucketOf, from = -Infinity, to = Infinity) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = new Map();
  const stack = (id) => {
    let s = stackOf.get(id);
    if (!s) {
      s = [];
      for (let at = id; at !== undefined; at = parent.get(at)) s.push(byId.get(at).callFrame);
      stackOf.set(id, s);
    }
    return s;
  };
  const totals = new Map();
  const leaves = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < from || at > to) return;
    const us = profile.timeDeltas[i + 1] ?? 0;
    const s = stack(id);
    const bucket = bucketOf(s);
    totals.set(bucket, (totals.get(bucket) ?? 0) + us);
    let l = leaves.get(bucket);
    if (!l) leaves.set(bucket, (l = new Map()));
    const leaf = `${s[0].functionName || '(anonymous)'} ${s[0].url.replace(/^.*\//, '')}`;
    l.set(leaf, (l.get(leaf) ?? 0) + us);
  });
  return { totals, leaves };
}

export async function profileReads(reads = 40_000, { window = false, inFlight = 1 } = {}) {
  const { dir, files } = await smallFiles();
  const profDir = await mkdtemp(path.join(os.tmpdir(), 'prof-'));
  const shelf = await (window ? startShelfWithWindow : startShelf)(dir, { node: ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', profDir] });
  await drive(shelf, files, 4000, inFlight); // warm-up: the JIT and the reply cache
  // V8's profile clock is the monotonic clock hrtime reads (µs): only the measured stretch counts.
  const from = Number(process.hrtime.bigint() / 1000n);
  const t = performance.now();
  await drive(shelf, files, reads, inFlight);
  const wallMs = performance.now() - t;
  const to = Number(process.hrtime.bigint() / 1000n);
  await shelf.stop();
  const name = (await readdir(profDir)).find((f) => f.endsWith('.cpuprofile'));
  const profile = JSON.parse(await readFile(path.join(profDir, name), 'utf8'));
  await rm(profDir, { recursive: true, force: true });

  const map = new SourceMap(JSON.parse(await readFile(`${CLI}.map`, 'utf8')));
  const cliUrl = pathToFileURL(CLI).href;
  const sourceOf = new Map();
  const where = (f) => {
    if (f.url !== cliUrl) return null;
    const key = `${f.lineNumber}:${f.columnNumber}`;
    if (!sourceOf.has(key)) {
      const e = map.findEntry(f.lineNumber, f.columnNumber);
      sourceOf.set(key, e?.originalSource ?? null);
    }
    return sourceOf.get(key);
  };
  const ours = (src) => src && /\/(electron|shared)\//.test(src) && !src.includes('node_modules');
  const short = (src) =>
    src
      .replace(/^.*?\/(electron\/core|electron|shared|node_modules)\//, (_m, top) => (top === 'node_modules' ? '' : `${top}/`))
      .replace(/^electron\/core\//, '');
  const { totals, leaves } = charge(
    profile,
    (stack) => {
      const leaf = stack[0];
      if (leaf.functionName === '(idle)' || leaf.functionName === '(garbage collector)' || leaf.functionName === '(program)') return leaf.functionName;
      for (const f of stack) {
        const src = where(f);
        if (ours(src)) return `${short(src)} ${f.functionName || '(anonymous)'}`;
      }
      const src = where(leaf);
      if (src) return `${short(src).split('/').slice(0, 2).join('/')} (no frame of ours)`;
      return `${leaf.url || '(native)'} ${leaf.functionName || '(anonymous)'}`.trim();
    },
    from,
    to,
  );
  return { reads, wallMs, totals, leaves };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 40_000);
  const { reads, wallMs, totals, leaves } = await profileReads(n, {
    window: process.argv.includes('--window'),
    inFlight: process.argv.includes('--32') ? 32 : 1,
  });
  const rows = [...totals].sort((a, b) => b[1] - a[1]);
  const busy = rows.filter(([k]) => k !== '(idle)').reduce((s, [, us]) => s + us, 0);
  console.log(
    `${reads} reads in ${wallMs.toFixed(0)} ms (${((1000 * wallMs) / reads).toFixed(1)} µs each as the client saw it); server busy ${(busy / 1000).toFixed(0)} ms = ${(busy / reads).toFixed(1)} µs a read\n`,
  );
  console.log('| where (innermost frame of ours) | µs a read | share of busy | mostly in |\n|---|---:|---:|---|');
  for (const [k, us] of rows) {
    if (k === '(idle)' || us / reads < 0.1) continue;
    const top = [...leaves.get(k)]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([leaf, u]) => `${leaf} ${(u / reads).toFixed(1)}`)
      .join('; ');
    console.log(`| ${k} | ${(us / reads).toFixed(2)} | ${((100 * us) / busy).toFixed(1)}% | ${top} |`);
  }
}
