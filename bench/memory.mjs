// node bench/memory.mjs [SCENARIO…]   (after npm run build)
// What hostile documents and hostile clients cost a real `mcp-shelf serve`
// in memory: peak RSS (the kernel's VmHWM) and RSS after. Scenarios:
//   docx      a client reads ?as=text of a 3 MB .docx that lies about its sizes (3 GiB inflated)
//   pdf       a client reads ?as=text of a 2 MB PDF with one Flate bomb stream (2 GiB)
//   index     the background search index meets both at start-up, then a second start
//   subs      10,000 subscriptions of 8 KB: on one connection, then across 6
//   strings   150 clients one after another, each sending one 3 MiB string (clientInfo
//             name, subscribe URI or request id) then closing: RSS after and 30 s later
//   budget    the built extraction worker alone, in this process: what large honest documents
//             add to the process at most, and how fast a Flate bomb grows it (per 10 ms) — the
//             measurements the extraction memory budget and its check interval come from
// No scenario named: all. Each starts its own server; loopback only.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';

import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import writeXlsxFile from 'write-excel-file/node';

import { ProcessGrowth } from '../dist/electron/core/documents/processGrowth.js';
import { flateBombPdf, lyingDocx, plainDocx } from './hostileDocuments.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/electron/cli.js');
const MiB = 1024 * 1024;

async function procStatus(pid, field) {
  const s = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
}
const rss = (pid) => procStatus(pid, 'VmRSS');
const peak = (pid) => procStatus(pid, 'VmHWM');
const mib = (n) => `${n.toFixed(0)} MiB`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function serve(folder, { args = [], configDir } = {}) {
  const dir = configDir ?? (await mkdtemp(path.join(os.tmpdir(), 'shm-')));
  const sock = path.join(dir, 's.sock');
  const snapshots = await mkdtemp(path.join(os.tmpdir(), 'shm-snap-'));
  // SIGUSR2 writes a heap snapshot (after a full collection): what the server really keeps.
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}` };
  const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', dir, ...args, folder], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve did not start:\n${err}`)), 30_000);
    proc.stderr.on('data', () => err.includes('listening on') && (clearTimeout(t), resolve()));
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${err}`)));
  });
  return {
    sock,
    dir,
    pid: proc.pid,
    stderr: () => err,
    /** The live heap after a full collection, in MiB (from a heap snapshot). */
    async liveHeap() {
      proc.kill('SIGUSR2');
      for (;;) {
        await sleep(250);
        const file = (await readdir(snapshots)).find((n) => n.endsWith('.heapsnapshot'));
        if (!file) continue;
        let snap;
        try {
          snap = JSON.parse(await readFile(path.join(snapshots, file), 'utf8'));
        } catch {
          continue; // still being written
        }
        await rm(path.join(snapshots, file));
        const fields = snap.snapshot.meta.node_fields;
        const size = fields.indexOf('self_size');
        let total = 0;
        for (let i = size; i < snap.nodes.length; i += fields.length) total += snap.nodes[i];
        return total / MiB;
      }
    },
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
      await rm(snapshots, { recursive: true, force: true });
    },
  };
}

/** A bare newline-JSON client; `request` resolves with the reply (or null when the connection closes first). */
async function client(sock) {
  const s = net.connect(sock);
  await new Promise((r, j) => (s.once('connect', r), s.once('error', j)));
  s.on('error', () => undefined);
  const waiting = new Map();
  let buf = '';
  let next = 1;
  s.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      const key = JSON.stringify(m.id);
      waiting.get(key)?.(m);
      waiting.delete(key);
    }
  });
  s.on('close', () => {
    for (const w of waiting.values()) w(null);
    waiting.clear();
  });
  const request = (method, params, id = next++) =>
    new Promise((resolve) => {
      waiting.set(JSON.stringify(id), resolve);
      s.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const initialize = async (name = 'bench') => {
    const r = await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } });
    s.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return r;
  };
  const close = () => new Promise((r) => (s.destroyed ? r() : (s.once('close', r), s.destroy())));
  return { request, initialize, close, socket: s };
}

/** Reads `uri` while another client reads a small file every 100 ms; the bystander's worst wait says whether others were held up. */
async function readWithBystander(server, uri, small) {
  const c = await client(server.sock);
  await c.initialize();
  const b = await client(server.sock);
  await b.initialize('bystander');
  let worst = 0;
  let done = false;
  const bystander = (async () => {
    while (!done) {
      const t = performance.now();
      await b.request('resources/read', { uri: small });
      worst = Math.max(worst, performance.now() - t);
      await sleep(100);
    }
  })();
  const t = performance.now();
  const reply = await c.request('resources/read', { uri });
  const ms = performance.now() - t;
  done = true;
  await bystander;
  await c.close();
  await b.close();
  return { outcome: reply?.error ? `${reply.error.code} ${reply.error.data?.reason ?? ''} (${reply.error.message})` : 'text', ms, bystanderWorstMs: worst };
}

async function documentScenario(name, file, bytes) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'shm-'));
  await writeFile(path.join(work, file), bytes);
  await writeFile(path.join(work, 'small.txt'), 'hello\n');
  const server = await serve(work, { args: ['--no-search-index'] });
  const before = await rss(server.pid);
  const r = await readWithBystander(server, `${pathToFileURL(path.join(work, file)).href}?as=text`, pathToFileURL(path.join(work, 'small.txt')).href);
  await sleep(1000);
  const row = {
    scenario: name,
    fileMiB: (bytes.length / MiB).toFixed(1),
    rssBefore: before,
    peakRss: await peak(server.pid),
    rssAfter: await rss(server.pid),
    ...r,
  };
  await server.stop();
  await rm(work, { recursive: true, force: true });
  await rm(server.dir, { recursive: true, force: true });
  console.log(
    `${name}: ${row.outcome} in ${row.ms.toFixed(0)} ms; RSS ${mib(row.rssBefore)} → peak ${mib(row.peakRss)}, ${mib(row.rssAfter)} 1 s after; a bystander's slowest read ${row.bystanderWorstMs.toFixed(0)} ms`,
  );
  return row;
}

async function indexScenario() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'shm-'));
  const config = await mkdtemp(path.join(os.tmpdir(), 'shm-'));
  await writeFile(path.join(work, 'lying.docx'), lyingDocx());
  await writeFile(path.join(work, 'bomb.pdf'), flateBombPdf());
  await writeFile(path.join(work, 'fine.docx'), plainDocx('an honest document'));
  const rows = [];
  for (const start of ['first start', 'second start']) {
    const server = await serve(work, { configDir: config });
    const t = performance.now();
    // The index extracts every document; wait until the disk cache holds all three outcomes (or 90 s).
    let kept = 0;
    while (performance.now() - t < 90_000) {
      kept = await countCached(config);
      if (kept >= 3) break;
      await sleep(250);
    }
    await sleep(1000);
    const row = {
      scenario: `index, ${start}`,
      kept,
      seconds: (performance.now() - t) / 1000,
      peakRss: await peak(server.pid),
      rssAfter: await rss(server.pid),
    };
    rows.push(row);
    console.log(`index, ${start}: ${kept} outcomes kept after ${row.seconds.toFixed(1)} s; peak RSS ${mib(row.peakRss)}, ${mib(row.rssAfter)} after`);
    await server.stop();
  }
  await rm(work, { recursive: true, force: true });
  await rm(config, { recursive: true, force: true });
  return rows;
}

async function countCached(config) {
  const dirs = await readdir(path.join(config, 'text-cache')).catch(() => []);
  let n = 0;
  for (const d of dirs) n += (await readdir(path.join(config, 'text-cache', d)).catch(() => [])).length;
  return n;
}

/** `count` subscriptions of ~8 KB URIs on each of `connections` connections, 64 in flight per connection. */
async function subscriptionScenario(connections, count = 10_000) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'shm-'));
  await writeFile(path.join(work, 'a.txt'), 'a\n');
  const server = await serve(work, { args: ['--no-search-index'] });
  await sleep(500);
  const before = await rss(server.pid);
  const clients = await Promise.all(Array.from({ length: connections }, () => client(server.sock)));
  const results = { ok: 0, refused: 0, firstRefusal: null };
  await Promise.all(
    clients.map(async (c, ci) => {
      await c.initialize(`subs-${ci}`);
      let n = 0;
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (n < count) {
            const i = n++;
            const uri = `file:///c${ci}/${String(i).padStart(6, '0')}/${'s'.repeat(8000)}`;
            const r = await c.request('resources/subscribe', { uri });
            if (r?.error) {
              results.refused++;
              results.firstRefusal ??= r.error.message;
            } else results.ok++;
          }
        }),
      );
    }),
  );
  await sleep(1000);
  const held = await rss(server.pid);
  const heapHeld = await server.liveHeap();
  await Promise.all(clients.map((c) => c.close()));
  await sleep(3000);
  const row = {
    scenario: `subscriptions, ${connections} connection(s)`,
    ...results,
    rssBefore: before,
    rssHeld: held,
    liveHeapHeld: heapHeld,
    peakRss: await peak(server.pid),
    rssAfterClose: await rss(server.pid),
    liveHeapAfterClose: await server.liveHeap(),
  };
  await server.stop();
  await rm(work, { recursive: true, force: true });
  await rm(server.dir, { recursive: true, force: true });
  console.log(
    `${row.scenario}: ${row.ok} accepted, ${row.refused} refused${row.firstRefusal ? ` ("${row.firstRefusal}")` : ''}; RSS ${mib(before)} → ${mib(held)} held (live heap ${mib(heapHeld)}), peak ${mib(row.peakRss)}, ${mib(row.rssAfterClose)} 3 s after closing (live heap ${mib(row.liveHeapAfterClose)})`,
  );
  return row;
}

/** 150 clients one after another, each sending one 3 MiB string then closing. */
async function stringsScenario(kind, server) {
  const big = (i) => `${kind}-${i}-${'x'.repeat(3 * MiB)}`;
  for (let i = 0; i < 150; i++) {
    const c = await client(server.sock);
    if (kind === 'name') await c.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: big(i), version: '1' } });
    else {
      await c.initialize();
      if (kind === 'uri') await c.request('resources/subscribe', { uri: `file:///${big(i)}` });
      else await c.request('resources/list', {}, big(i));
    }
    await c.close();
  }
}

async function stringsScenarios() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'shm-'));
  await writeFile(path.join(work, 'a.txt'), 'a\n');
  const rows = [];
  for (const kind of ['name', 'uri', 'id', 'all']) {
    const server = await serve(work, { args: ['--no-search-index'] });
    await sleep(500);
    const before = await rss(server.pid);
    const heapBefore = await server.liveHeap();
    if (kind === 'all') await Promise.all(['name', 'uri', 'id'].map((k) => stringsScenario(k, server)));
    else await stringsScenario(kind, server);
    await sleep(1000);
    const after = await rss(server.pid);
    await sleep(30_000);
    const row = {
      scenario: `150 clients × one 3 MiB ${kind === 'all' ? 'name, URI and id (three at once)' : kind}`,
      rssBefore: before,
      rssAfter: after,
      rssAfter30s: await rss(server.pid),
      peakRss: await peak(server.pid),
      liveHeapBefore: heapBefore,
    };
    row.liveHeapAfter = await server.liveHeap();
    rows.push(row);
    console.log(
      `${row.scenario}: RSS ${mib(before)} → ${mib(after)} after the last closed, ${mib(row.rssAfter30s)} 30 s later (peak ${mib(row.peakRss)}); live heap ${mib(heapBefore)} → ${mib(row.liveHeapAfter)}`,
    );
    await server.stop();
    await rm(server.dir, { recursive: true, force: true });
  }
  await rm(work, { recursive: true, force: true });
  return rows;
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/** Runs one document through the built worker with no watchdog, sampling this process every 10 ms as the watchdog does. */
async function growthOf(kind, bytes) {
  gc(); // what making the documents left behind is not the worker's
  await sleep(1000); // and its pages leave the RSS a moment later
  const worker = new Worker(path.join(ROOT, 'dist/electron/extract-worker.js'), {
    resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  const growth = new ProcessGrowth();
  let max = 0;
  let step = 0;
  let last = 0;
  const t0 = performance.now();
  const timer = setInterval(() => {
    const grown = growth.bytes();
    step = Math.max(step, grown - last);
    last = grown;
    max = Math.max(max, grown);
  }, 10);
  const reply = await new Promise((resolve) => {
    // The worker says its thread id first (extractWorker.ts): the reply is the message with the job's id.
    worker.on('message', (m) => m.id === 1 && resolve(m));
    worker.once('exit', () => resolve({ ok: false, reason: 'heap limit' }));
    const owned = bytes.slice();
    worker.postMessage({ id: 1, kind, bytes: owned, options: { ocr: null, stage: 'text' } }, [owned.buffer]);
  });
  clearInterval(timer);
  await worker.terminate();
  return {
    outcome: reply.ok ? `${reply.text.length} chars` : reply.reason,
    ms: performance.now() - t0,
    maxGrowthMiB: max / MiB,
    maxStepPer10msMiB: step / MiB,
  };
}

async function budgetScenario() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 2000; p++) {
    const page = pdf.addPage();
    for (let l = 0; l < 50; l++) page.drawText(`Page ${p} line ${l} some words of text to extract here`, { x: 30, y: 780 - l * 15, font, size: 10 });
  }
  const sheet = Array.from({ length: 200_000 }, (_, i) => Array.from({ length: 10 }, (_, j) => ({ value: j % 2 ? `cell ${i}/${j}` : i * j })));
  const docs = {
    'PDF, 2,000 pages of text': ['pdf', await pdf.save()],
    'spreadsheet, 200,000 rows × 10': ['xlsx', new Uint8Array(await writeXlsxFile([{ sheet: 'S', data: sheet }], {}).toBuffer())],
    'Word, 100,000 paragraphs': [
      'docx',
      new Uint8Array(
        await Packer.toBuffer(
          new Document({
            sections: [{ children: Array.from({ length: 100_000 }, (_, i) => new Paragraph(`Paragraph ${i} with a few words of text in it.`)) }],
          }),
        ),
      ),
    ],
    'PDF with a Flate bomb (2 GiB), unwatched': ['pdf', flateBombPdf()],
  };
  const rows = [];
  for (const [name, [kind, bytes]] of Object.entries(docs)) {
    const r = { scenario: name, fileMiB: (bytes.length / MiB).toFixed(1), ...(await growthOf(kind, bytes)) };
    rows.push(r);
    console.log(
      `${name} (${r.fileMiB} MiB): ${r.outcome} in ${r.ms.toFixed(0)} ms; the process grew by ${mib(r.maxGrowthMiB)} at most, ${mib(r.maxStepPer10msMiB)} at most in 10 ms`,
    );
  }
  return rows;
}

const SCENARIOS = {
  docx: () => documentScenario('lying .docx (3 GiB inflated)', 'lying.docx', lyingDocx()),
  pdf: () => documentScenario('PDF with a Flate bomb (2 GiB)', 'bomb.pdf', flateBombPdf()),
  index: indexScenario,
  subs: async () => [await subscriptionScenario(1), await subscriptionScenario(6)],
  strings: stringsScenarios,
  budget: budgetScenario,
};
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(SCENARIOS);
const results = {};
for (const name of names) {
  if (!SCENARIOS[name]) throw new Error(`unknown scenario ${name}; one of ${Object.keys(SCENARIOS).join(', ')}`);
  results[name] = await SCENARIOS[name]();
}
await mkdir(path.join(ROOT, 'results'), { recursive: true });
await writeFile(path.join(ROOT, 'results', 'memory-latest.json'), JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2));
