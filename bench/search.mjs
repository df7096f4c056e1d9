// The "search" scenario of npm run bench: 50,000 text files of 1–4 KB (words
// drawn from a 20,000-word vocabulary with a Zipf-like spread, so queries
// range from common to rare) and a 200-page PDF. Measures the full-text index
// (build time in the background, its memory, query latency, how soon an edit
// is searchable) and document text (first extraction, then from cache), next
// to a plain scan of every file and server-filesystem's search_files.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { PDFDocument, StandardFonts } from 'pdf-lib';

import { once } from './fixtures.mjs';
import { memoryMiB, startFsServer, startShelf } from './subjects.mjs';
import { random, zipfVocabulary } from './zipfWords.mjs';

const FILES = 50_000;
const VOCABULARY = 20_000;

const { words, zipf } = zipfVocabulary(VOCABULARY);

/** The corpus's file `i` (0…99) of folder `f`: 100 files a folder, 50 folders a group. */
const noteFile = (dir, f, i) => path.join(dir, `g${Math.floor(f / 50)}`, `f${f}`, `note-${i}.txt`);

export async function corpus() {
  return once('search-50k', async (d) => {
    const rand = random(7);
    for (let f = 0; f < FILES / 100; f++) {
      await mkdir(path.dirname(noteFile(d, f, 0)), { recursive: true });
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const target = 1024 + Math.floor(rand() * 3072);
          let text = '';
          while (text.length < target) {
            const line = Array.from({ length: 8 + Math.floor(rand() * 8) }, () => zipf(rand)).join(' ');
            text += `${line}.\n`;
          }
          return writeFile(noteFile(d, f, i), text);
        }),
      );
    }
  });
}

async function bigPdf() {
  const dir = await once('pdf-200', async (d) => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const rand = random(11);
    for (let p = 0; p < 200; p++) {
      const page = doc.addPage();
      for (let l = 0; l < 45; l++) page.drawText(Array.from({ length: 12 }, () => zipf(rand)).join(' '), { x: 40, y: 780 - l * 16, font, size: 10 });
    }
    await writeFile(path.join(d, 'report.pdf'), await doc.save());
  });
  return path.join(dir, 'report.pdf');
}

/** Reads of the corpus's files per second with eight in flight, for `ms`. */
async function readsPerSecond(shelf, dir, ms) {
  let n = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: 8 }, async (_, k) => {
      for (let i = k * 997; performance.now() < end; i = (i + 13) % FILES) {
        const r = await shelf.read(noteFile(dir, Math.floor(i / 100), i % 100));
        if (r.error) throw new Error(JSON.stringify(r.error));
        n++;
      }
    }),
  );
  return n / (ms / 1000);
}

const searchTool = (shelf, query) => shelf.call('tools/call', { name: 'search_resources', arguments: { query, maxResults: 20 } });

export async function searchBench() {
  const dir = await corpus();
  const out = {};

  // Memory without the index, for the difference.
  const plain = await startShelf(dir, { args: ['--no-search-index'] });
  await new Promise((r) => setTimeout(r, 3000));
  const plainRss = await memoryMiB(plain.pid, 'VmRSS');
  await plain.stop();

  const started = performance.now();
  const shelf = await startShelf(dir);
  const accepted = performance.now() - started;
  // Reads work at once while the index builds.
  const t = performance.now();
  const early = await shelf.read(path.join(dir, 'g0/f0/note-0.txt'));
  out.readWhileIndexingMs = performance.now() - t;
  if (early.error) throw new Error(JSON.stringify(early.error));
  // Eight reads in flight for 3 s while the index builds, and again once it is built.
  out.readsDuringIndex = await readsPerSecond(shelf, dir, 3000);
  // The index must not starve behind a client that polls (this loop asks four times a second).
  for (;;) {
    const r = await searchTool(shelf, words[5]);
    if (!r.result.structuredContent.indexing) break;
    await new Promise((res) => setTimeout(res, 250));
  }
  out.indexSeconds = (performance.now() - started) / 1000;
  out.acceptMs = accepted;
  await new Promise((r) => setTimeout(r, 2000));
  out.extraRssMiB = (await memoryMiB(shelf.pid, 'VmRSS')) - plainRss;
  out.peakRssMiB = await memoryMiB(shelf.pid, 'VmHWM');
  // After the memory is taken (the reads' garbage would count in it).
  out.readsAfterIndex = await readsPerSecond(shelf, dir, 3000);

  // 300 queries: one to three words, common to rare, some phrases and prefixes.
  const rand = random(99);
  const lat = [];
  let hits = 0;
  for (let i = 0; i < 300; i++) {
    const n = 1 + Math.floor(rand() * 3);
    let q = Array.from({ length: n }, () => words[Math.floor(Math.exp(rand() * Math.log(VOCABULARY)))]).join(' ');
    if (i % 10 === 0) q = `${q.split(' ')[0].slice(0, 4)}*`;
    const t0 = performance.now();
    const r = await searchTool(shelf, q);
    lat.push(performance.now() - t0);
    hits += r.result.structuredContent.results.length > 0 ? 1 : 0;
  }
  lat.sort((a, b) => a - b);
  out.queryP50 = lat[Math.floor(lat.length * 0.5)];
  out.queryP95 = lat[Math.floor(lat.length * 0.95)];
  out.queriesWithHits = hits;

  // An edit becomes searchable: a word nobody has used, written into an existing file.
  const edits = [];
  for (let i = 0; i < 10; i++) {
    const word = `zebrafinch${i}x${Date.now() % 100000}`;
    const file = path.join(dir, `g1/f${60 + i}/note-3.txt`);
    const before = await readFile(file, 'utf8');
    const t0 = performance.now();
    await writeFile(file, `${before}${word}\n`);
    for (;;) {
      const r = await searchTool(shelf, word);
      if (r.result.structuredContent.results.length > 0) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    edits.push(performance.now() - t0);
    await writeFile(file, before);
  }
  edits.sort((a, b) => a - b);
  out.editP95 = edits[Math.floor(edits.length * 0.95)];
  out.editMax = edits[edits.length - 1];
  await shelf.stop();

  // Reference: a plain scan reading every file (what search_resources did before the index).
  const rare = words[VOCABULARY - 3];
  const scanStart = performance.now();
  let scanHits = 0;
  for (let f = 0; f < FILES / 100; f++) {
    for (let i = 0; i < 100; i++) {
      const text = await readFile(noteFile(dir, f, i), 'utf8');
      if (text.includes(rare)) scanHits++;
    }
  }
  out.scanMs = performance.now() - scanStart;
  out.scanHits = scanHits;

  // Reference: server-filesystem's search_files (it matches names, not contents: the closest it has).
  const fs = await startFsServer(dir);
  const f0 = performance.now();
  const found = await fs.search(dir, '**/note-42.txt');
  out.fsSearchMs = performance.now() - f0;
  if (found.error) throw new Error(JSON.stringify(found.error));
  await fs.stop();

  // A 200-page PDF: its text the first time, then from cache.
  const pdf = await bigPdf();
  const docShelf = await startShelf(path.dirname(pdf), { args: ['--no-search-index'] });
  const textUri = `${pathToFileURL(pdf).href}?as=text`;
  const p0 = performance.now();
  const first = await docShelf.call('resources/read', { uri: textUri });
  out.pdfFirstMs = performance.now() - p0;
  if (first.error) throw new Error(JSON.stringify(first.error));
  out.pdfChars = first.result.contents[0].text.length;
  const p1 = performance.now();
  await docShelf.call('resources/read', { uri: textUri });
  out.pdfCachedMs = performance.now() - p1;
  await docShelf.stop();
  return out;
}
