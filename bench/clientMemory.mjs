// node bench/clientMemory.mjs   (after npm run build; BENCH_CLI=path/to/cli.js measures another build)
// The fourth review's memory attacks on a real `mcp-shelf serve`, as it made
// them: 64 socket connections each sending 16 reads of 1 MiB files and never
// reading, and 160 concurrent HTTP reads of a 7 MiB file left unread. Reports
// the server's RSS growth and peak; the memory budget (256 MiB by default)
// should hold both within a few hundred MiB. Loopback only.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = process.env.BENCH_CLI ?? path.join(ROOT, 'dist/electron/cli.js');
const field = async (pid, name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function serve(folder, args) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-'));
  const sock = path.join(dir, 's.sock');
  const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', dir, '--no-search-index', ...args, folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  await new Promise((resolve, reject) => {
    proc.stderr.on('data', () => err.includes('listening on') && resolve());
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${err}`)));
  });
  return { proc, sock, err: () => err, stop: async () => (proc.kill(), await rm(dir, { recursive: true, force: true })) };
}

const folder = await mkdtemp(path.join(os.tmpdir(), 'cm-data-'));
for (let i = 0; i < 16; i++) await writeFile(path.join(folder, `mb${i}.txt`), `${i % 10}`.repeat(1_000_000));
await writeFile(path.join(folder, 'seven.bin'), Buffer.alloc(7 * 1024 * 1024 - 4096, 7));
const uri = (f) => pathToFileURL(path.join(folder, f)).href;
const rows = [];

{
  const s = await serve(folder, []);
  const before = await field(s.proc.pid, 'VmRSS');
  const socks = [];
  for (let c = 0; c < 64; c++) {
    const sock = net.connect(s.sock);
    sock.on('error', () => undefined);
    await new Promise((r) => sock.once('connect', r));
    sock.pause();
    const lines = [
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `deaf${c}`, version: '1' } },
      },
    ];
    for (let i = 0; i < 16; i++) lines.push({ jsonrpc: '2.0', id: i + 1, method: 'resources/read', params: { uri: uri(`mb${i}.txt`) } });
    sock.write(lines.map((m) => `${JSON.stringify(m)}\n`).join(''));
    socks.push(sock);
  }
  await sleep(8000);
  rows.push({
    case: '64 connections × 16 reads of 1 MiB, never read',
    growthMiB: Math.round((await field(s.proc.pid, 'VmRSS')) - before),
    peakMiB: Math.round(await field(s.proc.pid, 'VmHWM')),
  });
  for (const x of socks) x.destroy();
  await s.stop();
}
{
  const s = await serve(folder, ['--http', '0', '--http-no-auth']);
  const url = new URL(/MCP over HTTP: (\S+)/.exec(s.err())[1]);
  const before = await field(s.proc.pid, 'VmRSS');
  const reqs = [];
  for (let i = 0; i < 160; i++) {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'resources/read',
        'mcp-name': uri('seven.bin'),
      },
    });
    req.on('response', (res) => res.pause());
    req.on('error', () => undefined);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'resources/read',
        params: { uri: uri('seven.bin'), _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    );
    reqs.push(req);
  }
  await sleep(15_000);
  rows.push({
    case: '160 HTTP reads of a 7 MiB file, never read',
    growthMiB: Math.round((await field(s.proc.pid, 'VmRSS')) - before),
    peakMiB: Math.round(await field(s.proc.pid, 'VmHWM')),
  });
  for (const r of reqs) r.destroy();
  await s.stop();
}
await rm(folder, { recursive: true, force: true });
console.log(`| case (${CLI === path.join(ROOT, 'dist/electron/cli.js') ? 'this build' : CLI}) | RSS growth MiB | peak RSS MiB |\n|---|---:|---:|`);
for (const r of rows) console.log(`| ${r.case} | ${r.growthMiB} | ${r.peakMiB} |`);
await mkdir(path.join(ROOT, 'results'), { recursive: true });
await writeFile(path.join(ROOT, 'results', 'client-memory-latest.json'), JSON.stringify({ date: new Date().toISOString(), cli: CLI, rows }, null, 2));
