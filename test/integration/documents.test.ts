import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { flateBombPdf } from '../../bench/hostileDocuments.mjs';
import { EXTRACT_WORKER } from '../../electron/cli/headless.js';
import { DocumentText } from '../../electron/core/documents/documentText.js';
import { TextDiskCache } from '../../electron/core/documents/textDiskCache.js';
import { ErrorCodes } from '../../shared/errorCodes.js';
import { corruptPdf, docx, docxBomb, encryptedPdf, pdfWithoutText, pdfWithText, pptx, xlsx } from '../support/documents.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { startService } from '../support/service.js';
import { CLI, connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * Documents a model can read: real PDFs, Word, Excel and PowerPoint files
 * made by the ecosystem's writers, extracted in the built worker; hostile
 * ones (encrypted, corrupt, a zip bomb, one too slow, one too big for the
 * worker's heap) get a clear reason and never stall serving.
 */

const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: number; data?: { reason?: string } }) => `${e.code}:${e.data?.reason}`,
  );

describe('document text in the worker', () => {
  const docs = new DocumentText({ workerFile: EXTRACT_WORKER, timeoutMs: 20_000 });
  afterAll(() => docs.close());
  const extract = (kind: 'pdf' | 'docx' | 'xlsx' | 'pptx', bytes: Uint8Array, d = docs) =>
    d.text(`file:///x.${kind}?as=text`, `${kind}-${Math.random()}`, kind, async () => bytes);

  it('extracts PDF pages, Word text, every sheet and every slide, with their parts marked', async () => {
    const pdf = await extract('pdf', await pdfWithText(['First page about otters', 'Second page about beavers']));
    expect(pdf).toEqual({ parts: 2, text: '--- Page 1 ---\nFirst page about otters\n\n--- Page 2 ---\nSecond page about beavers\n' });
    const word = await extract('docx', await docx(['Minutes of the meeting', 'The budget was approved.']));
    expect(word.text).toBe('--- Document 1 ---\nMinutes of the meeting\n\nThe budget was approved.\n');
    const sheet = await extract(
      'xlsx',
      await xlsx([
        {
          name: 'Totals',
          rows: [
            ['year', 'total'],
            [2025, 1234],
          ],
        },
        { name: 'Notes', rows: [['checked']] },
      ]),
    );
    expect(sheet.text).toBe('--- Sheet: Totals ---\nyear\ttotal\n2025\t1234\n\n--- Sheet: Notes ---\nchecked\n');
    const deck = await extract('pptx', await pptx([['Roadmap', 'Q1: ship it'], ['Thanks']]));
    expect(deck.text).toBe('--- Slide 1 ---\nRoadmap\nQ1: ship it\n\n--- Slide 2 ---\nThanks\n');
  });

  it('says why when there is no text: a scan, an encrypted or corrupt PDF, a zip bomb', async () => {
    expect(await failure(extract('pdf', await pdfWithoutText()))).toBe(`${ErrorCodes.documentTextUnavailable}:no-text`);
    expect(await failure(extract('pdf', await encryptedPdf()))).toBe(`${ErrorCodes.documentTextUnavailable}:encrypted`);
    expect(await failure(extract('pdf', corruptPdf()))).toBe(`${ErrorCodes.documentTextUnavailable}:corrupt`);
    const bomb = docxBomb();
    const started = Date.now();
    expect(await failure(extract('docx', bomb))).toBe(`${ErrorCodes.documentTextUnavailable}:too-large`);
    expect(Date.now() - started).toBeLessThan(60_000); // refused by what it declares, not inflated: a hang bound
    expect(await failure(extract('docx', Buffer.from('PK\u0003\u0004 not really a zip')))).toBe(`${ErrorCodes.documentTextUnavailable}:corrupt`);
  }, 180_000);

  it('a document that takes too long or needs too much memory stops the worker, and the next one works', async () => {
    const pages = Array.from({ length: 400 }, (_, i) => `Page ${i} ${'lorem ipsum dolor sit amet '.repeat(20)}`);
    const big = await pdfWithText(pages);
    const slow = new DocumentText({ workerFile: EXTRACT_WORKER, timeoutMs: 50 });
    try {
      expect(await failure(extract('pdf', big, slow))).toBe(`${ErrorCodes.documentTextUnavailable}:timeout`);
    } finally {
      await slow.close();
    }
    const small = new DocumentText({ workerFile: EXTRACT_WORKER, memoryMb: 4 });
    try {
      expect(await failure(extract('pdf', big, small))).toBe(`${ErrorCodes.documentTextUnavailable}:too-large`);
    } finally {
      await small.close();
    }
    // What the process may grow by is watched apart from the heap (ArrayBuffers are outside it): a Flate bomb
    // grows it by hundreds of MiB in moments. Only the watchdog can end this one (the time limit is far off:
    // the extraction thread runs at a lower priority, so on a busy machine an honest document can take long).
    const watched = new DocumentText({ workerFile: EXTRACT_WORKER, processMemoryMb: 64, timeoutMs: 120_000 });
    try {
      await expect(extract('pdf', flateBombPdf(), watched)).rejects.toMatchObject({
        data: { reason: 'too-large' },
        message: expect.stringContaining('64 MiB of memory allowed'),
      });
    } finally {
      await watched.close();
    }
    // The shared one is untouched, and a document is extracted once per version.
    const before = docs.extractions;
    const bytes = await pdfWithText(['cached']);
    await docs.text('file:///c.pdf?as=text', 'same-version', 'pdf', async () => bytes);
    await docs.text('file:///c.pdf?as=text', 'same-version', 'pdf', async () => bytes);
    expect(docs.extractions - before).toBe(1);
  }, 180_000);

  it('the service keeps a document’s text on disk for the next run, and removing its folder takes it off the disk', async () => {
    const root = await makeTree({ 'report.pdf': await pdfWithText(['Quarterly otters']) }, 'doc-svc-');
    const svc = await startService({ extractWorker: EXTRACT_WORKER });
    const cacheFiles = async () => {
      const top = path.join(svc.dir, 'text-cache');
      const subs = await readdir(top).catch(() => []);
      return (await Promise.all(subs.map((d) => readdir(path.join(top, d)).catch(() => [])))).flat();
    };
    try {
      await svc.service.addFolders([root]);
      await eventually(async () => expect((await svc.service.readResource(`${uriOf(root, 'report.pdf')}?as=text`)).ok).toBe(true));
      await eventually(async () => expect(await cacheFiles()).toHaveLength(1));
      await svc.service.removeFolder(root);
      await eventually(async () => expect(await cacheFiles()).toEqual([]));
    } finally {
      await svc.stop();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('reasons count in the memory cache’s bound too: a folder of ever-changing broken documents cannot grow it', async () => {
    const small = new DocumentText({ workerFile: EXTRACT_WORKER, cacheChars: 1000 });
    try {
      const broken = async () => Buffer.from('PK\u0003\u0004 not really a zip');
      for (let i = 0; i < 20; i++)
        expect(await failure(small.text('file:///b.docx?as=text', `b.docx-version-${i}`, 'docx', broken))).toBe(
          `${ErrorCodes.documentTextUnavailable}:corrupt`,
        );
      expect(small.extractions).toBe(20);
      await small.text('file:///b.docx?as=text', 'b.docx-version-19', 'docx', broken).catch(() => undefined); // the newest is kept
      expect(small.extractions).toBe(20);
      await small.text('file:///b.docx?as=text', 'b.docx-version-0', 'docx', broken).catch(() => undefined); // the oldest was let go
      expect(small.extractions).toBe(21);
    } finally {
      await small.close();
    }
  });

  it('a document being extracted when the server stops is not remembered as too large', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'doc-stop-'));
    const run = () => new DocumentText({ workerFile: EXTRACT_WORKER, disk: new TextDiskCache(dir, 64 * 1024 * 1024) });
    const bytes = await pdfWithText(Array.from({ length: 1000 }, (_, i) => `Page ${i} ${'lorem ipsum dolor sit amet '.repeat(20)}`));
    const key = '/d\u0000big.pdf\u00001\u00002';
    const stopping = run();
    const next = run();
    try {
      const reading = failure(stopping.text('file:///d/big.pdf?as=text', key, 'pdf', async () => bytes.slice()));
      await new Promise((r) => setTimeout(r, 100)); // under way in the worker
      await stopping.close();
      expect(await reading).toBe(`${ErrorCodes.documentTextUnavailable}:busy`);
      await new Promise((r) => setTimeout(r, 200)); // a write would be in the background
      expect((await next.text('file:///d/big.pdf?as=text', key, 'pdf', async () => bytes.slice())).parts).toBe(1000);
      expect(next.extractions).toBe(1);
    } finally {
      await Promise.all([stopping.close(), next.close()]);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('the next run reads text and lasting reasons back from disk instead of extracting again; a timeout is not kept', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'doc-cache-'));
    const run = (timeoutMs = 20_000) => new DocumentText({ workerFile: EXTRACT_WORKER, timeoutMs, disk: new TextDiskCache(dir, 64 * 1024 * 1024) });
    const text = await pdfWithText(['Kept between runs']);
    const scan = await pdfWithoutText();
    // Large enough to take more than 50 ms even for PDFium.
    const slowPdf = await pdfWithText(Array.from({ length: 400 }, (_, i) => `Page ${i} about otters ${'lorem ipsum dolor sit amet '.repeat(20)}`));
    const first = run();
    const second = run();
    const hurried = run(50);
    try {
      expect((await first.text('file:///d/a.pdf?as=text', '/d\u0000a.pdf\u00001\u00002', 'pdf', async () => text.slice())).text).toContain('Kept between runs');
      expect(await failure(first.text('file:///d/s.pdf?as=text', '/d\u0000s.pdf\u00001\u00002', 'pdf', async () => scan.slice()))).toBe(
        `${ErrorCodes.documentTextUnavailable}:no-text`,
      );
      expect(await failure(hurried.text('file:///d/slow.pdf?as=text', '/d\u0000slow.pdf\u00001\u00002', 'pdf', async () => slowPdf.slice()))).toBe(
        `${ErrorCodes.documentTextUnavailable}:timeout`,
      );
      await new Promise((r) => setTimeout(r, 200)); // the writes are in the background
      const never = async (): Promise<Uint8Array> => {
        throw new Error('read again');
      };
      expect((await second.text('file:///d/a.pdf?as=text', '/d\u0000a.pdf\u00001\u00002', 'pdf', never)).text).toContain('Kept between runs');
      expect(await failure(second.text('file:///d/s.pdf?as=text', '/d\u0000s.pdf\u00001\u00002', 'pdf', never))).toBe(
        `${ErrorCodes.documentTextUnavailable}:no-text`,
      );
      expect(second.extractions).toBe(0);
      // A timeout may not recur (a busy machine): that document is extracted again.
      expect((await second.text('file:///d/slow.pdf?as=text', '/d\u0000slow.pdf\u00001\u00002', 'pdf', async () => slowPdf.slice())).parts).toBe(400);
      expect(second.extractions).toBe(1);
      // A folder no longer published leaves the disk.
      await second.forgetFolder('/d');
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await Promise.all([first.close(), second.close(), hurried.close()]);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** One line of an old ledger in Windows-1252 (0x80 is the euro sign there, 0x96 an en dash): 60,000 of them are 1.3 MB. */
const LEDGER_LINE = 'Ca\xe9 \x80 12,50 \x96 \x93na\xefve\x94 \xa9\n';

describe('documents and search through the real CLI', () => {
  let root: string;
  let shelf: ShelfProcess;

  beforeAll(async () => {
    root = await makeTree({
      'reports/q3.pdf': await pdfWithText(['Quarterly revenue grew in the northern region', 'Outlook: steady']),
      'reports/scan.pdf': await pdfWithoutText(),
      'minutes.docx': await docx(['Minutes', 'The committee approved the otter sanctuary budget.']),
      'budget.xlsx': await xlsx([
        {
          name: 'Budget',
          rows: [
            ['item', 'cost'],
            ['sanctuary fence', 5000],
          ],
        },
      ]),
      'deck.pptx': await pptx([['Otters of the river'], ['Questions?']]),
      'notes/otters.md': '# Otters\n\nOtters hold hands while they sleep. Otters otters otters.\n',
      'notes/rivers.md': '# Rivers\n\nThe river runs north. An otter was seen once.\n',
      'notes/unrelated.md': '# Shopping\n\nmilk, eggs, bread\n',
      'bomb.docx': docxBomb(),
      'ascii.pdf': '%PDF-1.4\n% nothing but ASCII, still a PDF\n%%EOF\n',
      // Windows-1252 text, as old Western files are: not UTF-8, still text.
      'old/menu.txt': Buffer.from('Caf\xe9 cr\xe8me br\xfbl\xe9e \x96 \x93na\xefve\x94 fa\xe7ade, \xa9 1998\n', 'latin1'),
      // Over the size where replies are streamed: decoded piece by piece.
      'old/ledger.txt': Buffer.from(LEDGER_LINE.repeat(60_000), 'latin1'),
      'old/LIESMICH': Buffer.from('Der M\xfcller sa\xdf am Flu\xdf und a\xdf K\xe4se. Gr\xfc\xdfe aus M\xfcnchen, sch\xf6ne Gr\xfc\xdfe an alle.\n', 'latin1'),
    });
    shelf = await startShelf([root]);
  }, 60_000);
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const search = async (client: Awaited<ReturnType<typeof connectSdkClient>>, query: string) => {
    const r = await client.callTool({ name: 'search_resources', arguments: { query } });
    return r.structuredContent as {
      results: Array<{ uri: string; path: string; line: number; snippet: string; score: number }>;
      nextCursor?: string;
      indexing: boolean;
    };
  };

  it('lists each document with its text next to it, and a 2026-07-28 client reads it; the PDF itself stays a blob', async () => {
    const c = new V2Client({ name: 'modern', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new V2Stdio({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' }));
    try {
      const listed = (await c.request({ method: 'resources/list', params: {} })) as { resources: Array<{ uri: string; name: string; mimeType: string }> };
      const names = listed.resources.map((r) => r.name);
      expect(names.slice(names.indexOf('reports/q3.pdf'), names.indexOf('reports/q3.pdf') + 2)).toEqual(['reports/q3.pdf', 'reports/q3.pdf (text)']);
      expect(listed.resources.find((r) => r.name === 'deck.pptx (text)')).toMatchObject({ uri: `${uriOf(root, 'deck.pptx')}?as=text`, mimeType: 'text/plain' });
      expect(names).not.toContain('notes/otters.md (text)');
      const text = await c.readResource({ uri: `${uriOf(root, 'reports/q3.pdf')}?as=text` });
      expect(text.contents[0]).toMatchObject({ mimeType: 'text/plain', text: expect.stringContaining('--- Page 2 ---\nOutlook: steady') });
      const pdf = await c.readResource({ uri: uriOf(root, 'reports/q3.pdf') });
      expect(pdf.contents[0]).toMatchObject({ mimeType: 'application/pdf', blob: expect.any(String) });
      // Legacy 8-bit text is decoded for every client, saying from what.
      expect((await c.readResource({ uri: uriOf(root, 'old/menu.txt') })).contents[0]).toMatchObject({
        mimeType: 'text/plain',
        text: 'Café crème brûlée – “naïve” façade, © 1998\n',
        _meta: { 'dev.mcpshelf/decodedFrom': 'windows-1252' },
      });
      expect((await c.readResource({ uri: uriOf(root, 'old/LIESMICH') })).contents[0]).toMatchObject({ text: expect.stringContaining('Grüße aus München') });
      const ledger = (await c.readResource({ uri: uriOf(root, 'old/ledger.txt') })).contents[0] as { text?: string; _meta?: unknown };
      expect(ledger._meta).toEqual({ 'dev.mcpshelf/decodedFrom': 'windows-1252' });
      expect(ledger.text?.length).toBe(LEDGER_LINE.length * 60_000);
      expect(ledger.text === 'Ca\u00e9 \u20ac 12,50 \u2013 \u201cna\u00efve\u201d \u00a9\n'.repeat(60_000)).toBe(true);
      // A PDF is a blob whatever its bytes (this one is plain ASCII).
      expect((await c.readResource({ uri: uriOf(root, 'ascii.pdf') })).contents[0]).toMatchObject({ mimeType: 'application/pdf', blob: expect.any(String) });
      const scan = await failure(c.readResource({ uri: `${uriOf(root, 'reports/scan.pdf')}?as=text` }));
      expect(scan).toBe(`${ErrorCodes.documentTextUnavailable}:no-text`);
      expect(await failure(c.readResource({ uri: `${uriOf(root, 'notes/otters.md')}?as=text` }))).toBe(`${ErrorCodes.resourceNotFound}:undefined`);
    } finally {
      await c.close();
    }
  });

  it('a zip bomb is refused while a bystander is served at once', async () => {
    const bystander = await RawClient.initialized(shelf.socketPath);
    const attacker = await RawClient.initialized(shelf.socketPath);
    try {
      const bomb = attacker.request('resources/read', { uri: `${uriOf(root, 'bomb.docx')}?as=text` });
      expect((await bystander.request('resources/read', { uri: uriOf(root, 'notes/rivers.md') })).result).toBeDefined();
      expect((await bomb).error).toMatchObject({ code: ErrorCodes.documentTextUnavailable, data: { reason: 'too-large' } });
    } finally {
      bystander.close();
      attacker.close();
    }
  });

  it('search ranks the right file first, finds document text, phrases and prefixes, and follows edits', async () => {
    const client = await connectSdkClient(shelf.socketPath, 'searcher');
    try {
      await eventually(async () => !(await search(client, 'otter')).indexing, 20_000, 'the index');
      const otters = await search(client, 'otters');
      expect(otters.results[0]?.path).toBe('notes/otters.md');
      expect(otters.results[0]?.snippet).toContain('**Otters**');
      expect((await search(client, 'quarterly revenue')).results.map((r) => r.uri)).toEqual([`${uriOf(root, 'reports/q3.pdf')}?as=text`]);
      expect((await search(client, 'sanctuary')).results.map((r) => r.path).sort()).toEqual(['budget.xlsx', 'minutes.docx']);
      expect((await search(client, '"otter sanctuary"')).results.map((r) => r.path)).toEqual(['minutes.docx']);
      expect((await search(client, 'sanct*')).results).toHaveLength(2);
      expect((await search(client, 'river')).results.map((r) => r.path)).toContain('deck.pptx');

      await writeFile(path.join(root, 'notes/unrelated.md'), '# Shopping\n\nflamingo feathers\n');
      await eventually(async () => (await search(client, 'flamingo')).results.length === 1, 5000, 'the edit to be searchable');
      expect((await search(client, 'eggs')).results).toEqual([]);
      const r = await client.callTool({ name: 'search_resources', arguments: { query: 'flamingo' } });
      expect((r.content as Array<{ text: string }>)[0]?.text).toContain(`${uriOf(root, 'notes/unrelated.md')} (score`);
    } finally {
      await client.close();
    }
  }, 60_000);
});
