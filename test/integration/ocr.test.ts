import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { flateBombPdf } from '../../bench/hostileDocuments.mjs';
import { EXTRACT_WORKER } from '../../electron/cli/headless.js';
import { DocumentText } from '../../electron/core/documents/documentText.js';
import { ErrorCodes } from '../../shared/errorCodes.js';
import { imageWithText, pdfWithText, pngDeclaring, scannedPdf } from '../support/documents.js';
import { eventually, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { startService } from '../support/service.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * OCR: images and scanned PDF pages read by Tesseract in the OCR worker,
 * served as their `?as=text` companion, searchable, and given to a model
 * beside the image; pixel bombs and pages of absurd size refused within
 * bounds. Every picture is made here (sharp renders SVG text; a text PDF is
 * rendered to pixels by PDFium for the scans).
 */

const run = promisify(execFile);
const ENG = { languages: ['eng'], dataDirs: [] };
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: number; data?: { reason?: string } }) => `${e.code}:${e.data?.reason}`,
  );
/** OCR may misread a letter here and there: the words are compared in lower case, and most must be there. */
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

describe('OCR in the worker', () => {
  const docs = new DocumentText({ workerFile: EXTRACT_WORKER, ocr: ENG });
  afterAll(() => docs.close());
  const read = (kind: 'pdf' | 'image', bytes: Uint8Array, d = docs) => d.text(`file:///x?as=text`, `${kind}-${Math.random()}`, kind, async () => bytes.slice()); // a copy each time: the bytes move to a worker

  it('reads the words of a PNG, a JPEG, a WebP and a TIFF, saying they came from OCR', async () => {
    for (const format of ['png', 'jpeg', 'webp', 'tiff'] as const) {
      const got = await read('image', await imageWithText(['Invoice 4711 for harbour crane', 'maintenance due Friday'], format));
      expect(got.parts, format).toBe(1);
      expect(got.text, format).toMatch(/^--- Page 1 ---\n\[text recognised by OCR from the page image\]\n/);
      const found = words(got.text);
      for (const w of ['invoice', '4711', 'harbour', 'crane', 'maintenance', 'friday']) expect(found.has(w), `${format}: ${w} in ${got.text}`).toBe(true);
    }
  });

  it('a scanned PDF (a text PDF rendered to pixels at 110 dpi) gives its words with page markers; text pages keep their text layer', async () => {
    const scan = await read(
      'pdf',
      await scannedPdf(['The otters of the northern river', 'Beavers build dams in winter', 'Kept as text about herons'], 110, [2]),
    );
    expect(scan.parts).toBe(3);
    const [, p1, p2, p3] = scan.text.split(/^--- Page \d ---$/m);
    expect(p1).toContain('[text recognised by OCR');
    for (const w of ['otters', 'northern', 'river']) expect(words(p1 ?? '').has(w), `${w} in ${p1}`).toBe(true);
    for (const w of ['beavers', 'dams', 'winter']) expect(words(p2 ?? '').has(w), `${w} in ${p2}`).toBe(true);
    // The page with a text layer is its text, not OCR's reading of it.
    expect(p3).toBe('\nKept as text about herons\n');
  });

  it('reads with the network taken away: the engines and the language data come from disk, nothing is fetched', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ocr-offline-'));
    try {
      await writeFile(path.join(dir, 'note.png'), await imageWithText(['Offline reading of a manatee']));
      await writeFile(path.join(dir, 'scan.pdf'), await scannedPdf(['A scanned page about a narwhal']));
      // Every way out of the process fails loudly (and is counted): fetch, sockets, DNS, http(s).
      const blocker = `
        import net from 'node:net'; import dns from 'node:dns'; import http from 'node:http'; import https from 'node:https';
        const no = (what) => () => { globalThis.__tries = (globalThis.__tries ?? 0) + 1; throw new Error('network used: ' + what); };
        globalThis.fetch = no('fetch'); net.Socket.prototype.connect = no('socket'); dns.lookup = no('dns');
        http.request = no('http'); https.request = no('https'); http.get = no('http'); https.get = no('https');`;
      const script = `
        import { readFileSync } from 'node:fs';
        const { extractText } = await import(${JSON.stringify(path.resolve('dist/electron/core/documents/extractText.js'))});
        const ocr = { languages: ['eng'], dataDirs: [] };
        const image = await extractText('image', readFileSync(${JSON.stringify(path.join(dir, 'note.png'))}), { ocr, stage: 'ocr' });
        const bytes = readFileSync(${JSON.stringify(path.join(dir, 'scan.pdf'))});
        const first = await extractText('pdf', bytes, { ocr, stage: 'text' });
        const scan = await extractText('pdf', bytes, { ocr, stage: 'ocr', pageTexts: first.pageTexts });
        console.log(JSON.stringify({ image: image.text, scan: scan.text, tries: globalThis.__tries ?? 0 }));`;
      const { stdout } = await run(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(blocker)}`, '--input-type=module', '-e', script], {
        timeout: 120_000,
      });
      const got = JSON.parse(stdout) as { image: string; scan: string; tries: number };
      expect(got.tries).toBe(0);
      expect(words(got.image).has('manatee')).toBe(true);
      expect(words(got.scan).has('narwhal')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('with OCR off, an image has no text and a scan says it would need OCR', async () => {
    const off = new DocumentText({ workerFile: EXTRACT_WORKER });
    try {
      expect(await failure(read('image', await imageWithText(['hello there']), off))).toBe(`${ErrorCodes.documentTextUnavailable}:unsupported`);
      expect(await failure(read('pdf', await scannedPdf(['Nothing to see']), off))).toBe(`${ErrorCodes.documentTextUnavailable}:no-text`);
    } finally {
      await off.close();
    }
  });

  it('hostile pictures are refused within bounds, and the next image is read', async () => {
    // A PNG declaring 100,000 × 100,000 pixels: refused from its header, before anything is decoded.
    let t = performance.now();
    expect(await failure(read('image', pngDeclaring(100_000, 100_000)))).toBe(`${ErrorCodes.documentTextUnavailable}:too-large`);
    expect(performance.now() - t).toBeLessThan(60_000); // a hang bound: decoding 10 gigapixels would take minutes
    // Not an image at all.
    expect(await failure(read('image', Buffer.from('GIF89a but not really')))).toBe(`${ErrorCodes.documentTextUnavailable}:corrupt`);
    // Texture, not text: 3000 × 2000 pixels of noise (Tesseract alone spent minutes on it) says there is no text, promptly.
    const { randomBytes } = await import('node:crypto');
    const noise = await sharp(randomBytes(3000 * 2000 * 3), { raw: { width: 3000, height: 2000, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    t = performance.now();
    expect(await failure(read('image', noise))).toBe(`${ErrorCodes.documentTextUnavailable}:no-text`);
    expect(performance.now() - t).toBeLessThan(120_000); // a hang bound: Tesseract alone spent minutes
    // A page declaring the largest size a PDF allows (200 × 200 inches) and no text: rendered within the pixel bound, nothing found.
    const { PDFDocument } = await import('pdf-lib');
    const huge = await PDFDocument.create();
    huge.addPage([14_400, 14_400]);
    t = performance.now();
    expect(await failure(read('pdf', await huge.save()))).toBe(`${ErrorCodes.documentTextUnavailable}:no-text`);
    // A Flate bomb in a PDF is stopped by the memory watchdog with OCR on too.
    const watched = new DocumentText({ workerFile: EXTRACT_WORKER, ocr: ENG, processMemoryMb: 64, timeoutMs: 120_000 });
    try {
      expect(await failure(read('pdf', flateBombPdf(), watched))).toBe(`${ErrorCodes.documentTextUnavailable}:too-large`);
    } finally {
      await watched.close();
    }
    const after = await read('image', await imageWithText(['Still reading after the bombs']));
    expect(words(after.text).has('bombs')).toBe(true);
  }, 240_000);

  it('memory is the process\'s: a job stopped while the other worker is at work is "busy" (tried again, not remembered); the bomb alone is "too-large"', async () => {
    const both = new DocumentText({ workerFile: EXTRACT_WORKER, ocr: ENG, processMemoryMb: 768, timeoutMs: 120_000 });
    const reason = (p: Promise<unknown>) =>
      p.then(
        () => 'text',
        (e: { data?: { reason?: string } }) => e.data?.reason,
      );
    try {
      // A page dense with words keeps the OCR worker busy for seconds while the bomb grows the process.
      const page = await imageWithText(
        Array.from({ length: 60 }, (_, i) => `Line ${i} of a long letter about the harbour crane maintenance`),
        'png',
        { width: 2400, height: 3200 },
      );
      // The premise is that the two overlap. One page can be read before the bomb has grown past the budget
      // on a busy machine (the bomb is then rightly too-large alone), so pages are read one after another
      // for as long as the bomb runs: whenever it is stopped, the OCR worker is at work.
      let bombDone = false;
      const pages: Array<string | undefined> = [];
      const keepOcrBusy = (async () => {
        for (let n = 0; !bombDone && n < 20; n++)
          pages.push(await reason(both.text('file:///x?as=text', `dense-page-${n}`, 'image', async () => page.slice())));
      })();
      await eventually(() => both.ocrRunning, 10_000);
      const bomb = await reason(read('pdf', flateBombPdf(), both));
      bombDone = true;
      await keepOcrBusy;
      // Whichever watchdog saw the total first stopped its job as busy; the bomb never gives text.
      expect(['busy', 'too-large']).toContain(bomb);
      for (const p of pages) expect(['text', 'busy']).toContain(p);
      expect(bomb === 'busy' || pages.includes('busy'), `bomb ${bomb}, pages ${pages.join(', ')}`).toBe(true);
      const busyPage = pages.indexOf('busy');
      const key = `dense-page-${busyPage >= 0 ? busyPage : 0}`;
      // Alone, the bomb is what it is; and the page stopped as busy was not remembered: it is read now.
      expect(await reason(read('pdf', flateBombPdf(), both))).toBe('too-large');
      const again = await both.text('file:///x?as=text', key, 'image', async () => page.slice());
      expect(words(again.text).has('harbour')).toBe(true);
    } finally {
      await both.close();
    }
  }, 600_000);

  it('an OCR that takes too long is stopped by its time limit, and a text PDF is not held up behind it', async () => {
    const slow = new DocumentText({ workerFile: EXTRACT_WORKER, ocr: ENG, ocrTimeoutMs: 100 });
    try {
      const ocr = failure(read('image', await imageWithText(Array.from({ length: 7 }, (_, i) => `Line ${i} of a long page of words`)), slow));
      // The text worker answers while the OCR worker works.
      const text = await read('pdf', await pdfWithText(['Plain text, no waiting']), slow);
      expect(text.text).toContain('Plain text, no waiting');
      expect(await ocr).toBe(`${ErrorCodes.documentTextUnavailable}:timeout`);
    } finally {
      await slow.close();
    }
  });
});

describe('OCR through the shelf', () => {
  let root: string;
  let configDir: string;
  let shelf: ShelfProcess;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'ocr-'));
    await mkdir(path.join(root, 'scans'));
    await writeFile(path.join(root, 'receipt.png'), await imageWithText(['Receipt from the Lighthouse Cafe', 'Two pelican pies 12.50']));
    await writeFile(path.join(root, 'scans/letter.pdf'), await scannedPdf(['Dear committee about the flamingo budget', 'Second page on walrus migration']));
    await writeFile(path.join(root, 'notes.txt'), 'plain notes about seals\n');
    configDir = await mkdtemp(path.join(os.tmpdir(), 'ocr-config-'));
    shelf = await startShelf([root], [], { socketPath: path.join(configDir, 's.sock') });
  }, 60_000);
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
    await rm(configDir, { recursive: true, force: true });
  });

  it("reads an image's text (not listed) and a scan's (listed), and finds both by search and grep", async () => {
    const c = await connectSdkClient(shelf.socketPath);
    try {
      const listed = await c.listResources();
      const names = listed.resources.map((r) => r.name);
      // A scan is a PDF: its text is listed after it. An image's is not (a folder of photos would list twice as much).
      expect(names).toContain('scans/letter.pdf (text)');
      expect(names).toContain('receipt.png');
      expect(names).not.toContain('receipt.png (text)');
      const image = await c.readResource({ uri: `${uriOf(root, 'receipt.png')}?as=text` });
      expect(words((image.contents[0] as { text: string }).text).has('pelican')).toBe(true);
      const letter = (await c.readResource({ uri: `${uriOf(root, 'scans/letter.pdf')}?as=text` })).contents[0] as { text: string };
      expect(letter.text).toMatch(/--- Page 2 ---\n\[text recognised by OCR/);
      expect(words(letter.text).has('walrus')).toBe(true);
      // Ranked search finds words only OCR saw, in the image and in the scan.
      await eventually(async () => {
        const r = (await c.callTool({ name: 'search_resources', arguments: { query: 'pelican' } })).structuredContent as { results: Array<{ uri: string }> };
        expect(r.results[0]?.uri).toBe(`${uriOf(root, 'receipt.png')}?as=text`);
        return true;
      }, 60_000);
      await eventually(async () => {
        const r = (await c.callTool({ name: 'search_resources', arguments: { query: 'flamingo' } })).structuredContent as { results: Array<{ uri: string }> };
        expect(r.results[0]?.uri).toBe(`${uriOf(root, 'scans/letter.pdf')}?as=text`);
        return true;
      }, 60_000);
      const grep = await c.callTool({ name: 'grep_resources', arguments: { pattern: 'walrus' } });
      expect(JSON.stringify(grep.structuredContent)).toContain('letter.pdf');
      // An image's text once OCR has read it (here the index did).
      const grepImage = await c.callTool({ name: 'grep_resources', arguments: { pattern: 'pelican' } });
      expect(JSON.stringify(grepImage.structuredContent)).toContain('receipt.png');
    } finally {
      await c.close();
    }
  }, 120_000);

  it('read_resource gives a model the image and, after it, the text OCR found, saying it is OCR', async () => {
    const c = await connectSdkClient(shelf.socketPath);
    try {
      const r = await c.callTool({ name: 'read_resource', arguments: { uri: uriOf(root, 'receipt.png') } });
      const content = r.content as Array<{ type: string; text?: string }>;
      expect(content[0]?.type).toBe('image');
      const ocr = content.find((b) => b.type === 'text' && b.text?.includes('OCR'));
      expect(ocr?.text).toMatch(/^Text in the image, recognised by OCR/);
      expect(words(ocr?.text ?? '').has('pelican')).toBe(true);
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('OCR settings', () => {
  it('turning OCR off takes images’ text away (read, status) and on brings it back; languages are checked, and one not installed says how to add it', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'ocr-set-'));
    await writeFile(path.join(root, 'sign.webp'), await imageWithText(['Beware of the iguana']));
    const svc = await startService({ extractWorker: EXTRACT_WORKER, sessionFolders: [root] });
    const { service } = svc;
    const textUri = `${uriOf(root, 'sign.webp')}?as=text`;
    // What a client lists (the window lists files only).
    const listedText = async () => {
      const c = await RawClient.initialized(path.join(svc.dir, 's.sock'));
      try {
        const r = (await c.request('resources/list', {})).result as { resources: Array<{ uri: string }> };
        return r.resources.some((x) => x.uri === textUri);
      } finally {
        c.close();
      }
    };
    try {
      expect((await service.getSettings()).ocr).toEqual({ enabled: true, languages: ['eng'] });
      expect((await service.getStatus()).ocr).toBe(true);
      const on = await service.readResource(textUri);
      expect(on.ok && words(JSON.stringify(on.result)).has('iguana')).toBe(true);
      await service.updateSettings({ ocr: { enabled: false } });
      expect((await service.getStatus()).ocr).toBe(false);
      const off = await service.readResource(textUri);
      expect(off.ok ? 'ok' : off.error.code).toBe(ErrorCodes.resourceNotFound);
      await service.updateSettings({ ocr: { enabled: true } });
      const again = await service.readResource(textUri);
      expect(again.ok && words(JSON.stringify(again.result)).has('iguana')).toBe(true);
      // An image's text is never listed (on or off).
      expect(await listedText()).toBe(false);
      // A language code is part of a file name: anything else is refused, and nothing changes.
      await expect(service.updateSettings({ ocr: { languages: ['../../etc/passwd'] } })).rejects.toThrow(/Invalid setting ocr\.languages/);
      await expect(service.updateSettings({ ocr: { languages: [] } })).rejects.toThrow(/Invalid setting ocr\.languages/);
      // A language whose data is nowhere: the read says so, with where to put it.
      await service.updateSettings({ ocr: { languages: ['eng', 'xyz'] } });
      const missing = await service.readResource(textUri);
      expect(missing.ok ? 'ok' : missing.error).toMatchObject({
        code: ErrorCodes.documentTextUnavailable,
        data: { reason: 'unsupported' },
        message: expect.stringContaining('xyz is not installed'),
      });
      // Data in the settings folder's ocr-languages/ is used (here English again, under another name).
      await mkdir(path.join(svc.dir, 'ocr-languages'));
      await writeFile(
        path.join(svc.dir, 'ocr-languages', 'xyz.traineddata.gz'),
        await readFile(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz')),
      );
      await service.updateSettings({ ocr: { languages: ['xyz'] } });
      const other = await service.readResource(textUri);
      expect(other.ok && words(JSON.stringify(other.result)).has('iguana')).toBe(true);
    } finally {
      await svc.stop();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
