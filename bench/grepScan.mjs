// The "grep-scan" subject of npm run bench: the grep worker's search alone,
// in this process, with the literal prefilter (a byte search for the
// pattern's required literal, the pattern run only on lines holding it) and,
// interleaved as the reference, line by line the way it was before (every
// piece decoded, split into lines, a Matcher a line). Over one 100 MB log and
// 5,000 small files; GNU grep over the same bytes as an outside reference.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { searchBatch } from '../dist/electron/core/search/grepWorker.js';
import { once } from './fixtures.mjs';

function random(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const WORDS = ['request', 'served', 'cache', 'Connected', 'timeout', 'retry', 'user', 'Opened', 'session', 'closed', 'bytes', 'queue', 'crans', 'worker'];

async function bigLog() {
  const dir = await once('grep-log-100m', async (d) => {
    const rand = random(3);
    const chunks = [];
    let size = 0;
    for (let i = 0; size < 100 * 2 ** 20; i++) {
      const level = rand() < 0.0001 ? 'ERROR' : rand() < 0.1 ? 'WARN' : 'INFO';
      const line = `2026-12-02T10:${String(i % 60).padStart(2, '0')}:00Z ${level} ${Array.from({ length: 8 + Math.floor(rand() * 8) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ')} id=${i}\n`;
      chunks.push(line);
      size += line.length;
    }
    await writeFile(path.join(d, 'app.log'), chunks.join(''));
  });
  return path.join(dir, 'app.log');
}

async function smallFiles() {
  return once('grep-small-5k-v2', async (d) => {
    const rand = random(9);
    for (let f = 0; f < 50; f++) {
      await mkdir(path.join(d, `d${f}`), { recursive: true });
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          // One line in 2,000 holds "zebrafinch": the rare word; "crans" is in one word of 14 (dense).
          const lines = Array.from(
            { length: 20 + Math.floor(rand() * 40) },
            () => Array.from({ length: 10 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ') + (rand() < 0.0005 ? ' zebrafinch' : ''),
          );
          return writeFile(path.join(d, `d${f}`, `n${i}.txt`), `${lines.join('\n')}\n`);
        }),
      );
    }
  });
}

/** Every match of `pattern` in the files, piece after piece, as the main thread drives the worker; CPU ms and matches. */
function run(files, pattern, prefilter) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let matches = 0;
  let items = files.map((file, key) => ({ key, path: file, name: path.basename(file), firstLine: 1, before: [] }));
  while (items.length > 0) {
    const next = [];
    for (let b = 0; b < items.length; b += 128) {
      for (const r of searchBatch({ id: 0, pattern, ignoreCase: false, context: 0, maxMatches: 1_000_000, items: items.slice(b, b + 128) }, prefilter)) {
        matches += r.matches.length;
        const item = items.find((i) => i.key === r.key);
        if (r.rest) next.push({ ...item, from: r.rest.from, firstLine: r.rest.line, before: r.rest.before, encoding: r.rest.encoding });
      }
    }
    items = next;
  }
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, matches };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function grepScanBench(rounds = 3) {
  const log = await bigLog();
  const small = await smallFiles();
  const smallList = Array.from({ length: 5000 }, (_, i) => path.join(small, `d${Math.floor(i / 100)}`, `n${i % 100}.txt`));
  const cases = [
    { name: '100 MB log, literal ERROR', files: [log], pattern: 'ERROR', gnu: ['-c', 'ERROR', log] },
    { name: '100 MB log, regex ERROR \\w+ \\w+ed', files: [log], pattern: 'ERROR \\w+ \\w+ed', gnu: ['-cE', 'ERROR [[:alnum:]_]+ [[:alnum:]_]+ed', log] },
    { name: '5,000 files, rare literal zebrafinch', files: smallList, pattern: 'zebrafinch', gnu: ['-rc', 'zebrafinch', small] },
    { name: '5,000 files, dense literal crans (a line in two)', files: smallList, pattern: 'crans', gnu: ['-rc', 'crans', small] },
    {
      name: '5,000 files, regex \\b[A-Z]\\w+ed \\w+s\\b',
      files: smallList,
      pattern: '\\b[A-Z]\\w+ed \\w+s\\b',
      gnu: ['-rcE', '\\b[A-Z][[:alnum:]_]+ed [[:alnum:]_]+s\\b', small],
    },
  ];
  const out = {
    load: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
    cases: [],
  };
  for (const c of cases) {
    const fast = [];
    const slow = [];
    const gnu = [];
    let matches = { fast: 0, slow: 0 };
    for (let r = 0; r < rounds; r++) {
      for (const which of r % 2 === 0 ? ['fast', 'slow'] : ['slow', 'fast']) {
        const got = run(c.files, c.pattern, which === 'fast');
        (which === 'fast' ? fast : slow).push(got);
        matches[which] = got.matches;
      }
      const g0 = performance.now();
      try {
        execFileSync('grep', c.gnu, { stdio: 'ignore' });
      } catch {
        // grep exits 1 when nothing matched
      }
      gnu.push(performance.now() - g0);
    }
    if (matches.fast !== matches.slow) throw new Error(`${c.name}: ${matches.fast} matches with the prefilter, ${matches.slow} without`);
    out.cases.push({
      name: c.name,
      matches: matches.fast,
      fastMs: median(fast.map((x) => x.ms)),
      fastCpuMs: median(fast.map((x) => x.cpuMs)),
      slowMs: median(slow.map((x) => x.ms)),
      slowCpuMs: median(slow.map((x) => x.cpuMs)),
      gnuMs: median(gnu),
    });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await grepScanBench(), null, 1));
