// The "wayfinding" scenario of npm run bench: how a model finds its way (issue
// 39). list_directory and list_resources over a tree of 200,000 files, each
// page within the budget, walked to its end; and the first read of a 12 MP
// photo on a cold shelf (OCR on: the image must not wait for it).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { once, photoPng } from './fixtures.mjs';
import { startShelf, timedTool } from './subjects.mjs';

const percentile = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];
/** The default text budget (any client): what each page must stay within, text and structure together. */
const BUDGET = 100_000;

/** 200 directories × 10 subdirectories × 100 files: 200,000 files, 2,200 directories. */
async function tree() {
  return once('tree-200k', async (d) => {
    for (let a = 0; a < 200; a++) {
      for (let b = 0; b < 10; b++) {
        const dir = path.join(d, `project-${String(a).padStart(3, '0')}`, `module-${b}`);
        await mkdir(dir, { recursive: true });
        await Promise.all(Array.from({ length: 100 }, (_, c) => writeFile(path.join(dir, `file-${String(c).padStart(3, '0')}.txt`), `${a} ${b} ${c}\n`)));
      }
    }
  });
}

/** Every page of one listing: how many, the slowest and the largest, and what they held. */
async function walkAll(shelf, name, args, items) {
  const ms = [];
  const sizes = [];
  let count = 0;
  let cursor;
  do {
    const page = await timedTool(shelf, name, { ...args, ...(cursor ? { cursor } : {}) });
    ms.push(page.ms);
    sizes.push(page.chars);
    count += items(page.result.structuredContent).length;
    cursor = page.result.structuredContent.nextCursor;
  } while (cursor);
  return { pages: ms.length, count, totalMs: ms.reduce((a, b) => a + b, 0), p50: percentile(ms, 0.5), maxMs: Math.max(...ms), maxChars: Math.max(...sizes) };
}

async function listings() {
  const dir = await tree();
  const shelf = await startShelf(dir, { args: ['--no-search-index'] });
  try {
    // Wait until the folder is indexed (a listing while it is gives what is indexed so far).
    for (;;) {
      const top = await timedTool(shelf, 'list_directory', {});
      if (!top.result.structuredContent.folders[0].indexing) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const name = path.basename(dir);
    const top = await timedTool(shelf, 'list_directory', { path: name });
    const deep = await timedTool(shelf, 'list_directory', { path: name, depth: 3 });
    const tree3 = await walkAll(shelf, 'list_directory', { path: name, depth: 3 }, (s) => s.entries);
    const files = await walkAll(shelf, 'list_resources', {}, (s) => s.resources);
    return { top, deep, tree3, files };
  } finally {
    await shelf.stop();
  }
}

async function coldImage() {
  const png = await photoPng(4000, 3000, 7); // 12 MP
  // A fresh shelf each time: a new worker, nothing cached, the search index (and its OCR) starting beside it.
  const runs = [];
  let shown = null;
  for (let i = 0; i < 3; i++) {
    const shelf = await startShelf(path.dirname(png));
    try {
      const { ms, result } = await timedTool(shelf, 'read_resource', { uri: pathToFileURL(png).href });
      runs.push(ms);
      shown = result._meta['dev.mcpshelf/read'].image;
    } finally {
      await shelf.stop();
    }
  }
  return { runs, shown };
}

export async function wayfindingBench() {
  return { listings: await listings(), image: await coldImage(), budget: BUDGET };
}
