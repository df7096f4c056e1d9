// npm run soak -- [--minutes N] [--clients N] [--no-hostile] [--no-documents] [--no-attacks]; SOAK_ATTACKS=2,6 runs only those attacks
// Long load on a real `mcp-shelf serve`: clients mixing list, read,
// subscribe and unsubscribe while files churn, beside hostile clients (a
// flood of lines that are not JSON, a client that asks for a large file and
// never reads while it floods, oversized strings; each reconnects when cut;
// pathological globs, phrase searches and a backtracking-prone grep pattern, sent
// as fast as the connection takes them; Office files whose zips lie about their
// sizes and a PDF Flate bomb, rewritten and read as text in a loop, each refused
// as too-large). Per minute: requests served,
// errors (must be 0), p50/p99 latency and server RSS; RSS after warm-up must
// stay flat (under 10% growth from minute 2 to the end) and the traffic log
// within its byte bound. Loopback only; bounded in time; stops by itself.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { WebSocket } from 'ws';

import { webApiProtocols } from '../dist/shared/shelfApi.js';
import { prepareAttacks } from './soakAttacks.mjs';
import { soakDocuments } from './soakDocuments.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '50' },
    'no-hostile': { type: 'boolean', default: false },
    'no-documents': { type: 'boolean', default: false },
    'no-attacks': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const clientCount = Number(values.clients);
if (!(minutes > 0) || !(clientCount > 0)) throw new Error('--minutes and --clients must be positive numbers');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/electron/cli.js');
const work = await mkdtemp(path.join(os.tmpdir(), 'soak-'));
const folder = path.join(work, 'data');
for (let d = 0; d < 20; d++) {
  await mkdir(path.join(folder, `d${d}`), { recursive: true });
  for (let f = 0; f < 25; f++) await writeFile(path.join(folder, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`.repeat(20 + f * 10));
}
const sock = path.join(work, 's.sock');
// The fourth review's attacks (issue 37), in folders of their own beside the well-behaved clients' folder.
const attackDirs = values['no-attacks'] ? null : await prepareAttacks(work);
// SOAK_ARGS: extra serve flags, to compare (e.g. SOAK_ARGS=--no-search-index).
const server = spawn(
  process.execPath,
  [
    ...(process.env.SOAK_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.SOAK_PROFILE] : []),
    CLI,
    'serve',
    '--ui',
    '--no-open',
    '--socket',
    sock,
    '--config-dir',
    work,
    ...(process.env.SOAK_ARGS ? process.env.SOAK_ARGS.split(' ') : []),
    ...(attackDirs ? ['--http', '0'] : []),
    folder,
    ...(attackDirs ? Object.values(attackDirs) : []),
  ],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
let serverErr = '';
server.stderr.on('data', (d) => (serverErr += d));
const uiUrl = await new Promise((resolve, reject) => {
  const t = setTimeout(() => reject(new Error(`server did not start:\n${serverErr}`)), 30_000);
  server.stderr.on('data', () => {
    const m = /window: (\S+)/.exec(serverErr);
    if (m && serverErr.includes('listening on')) {
      clearTimeout(t);
      resolve(m[1]);
    }
  });
});

/** One ShelfApi call over the web host's WebSocket, as the window makes it. */
async function apiCall(method, args = []) {
  const url = new URL(uiUrl);
  const token = /token=([^&]+)/.exec(url.hash)?.[1];
  const ws = new WebSocket(`ws://${url.host}/api`, webApiProtocols(token), { headers: { origin: `http://${url.host}` } });
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  ws.send(JSON.stringify({ type: 'call', id: 1, method, args }));
  const value = await new Promise((r) =>
    ws.on('message', (d) => {
      const f = JSON.parse(String(d));
      if (f.type === 'result') r(f.value);
    }),
  );
  ws.close();
  return value;
}

/** The server's own status (traffic ring size). */
const serverStatus = () => apiCall('getStatus');

/** The access history on disk: a small budget, so a soak of a few minutes makes it drop old segments many times. */
const HISTORY_BUDGET = 4 * 2 ** 20;
/** The budget plus the segment being written (256 KiB at this budget). */
const HISTORY_BOUND = HISTORY_BUDGET + 256 * 1024;
await apiCall('updateSettings', [{ history: { maxBytes: HISTORY_BUDGET } }]);
async function historyMiB() {
  const dir = path.join(work, 'history');
  const names = await readdir(dir).catch(() => []);
  const sizes = await Promise.all(
    names.map((n) =>
      stat(path.join(dir, n)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0) / 2 ** 20;
}

async function rssMiB() {
  const s = await readFile(`/proc/${server.pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024;
}

/** A bare newline-JSON client with request/response matching. */
async function client(i) {
  const s = net.connect(sock);
  await new Promise((r, j) => (s.once('connect', r), s.once('error', j)));
  const pending = new Map();
  let buf = '';
  let nextId = 1;
  s.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (m.id !== undefined && pending.has(m.id)) {
        pending.get(m.id)(m);
        pending.delete(m.id);
      }
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      s.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `soak-${i}`, version: '1' } });
  s.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return { request, close: () => s.destroy() };
}

const end = Date.now() + minutes * 60_000;
const perMinute = [];
let minute = { requests: 0, errors: 0, latencies: [], byMethod: {} };
// This process's own event-loop delay: were it large, the latencies would be the load generator's, not the server's.
const ownDelay = monitorEventLoopDelay({ resolution: 10 });
ownDelay.enable();
const clients = await Promise.all(Array.from({ length: clientCount }, (_, i) => client(i)));
let uris = [];
/** The hostile clients' files are not in the well-behaved mix. */
const wellBehaved = (u) => u.startsWith(`${pathToFileURL(folder).href}/`) && !u.includes('/big/') && !u.includes('/bombs/');
const refresh = async (c) => {
  const r = await c.request('resources/list', {});
  if (r.result) uris = r.result.resources.map((x) => x.uri).filter(wellBehaved);
};
await refresh(clients[0]);

const loops = clients.map(async (c, i) => {
  let n = i;
  while (Date.now() < end) {
    n++;
    const op = n % 10;
    const uri = uris[(n * 7919) % Math.max(1, uris.length)];
    const t = performance.now();
    let res;
    if (op === 0) res = await c.request('resources/list', {});
    else if (op === 1) res = await c.request('resources/subscribe', { uri });
    else if (op === 2) res = await c.request('resources/unsubscribe', { uri });
    else res = await c.request('resources/read', { uri });
    const took = performance.now() - t;
    minute.latencies.push(took);
    const method = op === 0 ? 'list' : op === 1 ? 'subscribe' : op === 2 ? 'unsubscribe' : 'read';
    (minute.byMethod[method] ??= []).push(took);
    minute.requests++;
    // A file the churn just deleted is a correct -32602; anything else is an error.
    if (res.error && res.error.code !== -32602) {
      minute.errors++;
      console.error(`error: ${JSON.stringify(res.error)}`);
    }
    // The hostile client's large file is not in the well-behaved mix.
    if (op === 0 && res.result) uris = res.result.resources.map((x) => x.uri).filter(wellBehaved);
  }
});

const churn = (async () => {
  let k = 0;
  while (Date.now() < end) {
    k++;
    const f = path.join(folder, `d${k % 20}`, `churn-${k % 50}.txt`);
    try {
      if (k % 3 === 0) await unlink(f);
      else if (k % 3 === 1) await writeFile(f, `churn ${k}\n`.repeat(k % 100));
      else await appendFile(path.join(folder, `d${k % 20}`, `f${k % 25}.txt`), `edit ${k}\n`);
    } catch {
      // deleted already
    }
    await new Promise((r) => setTimeout(r, 50));
  }
})();

const pct = (a, p) => (a.length ? a[Math.min(a.length - 1, Math.floor(a.length * p))] : 0);
const ticker = (async () => {
  let m = 0;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(60_000, Math.max(0, end - Date.now()))));
    m++;
    const done = minute;
    minute = { requests: 0, errors: 0, latencies: [], byMethod: {} };
    done.latencies.sort((a, b) => a - b);
    // Which requests are slow: each method's p99 (a bound one kind of request waits on shows here).
    const byMethod = Object.fromEntries(
      Object.entries(done.byMethod).map(([m, l]) => [
        m,
        Number(
          pct(
            l.sort((a, b) => a - b),
            0.99,
          ).toFixed(1),
        ),
      ]),
    );
    const ownP99 = ownDelay.percentile(99) / 1e6;
    ownDelay.reset();
    const status = await serverStatus();
    const row = {
      minute: m,
      requests: done.requests,
      errors: done.errors,
      p50ms: Number(pct(done.latencies, 0.5).toFixed(2)),
      p99ms: Number(pct(done.latencies, 0.99).toFixed(2)),
      p99msByMethod: byMethod,
      ownLoopP99ms: Number(ownP99.toFixed(1)),
      rssMiB: Number((await (documents ? documents.quietly(rssMiB) : rssMiB())).toFixed(1)),
      trafficMiB: Number((status.traffic.bytes / 2 ** 20).toFixed(1)),
      trafficBoundMiB: status.traffic.maxBytes / 2 ** 20,
      historyMiB: Number((await historyMiB()).toFixed(2)),
    };
    perMinute.push(row);
    console.log(
      `min ${row.minute}: ${row.requests} req, ${row.errors} err, p50 ${row.p50ms} ms, p99 ${row.p99ms} ms (${Object.entries(row.p99msByMethod)
        .map(([m, v]) => `${m} ${v}`)
        .join(
          ', ',
        )}; this process's own loop delay p99 ${row.ownLoopP99ms} ms), RSS ${row.rssMiB} MiB, traffic log ${row.trafficMiB}/${row.trafficBoundMiB} MiB, history ${row.historyMiB}/${(HISTORY_BOUND / 2 ** 20).toFixed(2)} MiB`,
    );
  }
})();

/** Hostile connections, each reopened when the server cuts it; none of it may cost a well-behaved client an error. */
let hostileCuts = 0;
let queryId = 0;
await mkdir(path.join(folder, 'big'), { recursive: true });
await writeFile(path.join(folder, 'big', 'large.bin'), Buffer.alloc(6 * 1024 * 1024, 0xfe));
const hostile = values['no-hostile']
  ? []
  : [
      async (s) => s.write('not json at all\n'.repeat(512)),
      async (s, first) => {
        if (first) {
          s.write(
            `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: `file://${path.join(folder, 'big', 'large.bin')}` } })}\n`,
          );
          s.pause(); // never reads
        }
        s.write('x\n'.repeat(512));
      },
      // Queries that cost us time: a glob a backtracking matcher takes minutes over, phrase searches over every file, a pattern that backtracks elsewhere.
      async (s, first) => {
        if (first) {
          s.write(
            `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak-queries', version: '1' } } })}\n`,
          );
          s.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
        }
        const call = (name, args) => s.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++queryId, method: 'tools/call', params: { name, arguments: args } })}\n`);
        call('list_resources', { glob: '*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?!' });
        call('search_resources', { query: '"file 3" "file 1"', glob: '**/*?*?*?*?*?*?*?*?*?*?*?*.txt' });
        call('grep_resources', { pattern: '(\\w+\\s?)+$x|(a+)+$', ignoreCase: true, context: 3 });
      },
      async (s) => {
        s.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 'i'.repeat(64 * 1024), method: 'resources/subscribe', params: { uri: `file:///${'a'.repeat(64 * 1024)}` } })}\n`,
        );
        s.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'n'.repeat(64 * 1024), version: '1' } } })}\n`,
        );
      },
    ].map(async (act) => {
      while (Date.now() < end) {
        const s = net.connect(sock);
        s.on('error', () => undefined);
        s.on('data', () => undefined);
        await new Promise((r) => s.once('connect', r).once('error', r));
        let first = true;
        while (Date.now() < end && !s.destroyed) {
          await act(s, first);
          first = false;
          await new Promise((r) => setTimeout(r, 20));
        }
        if (s.destroyed) hostileCuts++;
        s.destroy();
      }
    });

const documents = values['no-hostile'] || values['no-documents'] ? null : soakDocuments({ folder, sock, end });
/** The attacks in a process of their own (their work must not delay this process's clocks), started once `private` asks. */
const attacks = attackDirs ? await startAttacks() : null;
async function startAttacks() {
  await apiCall('setFolderOptions', [attackDirs.private, { askBeforeRead: true }]);
  const options = {
    dirs: attackDirs,
    sock,
    uiUrl,
    httpUrl: /MCP over HTTP: (\S+)/.exec(serverErr)?.[1],
    httpToken: /HTTP bearer token: (\S+)/.exec(serverErr)?.[1],
    end,
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/soakAttacks.mjs'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const result = { stats: null };
  result.run = new Promise((r) => child.once('exit', r)).then(() => {
    result.stats = JSON.parse(out.trim().split('\n').pop() || 'null');
  });
  return result;
}

await Promise.all([...loops, churn, ticker, ...hostile, documents?.run, attacks?.run]);
clients.forEach((c) => c.close());
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await rm(work, { recursive: true, force: true });

const total = perMinute.reduce((a, r) => ({ requests: a.requests + r.requests, errors: a.errors + r.errors }), { requests: 0, errors: 0 });
const warm = perMinute[Math.min(1, perMinute.length - 1)];
const last = perMinute[perMinute.length - 1];
const growth = warm && last ? (last.rssMiB - warm.rssMiB) / warm.rssMiB : 0;
const ringOk = perMinute.every((r) => r.trafficMiB <= r.trafficBoundMiB);
const historyOk = perMinute.every((r) => r.historyMiB * 2 ** 20 <= HISTORY_BOUND);
const documentsRefused = !documents || (documents.stats.reads > 0 && documents.stats.wrong === 0);
const verdict = {
  errorsZero: total.errors === 0,
  rssFlat: perMinute.length < 3 || growth < 0.1,
  ringWithinBound: ringOk,
  historyWithinBound: historyOk,
  documentsRefused,
  // The fourth review's attacks: no line of the ask-before-read folder, no search naming the wrong file, no redirect off the host.
  attacksHeld:
    !attacks ||
    (attacks.stats !== null && attacks.stats.leaks === 0 && attacks.stats.wrongHits === 0 && attacks.stats.redirectsAway === 0 && attacks.stats.searches > 0),
  p99Under50ms: perMinute.every((r) => r.p99ms < 50),
  rssUnder1GiB: perMinute.every((r) => r.rssMiB < 1024),
};
console.log('\n| minute | requests | errors | p50 ms | p99 ms | server RSS MiB | traffic log MiB | history MiB |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of perMinute)
  console.log(
    `| ${r.minute} | ${r.requests} | ${r.errors} | ${r.p50ms} | ${r.p99ms} | ${r.rssMiB} | ${r.trafficMiB} / ${r.trafficBoundMiB} | ${r.historyMiB} / ${(HISTORY_BOUND / 2 ** 20).toFixed(2)} |`,
  );
console.log(
  `\n${total.requests} requests, ${total.errors} errors; RSS growth minute 2 → end: ${(growth * 100).toFixed(1)}%; hostile connections cut and reopened: ${hostileCuts}; hostile documents read: ${documents?.stats.reads ?? 0}, refused as too-large: ${documents?.stats.refused ?? 0}; attacks: ${JSON.stringify(attacks?.stats ?? null)}; ${JSON.stringify(verdict)}`,
);
await mkdir(path.join(ROOT, 'results'), { recursive: true });
await writeFile(
  path.join(ROOT, 'results', 'soak-latest.json'),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      minutes,
      clients: clientCount,
      hostile: !values['no-hostile'],
      hostileCuts,
      documents: documents?.stats ?? null,
      attacks: attacks?.stats ?? null,
      perMinute,
      total,
      growth,
      verdict,
      node: process.version,
      cpus: os.cpus().length,
    },
    null,
    2,
  ),
);
process.exit(Object.values(verdict).every(Boolean) ? 0 : 1);
