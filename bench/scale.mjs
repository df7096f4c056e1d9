// The "scale" scenario of npm run bench: a folder of N files (SCALE_FILES,
// default 100,000; 100 per folder). Measures what a big folder costs: when
// the socket accepts and a read by URI works, when indexing ends, memory,
// and what one new file and one rename cost in CPU once it is watched.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { scaleFiles } from './fixtures.mjs';
import { CLI, lineConnection, memoryMiB } from './subjects.mjs';

/** User + system CPU of a process so far, in ms. */
async function cpuMs(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
}

const connect = (sock, onNotification) =>
  new Promise((resolve, reject) => {
    const s = net.connect(sock);
    s.once('connect', () => resolve({ ...lineConnection(s, s, onNotification), socket: s }));
    s.once('error', reject);
  });

export async function scale(count) {
  const dir = await scaleFiles(count);
  const work = await mkdtemp(path.join(os.tmpdir(), 'scale-'));
  const sock = path.join(work, 's.sock');
  const probe = pathToFileURL(path.join(dir, 'g0', 'f0', 'file-0.txt')).href;
  const t0 = performance.now();
  const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', work, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const out = { files: count };
  try {
    // When the socket accepts, and when a read by URI first succeeds.
    let conn;
    while (!conn) conn = await connect(sock).catch(() => new Promise((r) => setTimeout(() => r(undefined), 5)));
    out.acceptMs = performance.now() - t0;
    for (;;) {
      const r = await conn.call('resources/read', { uri: probe });
      if (r.result) break;
      await new Promise((res) => setTimeout(res, 5));
    }
    out.firstReadMs = performance.now() - t0;
    conn.socket.destroy();
    while (!stderr.includes('listening on')) await new Promise((r) => setTimeout(r, 20));
    out.indexedMs = performance.now() - t0;
    out.indexMs = Number(/indexed in (\d+) ms/.exec(stderr)?.[1]);
    out.peakMiB = await memoryMiB(proc.pid);
    // A client that hears list_changed, then one new file and one rename.
    let changed = null;
    const c = await connect(sock, (m) => m.method === 'notifications/resources/list_changed' && changed?.());
    await c.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'scale', version: '1' } });
    c.notify('notifications/initialized');
    await new Promise((r) => setTimeout(r, 1500)); // settle after indexing
    out.steadyMiB = await memoryMiB(proc.pid, 'VmRSS');
    const costOf = async (act) => {
      const heard = new Promise((resolve) => (changed = resolve));
      const before = await cpuMs(proc.pid);
      const t = performance.now();
      await act();
      await Promise.race([heard, new Promise((r) => setTimeout(r, 10_000))]);
      const ms = performance.now() - t;
      await new Promise((r) => setTimeout(r, 300)); // anything it does after telling
      return { ms, cpuMs: (await cpuMs(proc.pid)) - before };
    };
    const newFile = path.join(dir, 'g0', 'f0', 'new-file.txt');
    out.create = await costOf(() => writeFile(newFile, 'new'));
    out.rename = await costOf(() => rename(newFile, `${newFile}.renamed`));
    out.remove = await costOf(() => rm(`${newFile}.renamed`));
    out.afterChangesMiB = await memoryMiB(proc.pid, 'VmRSS');
    c.socket.destroy();
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    await rm(work, { recursive: true, force: true });
  }
  return out;
}
