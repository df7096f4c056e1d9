// The "scale" scenario of npm run bench: a folder of N files (SCALE_FILES,
// default 100,000; 100 per folder). Measures what a big folder costs: when
// the socket accepts and a read by URI works, when indexing ends (the
// files, then the full-text index), memory,
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
  // SCALE_ARGS: more serve options (e.g. --no-search-index, to measure the files alone).
  const extra = (process.env.SCALE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', work, ...extra, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
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
    // The full-text index builds in the background: wait for it, so what follows measures the files alone.
    for (;;) {
      const r = await c.call('tools/call', { name: 'search_resources', arguments: { query: 'nothing-matches-this' } });
      if (r.result?.structuredContent?.indexing === false || r.error || r.result?.isError) break; // done, or no index (--no-search-index)
      if (performance.now() - t0 > 15 * 60_000) throw new Error('the search index did not complete in 15 minutes');
      await new Promise((res) => setTimeout(res, 2000)); // seldom: indexing yields while clients send requests
    }
    out.searchIndexedMs = performance.now() - t0;
    // Files are listed before they are stat'ed; a big folder says when its sizes are all read (a small one's take under a second).
    if (count >= 200_000) {
      for (const until = performance.now() + 120_000; !/sizes of [\d,]+ files read/.test(stderr) && performance.now() < until;)
        await new Promise((res) => setTimeout(res, 100));
    }
    out.sizesReadMs = /sizes of [\d,]+ files read in ([\d.]+) s/.test(stderr) ? out.indexedMs + Number(RegExp.$1) * 1000 : null;
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

/**
 * Churn on a big folder: 1,000 file creates and deletes a second (half
 * each) for `seconds`, while a reader keeps 8 reads in flight. Reports the
 * read rate against the same reader before the churn, how long a created
 * file takes to become readable (so listed: the index answers reads), and
 * the gaps between list_changed notifications.
 */
export async function churn(count, seconds = 5) {
  const dir = await scaleFiles(count);
  const work = await mkdtemp(path.join(os.tmpdir(), 'churn-'));
  const sock = path.join(work, 's.sock');
  const churnDir = path.join(dir, 'g0', 'f1');
  const proc = spawn(process.execPath, [CLI, 'serve', '--socket', sock, '--config-dir', work, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  try {
    while (!stderr.includes('listening on')) await new Promise((r) => setTimeout(r, 20));
    const listChanged = [];
    const listener = await connect(sock, (m) => m.method === 'notifications/resources/list_changed' && listChanged.push(performance.now()));
    await listener.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'churn', version: '1' } });
    listener.notify('notifications/initialized');
    const reader = await connect(sock);
    const uris = Array.from(
      { length: 1000 },
      (_, i) =>
        pathToFileURL(
          path.join(
            dir,
            `g${Math.floor((i * 7) / 100) % Math.max(1, Math.floor(count / 10000))}`,
            `f${(i * 7) % Math.max(1, Math.floor(count / 100))}`,
            `file-${i % 100}.txt`,
          ),
        ).href,
    );
    const readFor = async (ms) => {
      let n = 0;
      const until = performance.now() + ms;
      await Promise.all(
        Array.from({ length: 8 }, async (_, k) => {
          for (let i = k; performance.now() < until; i += 8) {
            await reader.call('resources/read', { uri: uris[i % uris.length] });
            n++;
          }
        }),
      );
      return (n * 1000) / ms;
    };
    const quiet = await readFor(3000);
    let stop = false;
    const visible = [];
    const churner = (async () => {
      let i = 0;
      const started = performance.now();
      while (!stop) {
        // 1,000 operations a second: a create, and (250 creates later) its delete.
        const due = started + (i * 1000) / 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const f = path.join(churnDir, `churn-${i}.txt`);
        if (i % 2 === 0) {
          await writeFile(f, String(i));
          if (i % 100 === 0) {
            // Some created files are timed until a read by URI finds them in the index.
            const t = performance.now();
            const uri = pathToFileURL(f).href;
            void (async () => {
              for (let tries = 0; tries < 500; tries++) {
                if ((await reader.call('resources/read', { uri })).result) return void visible.push(performance.now() - t);
                await new Promise((r) => setTimeout(r, 5));
              }
            })();
          }
        } else await rm(path.join(churnDir, `churn-${i - 499}.txt`), { force: true });
        i++;
      }
    })();
    const churnStart = performance.now();
    const during = await readFor(seconds * 1000);
    stop = true;
    await churner;
    const churnEnd = performance.now();
    await new Promise((r) => setTimeout(r, 1000));
    const inChurn = listChanged.filter((t) => t >= churnStart + 500 && t <= churnEnd);
    const gaps = inChurn.slice(1).map((t, k) => t - inChurn[k]);
    visible.sort((a, b) => a - b);
    reader.socket.destroy();
    listener.socket.destroy();
    return {
      quiet,
      during,
      ratio: during / quiet,
      visibleP95: visible[Math.min(visible.length - 1, Math.floor(visible.length * 0.95))] ?? NaN,
      visibleN: visible.length,
      maxGap: gaps.length ? Math.max(...gaps) : NaN,
      minGap: gaps.length ? Math.min(...gaps) : NaN,
      finalAfterStop: listChanged.some((t) => t > churnEnd),
    };
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    await rm(work, { recursive: true, force: true });
    for (const f of await (await import('node:fs/promises')).readdir(churnDir)) if (f.startsWith('churn-')) await rm(path.join(churnDir, f), { force: true });
  }
}
