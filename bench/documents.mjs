// The "documents" scenario of npm run bench: PDF text and OCR through the
// shelf, cold (a fresh server and settings folder each time: no text cache),
// next to poppler's pdftotext on the same file (the reference users compare
// with; installed here for the bench only, never needed by the product).
// - a 300-page text PDF (50 lines a page): `?as=text` ÷ pdftotext, alternating;
// - a 1-page scan at 110 dpi (a text PDF rendered to pixels, put back as an
//   image), and the same page as a PNG: `?as=text` by OCR;
// - other clients' small reads (1 in flight) while OCR runs, against the same
//   reads with nothing else going on: p50 / p99.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

import { PdfiumDocument } from '../dist/electron/core/documents/pdfium.js';
import { once, smallFiles } from './fixtures.mjs';
import { startShelf } from './subjects.mjs';

const REPS = 5;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

const WORDS = 'the shelf publishes folders read only to clients over a local socket and streamable http with page markers for every document'.split(' ');

/** pdftotext, installed from Debian when missing (root only); null when it cannot be had. */
function pdftotext() {
  const which = spawnSync('sh', ['-c', 'command -v pdftotext'], { encoding: 'utf8' });
  if (which.status === 0) return which.stdout.trim();
  if (process.getuid?.() !== 0) return null;
  spawnSync('apt-get', ['install', '-y', '-qq', 'poppler-utils'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const again = spawnSync('sh', ['-c', 'command -v pdftotext'], { encoding: 'utf8' });
  return again.status === 0 ? again.stdout.trim() : null;
}

async function textPdf(pages, lines = 50) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let w = 0;
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage();
    for (let l = 0; l < lines; l++) {
      const line = Array.from({ length: 12 }, () => WORDS[w++ % WORDS.length]).join(' ');
      page.drawText(`${p + 1}.${l + 1} ${line}`, { x: 40, y: 760 - l * 14, font, size: 10 });
    }
  }
  return doc.save();
}

/** A page of text (30 lines) rendered to grey pixels at `dpi` by PDFium: what a scanner gives. */
async function scannedPage(dpi) {
  const doc = await PdfiumDocument.open(await textPdf(1, 30));
  try {
    return doc.renderGrey(0, dpi);
  } finally {
    doc.close();
  }
}

async function fixtures() {
  const dir = await once('documents-2', async (d) => {
    await writeFile(path.join(d, 'book.pdf'), await textPdf(300));
    const grey = await scannedPage(110);
    const png = await sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } })
      .withMetadata({ density: 110 })
      .png()
      .toBuffer();
    await writeFile(path.join(d, 'scan.png'), png);
    const out = await PDFDocument.create();
    const page = out.addPage();
    page.drawImage(await out.embedPng(png), { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
    await writeFile(path.join(d, 'scan.pdf'), await out.save());
    // Images for the reads-while-OCR-runs part: each a different file, so each is OCR'd.
    for (let i = 0; i < 6; i++)
      await writeFile(
        path.join(d, `busy-${i}.png`),
        await sharp(png)
          .rotate(i % 2 ? 0.5 : -0.5, { background: '#fff' })
          .png()
          .toBuffer(),
      );
  });
  return dir;
}

/** Processor time a process has used, all its threads (Linux; null elsewhere), in ms. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * A cold `?as=text` read of `file` in a fresh shelf (no index: the read
 * itself does the work): its time by the clock, the processor time the
 * server spent on it (the work, whatever else the machine runs: OCR is one
 * thread, so on an idle machine the clock reads about the same), and its length.
 */
async function coldText(dir, file) {
  const shelf = await startShelf(dir, { args: ['--no-search-index'] });
  try {
    const c = cpuMs(shelf.pid);
    const t = performance.now();
    const r = await shelf.call('resources/read', { uri: `${pathToFileURL(file).href}?as=text` });
    const ms = performance.now() - t;
    const cpu = c === null ? null : cpuMs(shelf.pid) - c;
    if (r.error) throw new Error(`?as=text of ${file}: ${JSON.stringify(r.error)}`);
    // A large reply comes back as its length only (lineConnection): the text's bytes, with the JSON around it.
    if (r.big) return { ms, cpu, chars: r.big, text: '' };
    return { ms, cpu, chars: r.result.contents[0].text.length, text: r.result.contents[0].text };
  } finally {
    await shelf.stop();
  }
}

/** Small reads, one in flight, for `ms`: latencies sorted. */
async function readsFor(shelf, files, ms) {
  const lat = [];
  const end = performance.now() + ms;
  for (let i = 0; performance.now() < end; i++) {
    const t = performance.now();
    const r = await shelf.call('resources/read', { uri: pathToFileURL(files[(i * 7919) % files.length]).href });
    if (r.error) throw new Error(JSON.stringify(r.error));
    lat.push(performance.now() - t);
  }
  return lat.sort((a, b) => a - b);
}

export async function documentsBench() {
  const dir = await fixtures();
  const book = path.join(dir, 'book.pdf');
  const out = {
    pdf: { shelf: [], shelfCpu: [], pdftotext: [], pdftotextCpu: [], bytes: 0, pages: 300 },
    ocr: { pdf: [], pdfCpu: [], png: [], pngCpu: [], words: 0 },
    reads: null,
  };
  const poppler = pdftotext();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-pdftotext-'));
  try {
    for (let rep = 0; rep < REPS; rep++) {
      const r = await coldText(dir, book);
      out.pdf.shelf.push(r.ms);
      if (r.cpu !== null) out.pdf.shelfCpu.push(r.cpu);
      out.pdf.bytes = r.chars;
      if (poppler) {
        // bash's `time` gives its processor time as well (user and system, in seconds).
        const t = performance.now();
        const res = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time "$0" "$1" "$2"', poppler, book, path.join(tmp, 'book.txt')], { encoding: 'utf8' });
        out.pdf.pdftotext.push(performance.now() - t);
        const [user, system] = res.stderr.trim().split(/\s+/).slice(-2).map(Number);
        if (Number.isFinite(user) && Number.isFinite(system)) out.pdf.pdftotextCpu.push((user + system) * 1000);
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  for (let rep = 0; rep < 3; rep++) {
    const pdf = await coldText(dir, path.join(dir, 'scan.pdf'));
    out.ocr.pdf.push(pdf.ms);
    if (pdf.cpu !== null) out.ocr.pdfCpu.push(pdf.cpu);
    const png = await coldText(dir, path.join(dir, 'scan.png'));
    out.ocr.png.push(png.ms);
    if (png.cpu !== null) out.ocr.pngCpu.push(png.cpu);
    // How many of the page's words OCR got right (the page repeats WORDS in order).
    const found = new Set(pdf.text.toLowerCase().match(/[a-z]+/g) ?? []);
    out.ocr.words = WORDS.filter((w) => found.has(w)).length / WORDS.length;
  }

  // Other clients' small reads: quiet, then while another client has six images OCR'd one after another.
  const { dir: smallDir, files } = await smallFiles();
  const both = await mkdtemp(path.join(os.tmpdir(), 'bench-ocr-reads-'));
  try {
    await cp(smallDir, path.join(both, 'small'), { recursive: true });
    await cp(dir, path.join(both, 'docs'), { recursive: true });
    const shelf = await startShelf(both, { args: ['--no-search-index'], connections: 2 });
    try {
      const small = files.map((f) => path.join(both, 'small', path.relative(smallDir, f)));
      await readsFor(shelf, small, 1000); // warm-up
      const quiet = await readsFor(shelf, small, 5000);
      const ocrConn = shelf.conns[1];
      let ocrRunning = true;
      let ocrDone = 0;
      const ocr = (async () => {
        for (let i = 0; i < 6; i++) {
          const r = await ocrConn.call('resources/read', { uri: `${pathToFileURL(path.join(both, 'docs', `busy-${i}.png`)).href}?as=text` });
          if (!r.error) ocrDone++;
        }
        ocrRunning = false;
      })();
      const during = [];
      while (ocrRunning) during.push(...(await readsFor(shelf, small, 500)));
      await ocr;
      during.sort((a, b) => a - b);
      out.reads = {
        quietP50: percentile(quiet, 0.5),
        quietP99: percentile(quiet, 0.99),
        duringP50: percentile(during, 0.5),
        duringP99: percentile(during, 0.99),
        during: during.length,
        ocrDone,
      };
    } finally {
      await shelf.stop();
    }
  } finally {
    await rm(both, { recursive: true, force: true });
  }
  out.pdf.ratio = out.pdf.pdftotext.length ? median(out.pdf.shelf) / median(out.pdf.pdftotext) : null;
  out.pdf.cpuRatio = out.pdf.pdftotextCpu.length && out.pdf.shelfCpu.length ? median(out.pdf.shelfCpu) / median(out.pdf.pdftotextCpu) : null;
  return out;
}
