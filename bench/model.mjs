// The "model" scenario of npm run bench: what the tools give a model, as fast
// as a model needs it. Paging a 100 MB log 2,000 lines at a time (the first
// page builds the file's line index), a 3000×2000 PNG made fit as an image
// block, and grep over 50,000 small files while another client keeps reading.
import { execFile } from 'node:child_process';
import { appendFile, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

import { once, photoPng } from './fixtures.mjs';
import { corpus } from './search.mjs';
import { startShelf, timedTool } from './subjects.mjs';

const run = promisify(execFile);
const percentile = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];

async function bigLog() {
  const dir = await once('log-100mb', async (d) => {
    const lines = [];
    let size = 0;
    for (let i = 1; size < 100 * 1024 * 1024; i++) {
      const line = `2026-11-30T12:${String(i % 60).padStart(2, '0')}:00.${String(i % 1000).padStart(3, '0')}Z INFO worker-${i % 17} request ${i} path=/api/v1/items/${i * 7} ${i % 300} ms`;
      lines.push(line);
      size += line.length + 1;
      if (lines.length === 100_000) {
        await appendFile(path.join(d, 'app.log'), `${lines.join('\n')}\n`);
        lines.length = 0;
      }
    }
    if (lines.length) await appendFile(path.join(d, 'app.log'), `${lines.join('\n')}\n`);
  });
  return path.join(dir, 'app.log');
}

async function paging() {
  const log = await bigLog();
  const uri = pathToFileURL(log).href;
  const shelf = await startShelf(path.dirname(log));
  const { size } = await stat(log);
  try {
    const first = await timedTool(shelf, 'read_resource', { uri, offset: 1, limit: 2000 });
    const total = first.result._meta['dev.mcpshelf/read'].totalLines;
    // Sequential pages, then pages anywhere in the file.
    const next = [];
    let offset = 2001;
    for (let i = 0; i < 200; i++, offset += 2000) next.push((await timedTool(shelf, 'read_resource', { uri, offset, limit: 2000 })).ms);
    const anywhere = [];
    for (let i = 0; i < 100; i++)
      anywhere.push((await timedTool(shelf, 'read_resource', { uri, offset: 1 + ((i * 7919 * 131) % (total - 2000)), limit: 2000 })).ms);
    const tail = await timedTool(shelf, 'read_resource', { uri, offset: -2000 });
    // The log grows by 1 MB: only the new part is indexed.
    await appendFile(log, `${'2026-11-30T13:00:00.000Z INFO appended line\n'.repeat(24_000)}`);
    const grown = await timedTool(shelf, 'read_resource', { uri, offset: -2000 });
    return {
      total,
      firstMs: first.ms,
      nextP50: percentile(next, 0.5),
      nextMax: Math.max(...next),
      anywhereP50: percentile(anywhere, 0.5),
      anywhereMax: Math.max(...anywhere),
      tailMs: tail.ms,
      grownMs: grown.ms,
    };
  } finally {
    await shelf.stop();
    // The appended lines go, so the next run reads the same 100 MB.
    await truncate(log, size);
  }
}

async function image() {
  const png = await photoPng(3000, 2000, 1); // an 8 MB PNG
  const shelf = await startShelf(path.dirname(png));
  try {
    const runs = [];
    let shown = null;
    for (let i = 0; i < 8; i++) {
      const { ms, result } = await timedTool(shelf, 'read_resource', { uri: pathToFileURL(png).href });
      runs.push(ms);
      shown = result._meta['dev.mcpshelf/read'].image;
    }
    const { size } = await stat(png);
    return { firstMs: runs[0], warmP50: percentile(runs.slice(1), 0.5), warmMax: Math.max(...runs.slice(1)), fileBytes: size, shown };
  } finally {
    await shelf.stop();
  }
}

async function grep() {
  const dir = await corpus();
  const shelf = await startShelf(dir, { connections: 2, args: ['--no-search-index'] });
  const [, other] = shelf.conns;
  const small = pathToFileURL(path.join(dir, 'g0', 'f0', 'note-0.txt')).href;
  try {
    // The corpus's words are made of syllables: one that occurs in a few lines only.
    const args = { pattern: 'quakaka[a-z]*', maxResults: 500 };
    await timedTool(shelf, 'grep_resources', args); // warm: the page cache and the worker
    const runs = [];
    const reads = [];
    for (let rep = 0; rep < 3; rep++) {
      let done = false;
      const loop = (async () => {
        while (!done) {
          const t = performance.now();
          await other.call('resources/read', { uri: small });
          reads.push(performance.now() - t);
        }
      })();
      const r = await timedTool(shelf, 'grep_resources', args);
      done = true;
      await loop;
      runs.push({ ms: r.ms, files: r.result.structuredContent.scannedFiles, matches: r.result.structuredContent.matches });
    }
    const icase = await timedTool(shelf, 'grep_resources', { ...args, ignoreCase: true });
    const t = performance.now();
    await run('grep', ['-rlE', 'quakaka[a-z]*', dir], { maxBuffer: 64 * 1024 * 1024 }).catch((e) => e);
    const gnuMs = performance.now() - t;
    return { runs, readP50: percentile(reads, 0.5), readP99: percentile(reads, 0.99), reads: reads.length, icaseMs: icase.ms, gnuMs };
  } finally {
    await shelf.stop();
  }
}

export async function modelBench() {
  return { paging: await paging(), image: await image(), grep: await grep() };
}
