// npm run bench [-- SCENARIO…]
// Measures this server the way clients use it, next to the reference servers
// and the physical limits in the same run (so the ratios hold on a noisy
// machine): subjects alternate, several repetitions, median (min–max). A table
// goes to stdout, JSON to results/bench-latest.json, and each target is
// checked at the end (met / missed). See BENCHMARKS.md.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { changingFiles, fullHistory, largeFiles, manyFiles, ROOT, smallFiles } from './fixtures.mjs';
import {
  CLI,
  inProcess,
  inProcessLarge,
  memoryMiB,
  startEcho,
  startEverything,
  startFsServer,
  startShelf,
  startShelfViaBridge,
  startShelfWithWindow,
} from './subjects.mjs';

const REPS = 5;
/** Rounds of the small-read scenarios (each subject reads once a round). */
const ROUNDS = 15;
const N = 4000;
const MiB = 1024 * 1024;

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const fmt = (a, digits = 0) => `${median(a).toFixed(digits)} (${Math.min(...a).toFixed(digits)}–${Math.max(...a).toFixed(digits)})`;
const cpuCell = (runs) =>
  runs.every((x) => Number.isFinite(x.cpu))
    ? fmt(
        runs.map((x) => x.cpu),
        1,
      )
    : '—';
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const checks = [];
/** A target whose subjects did not run (BENCH_SUBJECTS) is not checked: its figure is NaN. */
const check = (what, ok, detail) => (/NaN/.test(detail) ? undefined : checks.push({ what, ok, detail }));

/**
 * CPU time the process's main thread has used, in µs (Linux: /proc/PID/schedstat),
 * or NaN. What a subject's thread spends a request is steady where its rate is
 * not: other work on the machine takes turns on the cores, not instructions.
 */
function cpuUs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return NaN;
  }
}

/** Requests a second, per-request latencies and the server's CPU µs a request, `inFlight` at a time. */
async function drive(subject, files, inFlight, total = N) {
  const lat = [];
  let next = 0;
  const cpu0 = cpuUs(subject.pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const file = files[(next++ * 7919) % files.length];
        const t = performance.now();
        const res = await subject.read(file);
        if (res && res.error) throw new Error(`read failed: ${JSON.stringify(res.error)}`);
        lat.push(performance.now() - t);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const cpu = (cpuUs(subject.pid) - cpu0) / total;
  lat.sort((a, b) => a - b);
  return { rps: total / secs, p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), cpu };
}

/** Subjects running now: stopped if the bench is interrupted (a dozen servers run at once). */
const live = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void Promise.allSettled([...live].map((s) => s.stop())).then(() => process.exit(130));
  });
}

async function smallReads(inFlight) {
  const { dir, files } = await smallFiles();
  const subjects = {
    'mcp-shelf (socket, raw client)': () => startShelf(dir),
    'mcp-shelf (socket, raw client, reply cache off)': () => startShelf(dir, { env: { MCP_SHELF_NO_READ_CACHE: '1' } }),
    [NO_HISTORY]: () => startShelf(dir, { env: { MCP_SHELF_NO_HISTORY: '1' } }),
    [NO_TRAFFIC]: () => startShelf(dir, { env: { MCP_SHELF_NO_TRAFFIC_LOG: '1' } }),
    [NO_BOTH]: () => startShelf(dir, { env: { MCP_SHELF_NO_HISTORY: '1', MCP_SHELF_NO_TRAFFIC_LOG: '1' } }),
    [WINDOW]: () => startShelfWithWindow(dir),
    'mcp-shelf (socket, raw client, 2026-07-28)': () => startShelf(dir, { modern: true }),
    'mcp-shelf (SDK client via mcp-shelf connect)': () => startShelfViaBridge(dir),
    'mcp-shelf (SDK v2 client pinned to 2026-07-28, via connect)': () => startShelfViaBridge(dir, { v2: true }),
    'server-filesystem (stdio, read_text_file)': () => startFsServer(dir),
    'server-everything (stdio, resources/read)': () => startEverything(),
    'limit: newline-JSON echo on a Unix socket': () => startEcho(),
    'reference: the same echo, replying with 2.5 KB of text': () => startEcho({ payload: true }),
    [ECHO_OPEN]: () => startEcho({ payload: true, safeOpen: true }),
    ...(inFlight === 1 ? { 'limit: in-process readFile + stringify': async () => inProcess() } : {}),
  };
  // BENCH_SUBJECTS=REGEX runs only the subjects it matches (and this server's own, the ratios' base):
  // a before/after of one change without a dozen servers on a shared machine.
  const only = process.env.BENCH_SUBJECTS ? new RegExp(process.env.BENCH_SUBJECTS) : null;
  if (only) for (const name of Object.keys(subjects)) if (name !== SHELF && !only.test(name)) delete subjects[name];
  // All subjects run at once and take turns in short bursts, the order reversed every other
  // round: on a machine others share, a burst's neighbours see the same load, so the ratios
  // of one round hold even when the load swings (a subject run apart for seconds does not).
  const started = [];
  for (const [name, start] of Object.entries(subjects)) {
    const subject = await start();
    started.push([name, subject]);
    live.add(subject);
  }
  const results = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
  const burst = inFlight === 1 ? 1000 : 4000;
  try {
    for (const [, s] of started) await drive(s, files, inFlight, 2 * burst); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, s] of round % 2 ? [...started].reverse() : started) results[name].push(await drive(s, files, inFlight, burst));
    }
    // What the open window took: its frames, the Traffic rows in them and their bytes, a read.
    const win = started.find(([name]) => name === WINDOW)?.[1];
    if (win) {
      const { frames, entries, bytes } = await win.seen();
      const reads = (2 + ROUNDS) * burst;
      console.log(
        `\nThe open window (${inFlight === 1 ? 'sequential' : `${inFlight} in flight`}): ${frames} frames, ${entries} Traffic rows, ${(bytes / 2 ** 20).toFixed(1)} MiB for ${reads} reads (${(bytes / reads).toFixed(0)} bytes a read)`,
      );
    }
  } finally {
    for (const [, s] of started) {
      live.delete(s);
      await s.stop();
    }
  }
  return results;
}

const NO_HISTORY = 'mcp-shelf (socket, raw client, access history off)';
const NO_TRAFFIC = 'mcp-shelf (socket, raw client, traffic log off)';
const NO_BOTH = 'mcp-shelf (socket, raw client, history and traffic log off)';
const WINDOW = 'mcp-shelf (socket, raw client, window open, Traffic live)';
const ECHO = 'limit: newline-JSON echo on a Unix socket';
const ECHO_TEXT = 'reference: the same echo, replying with 2.5 KB of text';
const ECHO_OPEN = 'reference: the 2.5 KB echo, also opening each file as a safe read does (open, readlink, fstat, close)';
const FS = 'server-filesystem (stdio, read_text_file)';

/**
 * Ratios of subjects per round (a round's bursts run back to back, so they
 * share its load), then the median: steadier on a busy machine than the
 * ratio of two medians.
 */
const ratioOf = (r, a, b) => (r[a] && r[b] ? median(r[a].map((x, i) => x.rps / r[b][i].rps)) : NaN);

/** The comparisons every small-read table ends with (the targets of issue 30, and what history, traffic log and window cost). */
function smallRatios(r, mode) {
  const rows = [
    [`mcp-shelf ÷ the echo`, ratioOf(r, SHELF, ECHO)],
    [`mcp-shelf ÷ the echo replying with 2.5 KB`, ratioOf(r, SHELF, ECHO_TEXT)],
    [`mcp-shelf ÷ that echo opening each file safely`, ratioOf(r, SHELF, ECHO_OPEN)],
    [`mcp-shelf ÷ server-filesystem`, ratioOf(r, SHELF, FS)],
    [`with the access history ÷ without`, ratioOf(r, SHELF, NO_HISTORY)],
    [`with the traffic log ÷ without`, ratioOf(r, SHELF, NO_TRAFFIC)],
    [`with both ÷ without either`, ratioOf(r, SHELF, NO_BOTH)],
    [`window open, Traffic live ÷ not`, ratioOf(r, WINDOW, SHELF)],
  ];
  console.log(`\n| ${mode}: ratio (median of the rounds' ratios) | × |\n|---|---:|`);
  for (const [what, x] of rows) if (Number.isFinite(x)) console.log(`| ${what} | ${x.toFixed(2)} |`);
  // The same comparisons in the servers' CPU a request (main thread), which the machine's load moves far less.
  const cpu = (name) => (r[name] ? median(r[name].map((x) => x.cpu)) : NaN);
  const costs = [
    ['mcp-shelf', cpu(SHELF)],
    ['the echo', cpu(ECHO)],
    ['the echo replying with 2.5 KB', cpu(ECHO_TEXT)],
    ['that echo opening each file safely', cpu(ECHO_OPEN)],
    ['server-filesystem', cpu(FS)],
    ['the access history (mcp-shelf − history off)', cpu(SHELF) - cpu(NO_HISTORY)],
    ['the traffic log (mcp-shelf − traffic log off)', cpu(SHELF) - cpu(NO_TRAFFIC)],
    ['both (mcp-shelf − both off)', cpu(SHELF) - cpu(NO_BOTH)],
    ['the window open, Traffic live (window − mcp-shelf)', cpu(WINDOW) - cpu(SHELF)],
  ];
  if (costs.some(([, x]) => Number.isFinite(x))) {
    console.log(`\n| ${mode}: the server's main thread, CPU µs a request (median of the rounds) | µs |\n|---|---:|`);
    for (const [what, x] of costs) if (Number.isFinite(x)) console.log(`| ${what} | ${x.toFixed(1)} |`);
  }
  return { ...Object.fromEntries(rows), cpu: Object.fromEntries(costs) };
}

async function large() {
  const { dir, bin, text } = await largeFiles();
  const out = {};
  for (const [kind, file, binary] of [
    ['binary', bin, true],
    ['text', text, false],
  ]) {
    const rows = { 'mcp-shelf (socket, raw client)': [], 'server-filesystem (stdio)': [], 'limit: in-process readFile + stringify': [] };
    for (let rep = 0; rep < REPS; rep++) {
      const shelf = await startShelf(dir, { args: ['--max-read-bytes', String(100 * MiB)] });
      let t = performance.now();
      let reply = await shelf.read(file);
      if (!reply.big) throw new Error(`mcp-shelf large read failed: ${JSON.stringify(reply).slice(0, 300)}`);
      rows['mcp-shelf (socket, raw client)'].push({ ms: performance.now() - t, bytes: reply.big, peakMiB: await memoryMiB(shelf.pid) });
      await shelf.stop();

      const fs = await startFsServer(dir);
      t = performance.now();
      reply = await fs.read(file, binary);
      const ms = performance.now() - t;
      rows['server-filesystem (stdio)'].push(
        reply.big
          ? { ms, bytes: reply.big, peakMiB: await memoryMiB(fs.pid) }
          : { ms: NaN, bytes: 0, peakMiB: await memoryMiB(fs.pid), error: JSON.stringify(reply.error ?? reply.result).slice(0, 200) },
      );
      await fs.stop();

      const limit = await inProcessLarge(file, binary);
      rows['limit: in-process readFile + stringify'].push({ ms: limit.ms, bytes: limit.bytes, peakMiB: limit.hwm });
    }
    out[kind] = rows;
  }
  return out;
}

async function listing() {
  const dir = await manyFiles();
  const runs = [];
  for (let rep = 0; rep < REPS; rep++) {
    const t0 = performance.now();
    const shelf = await startShelf(dir);
    const startMs = performance.now() - t0;
    const indexMs = Number(/indexed in (\d+) ms/.exec(shelf.stderr())?.[1]);
    const t = performance.now();
    let cursor;
    let count = 0;
    let pages = 0;
    do {
      const { result, error } = await shelf.call('resources/list', cursor ? { cursor } : {});
      if (error) throw new Error(JSON.stringify(error));
      count += result.resources.length;
      cursor = result.nextCursor;
      pages++;
    } while (cursor);
    const pagesMs = performance.now() - t;
    if (count !== 50_000) throw new Error(`listed ${count} resources, expected 50000`);
    runs.push({ startMs, indexMs, pagesMs, pages, peakMiB: await memoryMiB(shelf.pid) });
    await shelf.stop();
  }
  return runs;
}

async function changes() {
  const dir = await changingFiles();
  const seen = new Map();
  const shelf = await startShelf(dir, {
    onNotification: (m) => {
      if (m.method === 'notifications/resources/updated') seen.get(m.params.uri)?.();
    },
  });
  const uris = Array.from({ length: 20 }, (_, i) => pathToFileURL(path.join(dir, `watched-${i}.txt`)).href);
  for (const uri of uris) await shelf.call('resources/subscribe', { uri });
  const lat = [];
  for (let edit = 0; edit < 50; edit++) {
    const i = edit % 20;
    const arrived = new Promise((resolve) => seen.set(uris[i], resolve));
    const t = performance.now();
    await writeFile(path.join(dir, `watched-${i}.txt`), `version ${edit + 1} of ${i} at ${Date.now()}\n`);
    const late = await Promise.race([arrived.then(() => false), new Promise((r) => setTimeout(() => r(true), 3000))]);
    if (late) throw new Error(`no resources/updated within 3 s for edit ${edit}`);
    lat.push(performance.now() - t);
    seen.delete(uris[i]);
    await new Promise((r) => setTimeout(r, 150)); // edits apart, as a person or an editor saves
  }
  await shelf.stop();
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 0.5), p95: percentile(lat, 0.95), max: lat.at(-1), edits: lat.length };
}

async function manyClients() {
  const { dir, files } = await smallFiles();
  const runs = [];
  for (let rep = 0; rep < REPS; rep++) {
    const shelf = await startShelf(dir, { connections: 50 });
    await drive(shelf, files, 32); // warm-up
    const ref = await drive(shelf, files, 32); // the 32-in-flight figure, same server, same moment
    let errors = 0;
    const t = performance.now();
    await Promise.all(
      shelf.conns.map(async (c, ci) => {
        for (let i = 0; i < 200; i++) {
          const r = await c.call('resources/read', { uri: pathToFileURL(files[(ci * 200 + i) % files.length]).href });
          if (r.error) errors++;
        }
      }),
    );
    const rps = 10_000 / ((performance.now() - t) / 1000);
    runs.push({ rps, ref32: ref.rps, errors, peakMiB: await memoryMiB(shelf.pid) });
    await shelf.stop();
  }
  return runs;
}

/** serve start → socket accepts, five times; `history`: with a full access history in the settings folder. */
async function startup(history = null) {
  const { dir } = await smallFiles();
  const times = [];
  for (let rep = 0; rep < 5; rep++) {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'start-'));
    if (history) await cp(history, path.join(tmp, 'history'), { recursive: true, filter: (f) => !f.endsWith('.complete') });
    const sock = path.join(tmp, 's.sock');
    const t = performance.now();
    const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', tmp, dir], { stdio: 'ignore' });
    for (;;) {
      const ok = await new Promise((r) => {
        const s = net.connect(sock);
        s.once('connect', () => (s.destroy(), r(true)));
        s.once('error', () => r(false));
      });
      if (ok) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    times.push(performance.now() - t);
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    await rm(tmp, { recursive: true, force: true });
  }
  return times;
}

const SHELF = 'mcp-shelf (socket, raw client)';
const SCENARIOS = {
  'small-seq': async () => {
    const r = await smallReads(1);
    console.log(
      `\n### Small reads (2,000 files of 1–4 KB), sequential: ${ROUNDS} rounds of 1,000 requests\n\n| subject | req/s | p50 ms | p99 ms | server CPU µs a request |\n|---|---:|---:|---:|---:|`,
    );
    for (const [name, runs] of Object.entries(r))
      console.log(
        `| ${name} | ${fmt(runs.map((x) => x.rps))} | ${fmt(
          runs.map((x) => x.p50),
          3,
        )} | ${fmt(
          runs.map((x) => x.p99),
          3,
        )} | ${cpuCell(runs)} |`,
      );
    const ratios = smallRatios(r, 'sequential');
    const echo = ratios['mcp-shelf ÷ the echo'];
    const fs = ratios['mcp-shelf ÷ server-filesystem'];
    const win = ratios['window open, Traffic live ÷ not'];
    check('sequential ≥ 0.7 × echo', echo >= 0.7, `${echo.toFixed(2)} × (${ratios['mcp-shelf ÷ the echo replying with 2.5 KB'].toFixed(2)} × the 2.5 KB echo)`);
    check('sequential ≥ 3 × server-filesystem', fs >= 3, `${fs.toFixed(2)} ×`);
    check('sequential, window open with Traffic live ≥ 0.9 × without', win >= 0.9, `${win.toFixed(2)} ×`);
    const p99 = median(r[SHELF].map((x) => x.p99));
    check('sequential p99 ≤ 2 ms', p99 <= 2, `${p99.toFixed(3)} ms`);
    return { runs: r, ratios };
  },
  'small-32': async () => {
    const r = await smallReads(32);
    console.log(`\n### Small reads, 32 in flight: ${ROUNDS} rounds of 4,000 requests\n\n| subject | req/s | server CPU µs a request |\n|---|---:|---:|`);
    for (const [name, runs] of Object.entries(r)) console.log(`| ${name} | ${fmt(runs.map((x) => x.rps))} | ${cpuCell(runs)} |`);
    const ratios = smallRatios(r, '32 in flight');
    const fs = ratios['mcp-shelf ÷ server-filesystem'];
    const win = ratios['window open, Traffic live ÷ not'];
    const ev = ratioOf(r, SHELF, 'server-everything (stdio, resources/read)');
    check('32 in flight ≥ 3 × server-filesystem', fs >= 3, `${fs.toFixed(2)} × (${ratios['mcp-shelf ÷ the echo'].toFixed(2)} × the echo)`);
    check('32 in flight, window open with Traffic live ≥ 0.9 × without', win >= 0.9, `${win.toFixed(2)} ×`);
    check('32 in flight ahead of server-everything', ev > 1, `${ev.toFixed(2)} ×`);
    return { runs: r, ratios };
  },
  large: async () => {
    const r = await large();
    for (const [kind, rows] of Object.entries(r)) {
      console.log(`\n### One 64 MiB ${kind} file (limit raised)\n\n| subject | ms | reply MiB | peak RSS MiB |\n|---|---:|---:|---:|`);
      for (const [name, runs] of Object.entries(rows)) {
        const failed = runs.find((x) => x.error);
        console.log(
          failed
            ? `| ${name} | failed: ${failed.error} | | ${fmt(runs.map((x) => x.peakMiB))} |`
            : `| ${name} | ${fmt(runs.map((x) => x.ms))} | ${(median(runs.map((x) => x.bytes)) / MiB).toFixed(1)} | ${fmt(runs.map((x) => x.peakMiB))} |`,
        );
      }
      const shelfMs = median(rows[SHELF].map((x) => x.ms));
      const limitMs = median(rows['limit: in-process readFile + stringify'].map((x) => x.ms));
      const peak = median(rows[SHELF].map((x) => x.peakMiB));
      check(`64 MiB ${kind}: time ≤ 1.5 × in-process`, shelfMs <= 1.5 * limitMs, `${(shelfMs / limitMs).toFixed(2)} ×`);
      check(`64 MiB ${kind}: server peak RSS ≤ 160 MiB`, peak <= 160, `${peak.toFixed(0)} MiB`);
    }
    return r;
  },
  listing: async () => {
    const runs = await listing();
    console.log('\n### 50,000 files in 500 folders\n\n| | median (min–max) |\n|---|---:|');
    console.log(`| initial index, ms (server's own count) | ${fmt(runs.map((x) => x.indexMs))} |`);
    console.log(`| serve start → listening, ms | ${fmt(runs.map((x) => x.startMs))} |`);
    console.log(`| all ${runs[0].pages} pages via cursors, ms | ${fmt(runs.map((x) => x.pagesMs))} |`);
    console.log(`| server peak RSS, MiB | ${fmt(runs.map((x) => x.peakMiB))} |`);
    check('50k: initial index ≤ 1 s', median(runs.map((x) => x.indexMs)) <= 1000, `${median(runs.map((x) => x.indexMs))} ms`);
    check('50k: all pages ≤ 0.5 s', median(runs.map((x) => x.pagesMs)) <= 500, `${median(runs.map((x) => x.pagesMs)).toFixed(0)} ms`);
    check('50k: server RSS ≤ 150 MiB', median(runs.map((x) => x.peakMiB)) <= 150, `${median(runs.map((x) => x.peakMiB)).toFixed(0)} MiB`);
    return runs;
  },
  changes: async () => {
    const r = await changes();
    console.log(
      `\n### Change → notifications/resources/updated, ${r.edits} edits\n\np50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)} ms`,
    );
    check('change → updated p50 ≤ 100 ms', r.p50 <= 100, `${r.p50.toFixed(1)} ms`);
    check('change → updated p95 ≤ 250 ms', r.p95 <= 250, `${r.p95.toFixed(1)} ms`);
    return r;
  },
  clients: async () => {
    const runs = await manyClients();
    console.log('\n### 50 clients × 200 reads (one in flight each)\n\n| | median (min–max) |\n|---|---:|');
    console.log(`| 50 clients, req/s | ${fmt(runs.map((x) => x.rps))} |`);
    console.log(`| same server, 32 in flight on one connection, req/s | ${fmt(runs.map((x) => x.ref32))} |`);
    console.log(`| errors | ${runs.reduce((n, x) => n + x.errors, 0)} |`);
    const ratio = median(runs.map((x) => x.rps / x.ref32));
    check(
      '50 clients: no error',
      runs.every((x) => x.errors === 0),
      `${runs.reduce((n, x) => n + x.errors, 0)} errors`,
    );
    check('50 clients: ≥ 0.8 × the 32-in-flight figure', ratio >= 0.8, `${ratio.toFixed(2)} ×`);
    return runs;
  },
  scale: async () => {
    const count = Number(process.env.SCALE_FILES ?? 100_000);
    const { scale } = await import('./scale.mjs');
    const r = await scale(count);
    console.log(`\n### ${count.toLocaleString('en')} files (100 per folder)\n\n| | |\n|---|---:|`);
    console.log(`| start → socket accepts | ${r.acceptMs.toFixed(0)} ms |`);
    console.log(`| start → first read by URI answered | ${r.firstReadMs.toFixed(0)} ms |`);
    console.log(`| start → indexed (server's own count) | ${r.indexedMs.toFixed(0)} ms (${r.indexMs} ms) |`);
    console.log(
      `| start → every file's size read (in the background) | ${r.sizesReadMs === null ? 'within a second of the index' : `${(r.sizesReadMs / 1000).toFixed(1)} s`} |`,
    );
    console.log(`| start → full-text index complete (in the background) | ${(r.searchIndexedMs / 1000).toFixed(1)} s |`);
    console.log(
      `| peak RSS while indexing / steady / after changes | ${r.peakMiB.toFixed(0)} / ${r.steadyMiB.toFixed(0)} / ${r.afterChangesMiB.toFixed(0)} MiB |`,
    );
    for (const k of ['create', 'rename', 'remove'])
      console.log(`| one ${k} → list_changed, CPU spent | ${r[k].ms.toFixed(0)} ms, ${r[k].cpuMs.toFixed(0)} ms CPU |`);
    check(`${count}: socket accepts within 0.5 s`, r.acceptMs <= 500, `${r.acceptMs.toFixed(0)} ms`);
    check(`${count}: a read by URI within 0.5 s`, r.firstReadMs <= 500, `${r.firstReadMs.toFixed(0)} ms`);
    if (count >= 1_000_000) check(`${count}: full index ≤ 6 s`, r.indexMs <= 6000, `${(r.indexMs / 1000).toFixed(1)} s`);
    if (count >= 1_000_000) check(`${count}: steady RSS ≤ 400 MiB`, r.steadyMiB <= 400, `${r.steadyMiB.toFixed(0)} MiB`);
    check(
      `${count}: no RSS step when files change (≤ 5%)`,
      r.afterChangesMiB <= r.steadyMiB * 1.05,
      `${r.steadyMiB.toFixed(0)} → ${r.afterChangesMiB.toFixed(0)} MiB`,
    );
    return r;
  },
  churn: async () => {
    const count = Number(process.env.SCALE_FILES ?? 100_000);
    const { churn } = await import('./scale.mjs');
    const r = await churn(count);
    console.log(`\n### Churn on ${count.toLocaleString('en')} files: 1,000 creates + deletes a second for 5 s, 8 reads in flight\n\n| | |\n|---|---:|`);
    console.log(`| reads: quiet → during churn | ${r.quiet.toFixed(0)} → ${r.during.toFixed(0)} req/s (${r.ratio.toFixed(2)} ×) |`);
    console.log(`| a created file readable (so listed), p95 of ${r.visibleN} | ${r.visibleP95.toFixed(0)} ms |`);
    console.log(
      `| list_changed gaps while changes keep coming | ${r.minGap.toFixed(0)}–${r.maxGap.toFixed(0)} ms; one after they stop: ${r.finalAfterStop ? 'yes' : 'no'} |`,
    );
    check(`churn ${count}: reads ≥ 0.8 × quiet`, r.ratio >= 0.8, `${r.ratio.toFixed(2)} ×`);
    check(`churn ${count}: new file readable ≤ 250 ms p95`, r.visibleP95 <= 250, `${r.visibleP95.toFixed(0)} ms`);
    check(
      `churn ${count}: list_changed every 100–250 ms while changing`,
      r.minGap >= 90 && r.maxGap <= 250,
      `${r.minGap.toFixed(0)}–${r.maxGap.toFixed(0)} ms`,
    );
    return r;
  },
  search: async () => {
    const { searchBench } = await import('./search.mjs');
    const r = await searchBench();
    console.log('\n### Full-text search: 50,000 text files of 1–4 KB, and a 200-page PDF\n\n| | |\n|---|---:|');
    console.log(`| socket accepts after start | ${r.acceptMs.toFixed(0)} ms |`);
    console.log(`| a read while the index builds | ${r.readWhileIndexingMs.toFixed(1)} ms |`);
    console.log(
      `| reads (8 in flight) while the index builds ÷ once built | ${r.readsDuringIndex.toFixed(0)} ÷ ${r.readsAfterIndex.toFixed(0)} req/s (${(r.readsDuringIndex / r.readsAfterIndex).toFixed(2)} ×) |`,
    );
    console.log(`| index complete after start (in the background, a client polling 4×/s) | ${r.indexSeconds.toFixed(1)} s |`);
    console.log(`| RSS with the index − without (steady) | ${r.extraRssMiB.toFixed(0)} MiB (peak ${r.peakRssMiB.toFixed(0)} MiB) |`);
    console.log(
      `| search_resources, 300 queries (1–3 words, prefixes): p50 / p95 | ${r.queryP50.toFixed(1)} / ${r.queryP95.toFixed(1)} ms (${r.queriesWithHits} with hits) |`,
    );
    console.log(`| an edited file found by its new word: p95 / max of 10 | ${r.editP95.toFixed(0)} / ${r.editMax.toFixed(0)} ms |`);
    console.log(`| reference: a scan reading every file for one word | ${r.scanMs.toFixed(0)} ms |`);
    console.log(`| reference: server-filesystem search_files (names only) | ${r.fsSearchMs.toFixed(0)} ms |`);
    console.log(
      `| 200-page PDF text, first read / cached (${r.pdfChars.toLocaleString('en')} characters) | ${r.pdfFirstMs.toFixed(0)} / ${r.pdfCachedMs.toFixed(1)} ms |`,
    );
    check('search: 50,000 files indexed ≤ 20 s', r.indexSeconds <= 20, `${r.indexSeconds.toFixed(1)} s`);
    check(
      'search: reads while the index builds ≥ 0.8 × after',
      r.readsDuringIndex >= 0.8 * r.readsAfterIndex,
      `${(r.readsDuringIndex / r.readsAfterIndex).toFixed(2)} ×`,
    );
    check('search: index ≤ 300 MiB extra RSS', r.extraRssMiB <= 300, `${r.extraRssMiB.toFixed(0)} MiB`);
    check('search: query p95 ≤ 50 ms', r.queryP95 <= 50, `${r.queryP95.toFixed(1)} ms`);
    check('search: an edit searchable ≤ 1 s', r.editMax <= 1000, `${r.editMax.toFixed(0)} ms`);
    check('documents: 200-page PDF text ≤ 2 s the first time', r.pdfFirstMs <= 2000, `${r.pdfFirstMs.toFixed(0)} ms`);
    return r;
  },
  'index-queries': async () => {
    const { indexQueriesBench } = await import('./indexQueries.mjs');
    const r = await indexQueriesBench();
    console.log(
      `\n### The index alone: a page of 20 at ${r.docs.toLocaleString('en')} documents of 1–20 KB (load ${r.load}; built in ${(r.buildMs / 1000).toFixed(0)} s)\n\n| query | top-k p50 / p95 ms | full sort p50 / p95 ms | CPU p50 top-k / full sort ms | top-k partial |\n|---|---:|---:|---:|---:|`,
    );
    for (const [kind, k] of Object.entries(r.kinds)) {
      console.log(
        `| ${kind} | ${k.topP50.toFixed(1)} / ${k.topP95.toFixed(1)} | ${k.fullP50.toFixed(1)} / ${k.fullP95.toFixed(1)} | ${k.topCpuP50.toFixed(1)} / ${k.fullCpuP50.toFixed(1)} | ${k.partial} of ${r.rounds} |`,
      );
    }
    for (const [kind, k] of Object.entries(r.kinds)) check(`index: ${kind}, a page's CPU p50 ≤ 10 ms`, k.topCpuP50 <= 10, `${k.topCpuP50.toFixed(1)} ms`);
    return r;
  },
  'grep-scan': async () => {
    const { grepScanBench } = await import('./grepScan.mjs');
    const r = await grepScanBench();
    console.log(
      `\n### grep's worker alone: literal prefilter ÷ line by line (median of 3, interleaved; load ${r.load})\n\n| case | matches | prefilter ms (CPU) | line by line ms (CPU) | GNU grep -c ms |\n|---|---:|---:|---:|---:|`,
    );
    for (const c of r.cases) {
      console.log(
        `| ${c.name} | ${c.matches.toLocaleString('en')} | ${c.fastMs.toFixed(0)} (${c.fastCpuMs.toFixed(0)}) | ${c.slowMs.toFixed(0)} (${c.slowCpuMs.toFixed(0)}) | ${c.gnuMs.toFixed(0)} |`,
      );
    }
    const log = r.cases[0];
    check(
      'grep: a literal in a 100 MB log, CPU ≤ 3 × GNU grep -c',
      log.fastCpuMs <= 3 * log.gnuMs,
      `${log.fastCpuMs.toFixed(0)} vs ${log.gnuMs.toFixed(0)} ms`,
    );
    return r;
  },
  compaction: async () => {
    const { compactionBench } = await import('./compaction.mjs');
    const { runs } = await compactionBench();
    const ms = (key, digits = 0) =>
      fmt(
        runs.map((x) => x[key]),
        digits,
      );
    console.log('\n### Full-text index: 12,000 of 14,000 files removed (2,000 logs, 200,000 distinct words left)\n\n| | median (min–max) |\n|---|---:|');
    console.log(`| the 12,000 removals, in all / the longest, ms | ${ms('removeMs')} / ${ms('longestRemoveMs')} |`);
    console.log(`| the sweep after them: in all / a step, p95 / the longest, ms | ${ms('sweepMs', 1)} / ${ms('p95StepMs', 2)} / ${ms('longestStepMs', 2)} |`);
    console.log(`| the same in processor time: in all / a step, p95, ms | ${ms('sweepCpuMs', 1)} / ${ms('p95StepCpuMs', 2)} |`);
    console.log(`| the 12,000 removals in processor time, ms | ${ms('removeCpuMs')} |`);
    console.log(`| sweep steps | ${ms('steps')} |`);
    const error = runs.find((x) => x.error)?.error;
    console.log(`| a log's word found in that log only | ${runs.every((x) => x.right) ? 'yes' : '**no**'}${error ? ` (a removal threw: ${error})` : ''} |`);
    // Checked on processor time: on a loaded machine the clock counts other processes' turns (its figures are beside it),
    // and the longest removal and step are shown, not checked: a scavenge or the scheduler lands in one.
    const removals = median(runs.map((x) => x.removeCpuMs));
    const p95 = median(runs.map((x) => x.p95StepCpuMs));
    check('compaction: words found in their own files after the removals', runs.every((x) => x.right) && !error, error ?? 'right');
    check('compaction: the 12,000 removals take ≤ 50 ms of processor time in all', removals <= 50, `${removals.toFixed(0)} ms`);
    check('compaction: sweep steps ≤ 2 ms of processor time (p95; slices are 8 ms)', p95 <= 2, `${p95.toFixed(2)} ms`);
    return runs;
  },
  formats: async () => {
    const { formatsBench } = await import('./formats.mjs');
    const r = await formatsBench();
    console.log('\n### Formats: large files read as text, cold (a new worker each)\n\n| format | file | text | ms |\n|---|---:|---:|---:|');
    for (const x of r.runs)
      console.log(
        `| ${x.kind} (${x.parts.toLocaleString('en')} parts) | ${(x.bytes / 2 ** 20).toFixed(1)} MiB | ${(x.chars / 1e6).toFixed(1)} M chars | ${x.ms.toFixed(0)} |`,
      );
    console.log(
      `| 1,000 web pages of ${(r.pageBytes / 1024).toFixed(0)} KB, one after another | | | ${r.pagesMs.toFixed(0)} (${(r.pagesMs / 1000).toFixed(1)} each) |`,
    );
    // A third of the worker's 30 s limit: a busy machine still reads them.
    for (const x of r.runs) check(`formats: ${x.kind} of ${(x.bytes / 2 ** 20).toFixed(0)} MiB as text ≤ 10 s cold`, x.ms <= 10_000, `${x.ms.toFixed(0)} ms`);
    return r;
  },
  documents: async () => {
    const { documentsBench } = await import('./documents.mjs');
    const r = await documentsBench();
    const ms = (a) => (a.length ? `${median(a).toFixed(0)} (${Math.min(...a).toFixed(0)}–${Math.max(...a).toFixed(0)}) ms` : '–');
    console.log(`\n### Documents: PDF text and OCR, cold (a fresh server each time)\n\n| | by the clock | processor time |\n|---|---:|---:|`);
    console.log(
      `| ${r.pdf.pages}-page text PDF, ?as=text (a ${(r.pdf.bytes / 1024 / 1024).toFixed(1)} MB reply) | ${ms(r.pdf.shelf)} | ${ms(r.pdf.shelfCpu)} |`,
    );
    if (r.pdf.ratio !== null) console.log(`| reference: poppler pdftotext, same file | ${ms(r.pdf.pdftotext)} | ${ms(r.pdf.pdftotextCpu)} |`);
    if (r.pdf.ratio !== null) console.log(`| shelf ÷ pdftotext | ${r.pdf.ratio.toFixed(2)} × | ${r.pdf.cpuRatio?.toFixed(2) ?? '–'} × |`);
    console.log(
      `| 1-page scan at 110 dpi, as a PDF: ?as=text by OCR (${(r.ocr.words * 100).toFixed(0)} % of its distinct words found) | ${ms(r.ocr.pdf)} | ${ms(r.ocr.pdfCpu)} |`,
    );
    console.log(`| the same page as a PNG | ${ms(r.ocr.png)} | ${ms(r.ocr.pngCpu)} |`);
    console.log(`| other clients' small reads, quiet: p50 / p99 | ${r.reads.quietP50.toFixed(2)} / ${r.reads.quietP99.toFixed(2)} ms | |`);
    console.log(
      `| the same while another client has ${r.reads.ocrDone} images OCR'd (${r.reads.during} reads): p50 / p99 | ${r.reads.duringP50.toFixed(2)} / ${r.reads.duringP99.toFixed(2)} ms | |`,
    );
    if (r.pdf.ratio === null) check('documents: 300-page PDF ≤ 3 × pdftotext', false, 'pdftotext not available (apt-get install poppler-utils)');
    else check('documents: 300-page PDF ≤ 3 × pdftotext (by the clock)', r.pdf.ratio <= 3, `${r.pdf.ratio.toFixed(2)} ×`);
    // OCR is one thread at a lower priority: on a machine others keep busy the clock runs far ahead of its work, so the
    // target is checked on the server's processor time (the clock's figure is in the table beside it).
    const ocrMs = r.ocr.pdfCpu.length ? median(r.ocr.pdfCpu) : median(r.ocr.pdf);
    check(
      `documents: OCR of a 1-page 110-dpi scan ≤ 5 s (${r.ocr.pdfCpu.length ? 'processor time' : 'by the clock'})`,
      ocrMs <= 5000,
      `${ocrMs.toFixed(0)} ms`,
    );
    check('documents: small reads p99 ≤ 10 ms while OCR runs', r.reads.duringP99 <= 10, `${r.reads.duringP99.toFixed(2)} ms`);
    return r;
  },
  model: async () => {
    const { modelBench } = await import('./model.mjs');
    const { paging: p, image: im, grep: g } = await modelBench();
    console.log(`\n### What the tools give a model\n\n| | |\n|---|---:|`);
    console.log(`| 100 MB log (${p.total.toLocaleString('en')} lines), first page of 2,000 lines (builds the line index) | ${p.firstMs.toFixed(0)} ms |`);
    console.log(`| each next page of 2,000 lines, 200 in a row: p50 / max | ${p.nextP50.toFixed(1)} / ${p.nextMax.toFixed(1)} ms |`);
    console.log(`| a page anywhere in the file, 100 of them: p50 / max | ${p.anywhereP50.toFixed(1)} / ${p.anywhereMax.toFixed(1)} ms |`);
    console.log(`| the last 2,000 lines (offset -2000) / after 1 MB was appended | ${p.tailMs.toFixed(1)} / ${p.grownMs.toFixed(1)} ms |`);
    console.log(
      `| 3000×2000 PNG (${(im.fileBytes / 2 ** 20).toFixed(1)} MiB) to an image block ${im.shown.width}×${im.shown.height} ${im.shown.mimeType}: first (starts the worker) / warm p50 / warm max | ${im.firstMs.toFixed(0)} / ${im.warmP50.toFixed(0)} / ${im.warmMax.toFixed(0)} ms |`,
    );
    const gm = g.runs.map((r) => r.ms);
    console.log(
      `| grep over ${g.runs[0].files.toLocaleString('en')} files (${g.runs[0].matches} matches): median of 3 / case-insensitive | ${median(gm).toFixed(0)} / ${g.icaseMs.toFixed(0)} ms |`,
    );
    console.log(`| another client's small reads meanwhile (${g.reads}): p50 / p99 | ${g.readP50.toFixed(2)} / ${g.readP99.toFixed(2)} ms |`);
    console.log(`| reference: GNU grep -rlE over the same files | ${g.gnuMs.toFixed(0)} ms |`);
    check('model: first page of a 100 MB log ≤ 1 s', p.firstMs <= 1000, `${p.firstMs.toFixed(0)} ms`);
    check('model: each next 2,000-line page ≤ 20 ms', p.nextMax <= 20, `max ${p.nextMax.toFixed(1)} ms`);
    check('model: 3000×2000 PNG to an image block ≤ 300 ms', im.warmMax <= 300, `max ${im.warmMax.toFixed(0)} ms warm (first ${im.firstMs.toFixed(0)} ms)`);
    check('model: grep over 50,000 files ≤ 1 s', median(gm) <= 1000, `${median(gm).toFixed(0)} ms`);
    check("model: other clients' reads during grep ≤ 10 ms p99", g.readP99 <= 10, `${g.readP99.toFixed(2)} ms`);
    return { paging: p, image: im, grep: g };
  },
  wayfinding: async () => {
    const { wayfindingBench } = await import('./wayfinding.mjs');
    const { listings: l, image: im, budget } = await wayfindingBench();
    const n = (v) => v.toLocaleString('en');
    console.log(`\n### How a model finds its way (200,000 files in 2,200 directories)\n\n| | |\n|---|---:|`);
    console.log(`| list_directory of the folder (200 entries, counted) | ${l.top.ms.toFixed(0)} ms, ${n(l.top.chars)} chars |`);
    console.log(`| list_directory depth 3, first page | ${l.deep.ms.toFixed(0)} ms, ${n(l.deep.chars)} chars |`);
    console.log(
      `| the whole tree at depth 3 (${n(l.tree3.count)} entries): pages / total / p50 / max page / largest page | ${l.tree3.pages} / ${n(Math.round(l.tree3.totalMs))} ms / ${l.tree3.p50.toFixed(0)} ms / ${l.tree3.maxMs.toFixed(0)} ms / ${n(l.tree3.maxChars)} chars |`,
    );
    console.log(
      `| list_resources to the end (${n(l.files.count)} files): pages / total / p50 / max page / largest page | ${l.files.pages} / ${n(Math.round(l.files.totalMs))} ms / ${l.files.p50.toFixed(0)} ms / ${l.files.maxMs.toFixed(0)} ms / ${n(l.files.maxChars)} chars |`,
    );
    console.log(
      `| 4000×3000 photo, first read on a cold shelf (3 fresh shelves) → ${im.shown.width}×${im.shown.height} ${im.shown.mimeType} | ${im.runs.map((r) => r.toFixed(0)).join(' / ')} ms |`,
    );
    check(
      'wayfinding: every listing page within the budget',
      Math.max(l.top.chars, l.deep.chars, l.tree3.maxChars, l.files.maxChars) <= budget,
      `largest ${n(Math.max(l.tree3.maxChars, l.files.maxChars))} chars`,
    );
    check('wayfinding: the depth-3 tree, every entry once', l.tree3.count === 202_200, `${n(l.tree3.count)} entries`);
    check('wayfinding: a 12 MP photo on a cold shelf ≤ 1 s', median(im.runs) <= 1000, `median ${median(im.runs).toFixed(0)} ms`);
    return { listings: { ...l, top: { ms: l.top.ms, chars: l.top.chars }, deep: { ms: l.deep.ms, chars: l.deep.chars } }, image: im };
  },
  startup: async () => {
    const t = await startup();
    const h = await startup(await fullHistory());
    console.log(
      `\n### mcp-shelf serve start → socket accepts (2,000 files)\n\n| | ms |\n|---|---:|\n| fresh settings | ${fmt(t)} |\n| with 60 MiB of access history kept | ${fmt(h)} |`,
    );
    check('start → socket accepts ≤ 400 ms', median(t) <= 400, `${median(t).toFixed(0)} ms`);
    check('start with a full history → socket accepts ≤ 400 ms', median(h) <= 400, `${median(h).toFixed(0)} ms`);
    return { fresh: t, withHistory: h };
  },
};

// "scale" and "churn" use SCALE_FILES files (100,000 by default) and run only when named.
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SCENARIOS).filter((s) => s !== 'scale' && s !== 'churn');
for (const w of wanted) if (!SCENARIOS[w]) throw new Error(`unknown scenario ${w}; known: ${Object.keys(SCENARIOS).join(', ')}`);
const started = performance.now();
const out = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model,
  memGiB: Math.round(os.totalmem() / 2 ** 30),
  results: {},
};
// The load average says how far to trust rates: at several times the core count, only ratios within a round (and CPU a request) hold.
console.log(`mcp-shelf bench: ${out.date}, Node ${out.node}, ${out.cpus} × ${out.cpu}, ${out.memGiB} GiB, load average ${os.loadavg()[0].toFixed(1)}`);
for (const w of wanted) out.results[w] = await SCENARIOS[w]();
out.checks = checks;
out.minutes = (performance.now() - started) / 60000;
console.log('\n### Targets\n\n| target | measured | |\n|---|---:|---|');
for (const c of checks) console.log(`| ${c.what} | ${c.detail} | ${c.ok ? 'met' : '**missed**'} |`);
console.log(`\n(${out.minutes.toFixed(1)} minutes; load average now ${os.loadavg()[0].toFixed(1)})`);
await mkdir(path.join(ROOT, 'results'), { recursive: true });
await writeFile(path.join(ROOT, 'results/bench-latest.json'), JSON.stringify(out, null, 2));
