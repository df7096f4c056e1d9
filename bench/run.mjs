// npm run bench [-- SCENARIO…]
// First part of the benchmark harness: small reads (sequential and 32 in
// flight) and start-up time, each subject run in alternation, several
// repetitions, median and min–max. Subjects in the same run: this server over
// its socket (raw newline-JSON client), @modelcontextprotocol/server-filesystem
// (read_text_file over stdio), and the limits: a bare newline-JSON echo server
// on a Unix socket, and in-process readFile + JSON.stringify of the same reply.
// Not here yet (see BENCHMARKS.md): server-everything, large reads, 50k listing, change notifications, 50 clients.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/electron/cli.js');
const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const DATA = path.join(ROOT, 'bench/.data');
const REPS = 3;
const N = 2000;

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const fmt = (a, digits = 0) => `${median(a).toFixed(digits)} (${Math.min(...a).toFixed(digits)}–${Math.max(...a).toFixed(digits)})`;

async function smallFiles() {
  const dir = path.join(DATA, 'small');
  const marker = path.join(dir, '.complete');
  if (!(await readFile(marker, 'utf8').catch(() => ''))) {
    await rm(dir, { recursive: true, force: true });
    for (let i = 0; i < 2000; i++) {
      const sub = path.join(dir, `d${i % 20}`);
      await mkdir(sub, { recursive: true });
      await writeFile(path.join(sub, `f${i}.txt`), `line ${i} `.repeat(100 + ((i * 37) % 300)).slice(0, 1024 + ((i * 1531) % 3072)));
    }
    await writeFile(marker, 'ok');
  }
  return Array.from({ length: 2000 }, (_, i) => path.join(dir, `d${i % 20}`, `f${i}.txt`));
}

/** A newline-JSON connection (socket or child stdio) with id matching. */
function lineClient(readable, writable) {
  const pending = new Map();
  let buf = '';
  readable.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const m = JSON.parse(line);
      const done = pending.get(m.id);
      if (done) {
        pending.delete(m.id);
        done(m);
      }
    }
  });
  let id = 0;
  return (method, params) =>
    new Promise((resolve) => {
      const key = ++id;
      pending.set(key, resolve);
      writable.write(`${JSON.stringify({ jsonrpc: '2.0', id: key, method, params })}\n`);
    });
}

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };

async function startShelf(folder) {
  const dir = await import('node:fs/promises').then((f) => f.mkdtemp(path.join(os.tmpdir(), 'bench-')));
  const sock = path.join(dir, 's.sock');
  const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', dir, folder], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve) => proc.stderr.on('data', (d) => String(d).includes('listening on') && resolve()));
  const s = net.connect(sock);
  await new Promise((r) => s.once('connect', r));
  const call = lineClient(s, s);
  await call('initialize', INIT);
  return {
    socketPath: sock,
    read: (file) => call('resources/read', { uri: pathToFileURL(file).href }),
    stop: async () => (s.destroy(), proc.kill('SIGTERM'), await rm(dir, { recursive: true, force: true })),
  };
}

/** The way stdio clients use us: the SDK's Client launching `mcp-shelf connect`. */
async function startShelfViaBridge(folder) {
  const shelf = await startShelf(folder);
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath] }));
  return {
    read: (file) => client.readResource({ uri: pathToFileURL(file).href }),
    stop: async () => (await client.close(), await shelf.stop()),
  };
}

async function startFsServer(folder) {
  const proc = spawn(process.execPath, [FS_SERVER, folder], { stdio: ['pipe', 'pipe', 'ignore'] });
  const call = lineClient(proc.stdout, proc.stdin);
  await call('initialize', INIT);
  proc.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return { read: (file) => call('tools/call', { name: 'read_text_file', arguments: { path: file } }), stop: async () => proc.kill('SIGTERM') };
}

async function startEcho() {
  const dir = await import('node:fs/promises').then((f) => f.mkdtemp(path.join(os.tmpdir(), 'echo-')));
  const sock = path.join(dir, 'e.sock');
  const code = `const net=require('net');net.createServer(s=>{let b='';s.on('data',d=>{b+=d;let n;while((n=b.indexOf('\\n'))>=0){const m=JSON.parse(b.slice(0,n));b=b.slice(n+1);s.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{}})+'\\n')}})}).listen(${JSON.stringify(sock)},()=>console.log('up'))`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((r) => proc.stdout.once('data', r));
  const s = net.connect(sock);
  await new Promise((r) => s.once('connect', r));
  const call = lineClient(s, s);
  return { read: (file) => call('resources/read', { uri: pathToFileURL(file).href }), stop: async () => (s.destroy(), proc.kill(), await rm(dir, { recursive: true, force: true })) };
}

function inProcess() {
  return {
    read: async (file) => {
      const text = await readFile(file, 'utf8');
      return JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: pathToFileURL(file).href, mimeType: 'text/plain', text }] } });
    },
    stop: async () => undefined,
  };
}

/** Requests a second and per-request latencies, `inFlight` at a time. */
async function drive(subject, files, inFlight) {
  const lat = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < N) {
        const file = files[(next++ * 7919) % files.length];
        const t = performance.now();
        const res = await subject.read(file);
        if (res && res.error) throw new Error(`read failed: ${JSON.stringify(res.error)}`);
        lat.push(performance.now() - t);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { rps: N / secs, p50: lat[Math.floor(lat.length * 0.5)], p99: lat[Math.floor(lat.length * 0.99)] };
}

async function smallReads(inFlight) {
  const files = await smallFiles();
  const folder = path.join(DATA, 'small');
  const subjects = {
    'mcp-shelf (socket, raw client)': () => startShelf(folder),
    'mcp-shelf (SDK client via mcp-shelf connect)': () => startShelfViaBridge(folder),
    'server-filesystem (stdio, read_text_file)': () => startFsServer(folder),
    'limit: newline-JSON echo on a Unix socket': () => startEcho(),
    ...(inFlight === 1 ? { 'limit: in-process readFile + stringify': async () => inProcess() } : {}),
  };
  const results = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
  for (let rep = 0; rep < REPS; rep++) {
    for (const [name, start] of Object.entries(subjects)) {
      const s = await start();
      await drive(s, files, inFlight); // warm-up
      results[name].push(await drive(s, files, inFlight));
      await s.stop();
    }
  }
  return results;
}

async function startup() {
  const folder = path.join(DATA, 'small');
  await smallFiles();
  const times = [];
  for (let rep = 0; rep < 5; rep++) {
    const dir = await import('node:fs/promises').then((f) => f.mkdtemp(path.join(os.tmpdir(), 'start-')));
    const sock = path.join(dir, 's.sock');
    const t = performance.now();
    const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', dir, folder], { stdio: 'ignore' });
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
    await rm(dir, { recursive: true, force: true });
  }
  return times;
}

const SCENARIOS = {
  'small-seq': async () => {
    const r = await smallReads(1);
    console.log('\n## small reads (2,000 files of 1–4 KB), sequential\n\n| subject | req/s | p50 ms | p99 ms |\n|---|---:|---:|---:|');
    for (const [name, runs] of Object.entries(r)) console.log(`| ${name} | ${fmt(runs.map((x) => x.rps))} | ${fmt(runs.map((x) => x.p50), 3)} | ${fmt(runs.map((x) => x.p99), 3)} |`);
    return r;
  },
  'small-32': async () => {
    const r = await smallReads(32);
    console.log('\n## small reads, 32 in flight\n\n| subject | req/s |\n|---|---:|');
    for (const [name, runs] of Object.entries(r)) console.log(`| ${name} | ${fmt(runs.map((x) => x.rps))} |`);
    return r;
  },
  startup: async () => {
    const t = await startup();
    console.log(`\n## mcp-shelf serve start → socket accepts (2,000 files)\n\n${fmt(t)} ms over ${t.length} starts`);
    return t;
  },
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SCENARIOS);
for (const w of wanted) if (!SCENARIOS[w]) throw new Error(`unknown scenario ${w}; known: ${Object.keys(SCENARIOS).join(', ')}`);
const out = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, results: {} };
for (const w of wanted) out.results[w] = await SCENARIOS[w]();
await mkdir(path.join(ROOT, 'results'), { recursive: true });
await writeFile(path.join(ROOT, 'results/bench-latest.json'), JSON.stringify(out, null, 2));
