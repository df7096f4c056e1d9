import { rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { lyingZip } from '../../bench/hostileDocuments.mjs';
import { EXTRACT_WORKER } from '../../electron/cli/headless.js';
import type { DocumentKind } from '../../electron/core/documents/documentKinds.js';
import { DocumentText } from '../../electron/core/documents/documentText.js';
import { ErrorCodes } from '../../shared/errorCodes.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { eml, epub, epubOfChapter, html, mbox, nestedEml, notebook, odp, ods, odsOfTable, odt, rtf } from '../support/formatDocuments.js';
import { RawClient } from '../support/rawClient.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * The formats people keep — EPUB, OpenDocument, RTF, HTML, notebooks, mail —
 * made by test/support/formatDocuments.ts, extracted in the built worker:
 * their words come through with their parts marked, their markup, scripts,
 * styles and encoded content do not, and a hostile file of each is refused
 * with a reason while the next document (and every other client) is served.
 */

const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: number; data?: { reason?: string } }) => `${e.code}:${e.data?.reason}`,
  );
/** Words each generated file hides in markup, script, style, templates, comments, tables of fonts or encodings: never text. */
const HIDDEN = [
  'scriptword',
  'styleword',
  'templateword',
  'hiddenword',
  'invisibleword',
  'noscriptword',
  'deletedword',
  'commentword',
  'notesword',
  'Fontnameword',
  'Stylenameword',
  'Infotitleword',
  'fieldword',
  'Stylefontword',
  'Headerword',
  'htmlresultword',
];
const MARKUP = /<\/?[a-z][\w:-]*[\s>]|\{\\|\\par\b|"cell_type"|Content-Type:|base64|&amp;/;

function clean(text: string) {
  for (const word of HIDDEN) expect(text, word).not.toContain(word);
  expect(text).not.toMatch(MARKUP);
}

const otterMail = () =>
  eml({
    from: 'Ann Example <ann@example.com>',
    to: 'bob@example.com',
    subject: 'Otter survey',
    text: 'We counted 14 otters at the weir.\nFrom the bridge we saw two more.',
    html: '<p>We counted <b>14 otters</b> at the weir.</p><script>scriptword()</script>',
    attachment: { name: 'survey.pdf', bytes: Buffer.alloc(6000, 0x25) },
  });
const beaverMail = () => eml({ from: 'bob@example.com', to: 'ann@example.com', subject: 'Re: Otter survey', text: 'And a beaver dam upstream.' });

describe('the formats people keep, in the extraction worker', () => {
  const docs = new DocumentText({ workerFile: EXTRACT_WORKER, timeoutMs: 20_000 });
  afterAll(() => docs.close());
  const extract = (kind: DocumentKind, bytes: Uint8Array | string, d = docs) =>
    d.text(`file:///x.${kind}?as=text`, `${kind}-${Math.random()}`, kind, async () => (typeof bytes === 'string' ? Buffer.from(bytes) : bytes));

  it('EPUB: chapters in spine order, marked, without markup, script or style', async () => {
    const book = await extract(
      'epub',
      epub([
        { title: 'The River', paragraphs: ['Otters live by the river.'] },
        { title: 'The Dam', paragraphs: ['Beavers build & mend.'] },
      ]),
    );
    expect(book).toEqual({ parts: 2, text: '--- Chapter 1 ---\nThe River\nOtters live by the river.\n\n--- Chapter 2 ---\nThe Dam\nBeavers build & mend.\n' });
    clean(book.text);
  });

  it('OpenDocument: a text, every sheet by name (repeated empty cells and rows cost nothing), every slide', async () => {
    const text = await extract('odt', odt('Minutes', ['The committee met', 'The otter budget was approved.']));
    expect(text.text).toBe('--- Document 1 ---\nMinutes\nThe committee met  end\nThe otter budget was approved.\nCommented\n');
    const sheets = await extract(
      'ods',
      ods([
        {
          name: 'Totals',
          rows: [
            ['year', 'total'],
            ['2025', '1234'],
          ],
        },
        { name: 'Notes', rows: [['checked', '', 'twice']] },
      ]),
    );
    expect(sheets).toEqual({ parts: 2, text: '--- Sheet: Totals ---\nyear\ttotal\n2025\t1234\n\n--- Sheet: Notes ---\nchecked\t\ttwice\n' });
    const deck = await extract('odp', odp([['Roadmap', 'Q1: ship it'], ['Thanks']]));
    expect(deck).toEqual({ parts: 2, text: '--- Slide 1 ---\nRoadmap\nQ1: ship it\n\n--- Slide 2 ---\nThanks\n' });
    for (const r of [text, sheets, deck]) clean(r.text);
  });

  it('RTF: its paragraphs, code-page and Unicode characters decoded, fields as their result; no tables of fonts, pictures or info', async () => {
    const r = await extract('rtf', rtf(['Café crème on the terrace', 'It’s “quoted” {in braces} \\ and 日本語']));
    expect(r.text).toBe('--- Document 1 ---\nCafé crème on the terrace\nIt’s “quoted” {in braces} \\ and 日本語\nLinkresult\n');
    expect(r.text).not.toMatch(/89504e47|pngblip/);
    clean(r.text);
  });

  it('HTML: the title and the visible text (lists, tables), no script, style, template, noscript or hidden content', async () => {
    const r = await extract('html', html('Otter facts', ['Otters hold hands while they sleep.', 'They eat fish.']));
    expect(r.text).toBe(
      '--- Document 1 ---\nOtter facts\n\nOtters hold hands while they sleep.\nThey eat fish.\n- first & item\n- second\ncell one\tcell two\n',
    );
    clean(r.text);
    // A fragment, as a snippet is saved: its text before any element counts too.
    expect((await extract('html', 'Otters <b>hold</b> hands<br>while asleep')).text).toBe('--- Document 1 ---\nOtters hold hands\nwhile asleep\n');
  });

  it('notebooks: cells marked, code fenced in its language with text outputs, images listed by size, errors without colour codes', async () => {
    const r = await extract('ipynb', notebook('# Otter census\nCounted by hand.', 'counts = [3, 4]\nprint(sum(counts))\n', '7\n'));
    expect(r).toEqual({
      parts: 3,
      text:
        '--- Cell 1 ---\n# Otter census\nCounted by hand.\n\n' +
        '--- Cell 2 ---\n```python\ncounts = [3, 4]\nprint(sum(counts))\n```\nOutput:\n7\n42\n<Figure size 640x480>\n[image/png output, 29 KB]\n\n' +
        '--- Cell 3 ---\n```python\n1/0\n```\nOutput:\nZeroDivisionError: division by zero\n',
    });
    expect(r.text).not.toContain('AQEB'); // the image's base64
    expect(r.text).not.toContain('\u001b');
  });

  it('mail: the headers that matter, the text part decoded, attachments listed; an mbox message by message', async () => {
    const one = await extract('eml', otterMail());
    expect(one.text).toBe(
      '--- Message 1 ---\nFrom: Ann Example <ann@example.com>\nTo: bob@example.com\nDate: 2026-12-01T10:00:00.000Z\nSubject: Otter survey\n\n' +
        'We counted 14 otters at the weir.\nFrom the bridge we saw two more.\n\nAttachments:\n- survey.pdf (application/pdf, 6 KB)\n',
    );
    clean(one.text);
    const box = await extract('mbox', mbox([otterMail(), beaverMail()]));
    expect(box.parts).toBe(2);
    // ">From " (mboxrd's quoting of a body line) is given back as "From ".
    expect(box.text).toContain('\nFrom the bridge we saw two more.\n');
    expect(box.text).toContain(
      '--- Message 2 ---\nFrom: bob@example.com\nTo: ann@example.com\nDate: 2026-12-01T10:00:00.000Z\nSubject: Re: Otter survey\n\nAnd a beaver dam upstream.\n',
    );
    // Only HTML: its visible text.
    const htmlOnly = `From: a@example.com\r\nSubject: html only\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><head><style>p{}</style></head><body><p>Weir otters</p><script>scriptword()</script></body></html>\r\n`;
    expect((await extract('eml', htmlOnly)).text).toBe('--- Message 1 ---\nFrom: a@example.com\nSubject: html only\n\nWeir otters\n');
  });

  it('a hostile file of each format is refused with its reason, quickly, and the next document is read', async () => {
    const started = Date.now();
    const hostile: Record<string, [DocumentKind, Uint8Array | string, string]> = {
      // Zips whose chapter or content declares 4 KiB and inflates to 256 MiB.
      'epub zip bomb': ['epub', lyingZip('OEBPS/text/ch1.xhtml', 256), 'too-large'],
      'odt zip bomb': ['odt', lyingZip('content.xml', 256), 'too-large'],
      'ods zip bomb': ['ods', lyingZip('content.xml', 256), 'too-large'],
      // Nesting, whose cost grows with the square of its depth in the parser.
      'html nesting': ['html', '<div>'.repeat(200_000), 'too-large'],
      'epub nesting': ['epub', epubOfChapter(`<html xmlns="http://www.w3.org/1999/xhtml"><body>${'<div>'.repeat(5000)}deep</body></html>`), 'too-large'],
      'rtf nesting': ['rtf', `{\\rtf1${'{'.repeat(200_000)}`, 'too-large'],
      'eml mime nesting': ['eml', nestedEml(100), 'too-large'],
      'mbox mime nesting': ['mbox', mbox([beaverMail(), nestedEml(100)]), 'too-large'],
      'ipynb cut short': ['ipynb', '{"cells": [' + '['.repeat(100_000), 'corrupt'],
      'rtf not rtf': ['rtf', 'not rich text at all', 'corrupt'],
    };
    const got: Record<string, string> = {};
    for (const [label, [kind, bytes]] of Object.entries(hostile)) got[label] = await failure(extract(kind, bytes));
    expect(got).toEqual(Object.fromEntries(Object.entries(hostile).map(([label, [, , reason]]) => [label, `${ErrorCodes.documentTextUnavailable}:${reason}`])));
    expect(Date.now() - started).toBeLessThan(60_000); // a hang bound, not a speed target (a dozen hostile files, a busy machine)
    expect((await extract('odt', odt('After', ['still read']))).text).toContain('still read');
  }, 180_000);

  it('a notebook too big for the worker heap is too-large, and a new worker reads the next one', async () => {
    const small = new DocumentText({ workerFile: EXTRACT_WORKER, timeoutMs: 20_000, memoryMb: 64 });
    try {
      const huge = `{"nbformat": 4, "cells": [${'{"cell_type":"raw","source":"x"},'.repeat(1_500_000)}{}]}`;
      expect(await failure(extract('ipynb', huge, small))).toBe(`${ErrorCodes.documentTextUnavailable}:too-large`);
      expect((await extract('ipynb', notebook('after', 'x = 1', 'one'), small)).text).toContain('after');
    } finally {
      await small.close();
    }
  });

  it('repetition that would expand a sheet a thousandfold stops at the text limit', async () => {
    const file = odsOfTable(
      `<table:table table:name="Bomb"><table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>boom</text:p></table:table-cell></table:table-row></table:table>`,
    );
    // What bounds it is the text limit, not the clock (a 15 s deadline failed beside the CI's burner): the
    // text stops there, and the 17 billion cells the file declares are never made.
    const r = await extract('ods', file);
    expect(r.text.length).toBeLessThan(33 * 1024 * 1024 + 1000);
    expect(r.text).toMatch(/text cut at \d+ characters/);
  }, 120_000);
});

describe('the formats through the real CLI: listed, read, searched, grepped, paged by the read tool', () => {
  let root: string;
  let shelf: ShelfProcess;
  beforeAll(async () => {
    root = await makeTree({
      'books/rivers.epub': epub([
        { title: 'Source', paragraphs: ['A spring in the hills.'] },
        { title: 'Estuary', paragraphs: ['Where the kingfisher waits.'] },
      ]),
      'office/minutes.odt': odt('Minutes', ['The heron committee met.']),
      'office/budget.ods': ods([
        { name: 'Costs', rows: [['item', 'cost']] },
        { name: 'Fences', rows: [['otter fence', '5000']] },
      ]),
      'office/deck.odp': odp([['Wetlands'], ['Questions about newts']]),
      'letters/old.rtf': rtf(['A letter about the salamander pond.']),
      'web/saved.html': html('Saved page', ['The dragonfly season starts in May.']),
      'lab/census.ipynb': notebook('# Grebe census', 'print("grebes")', 'grebes\n'),
      'mail/survey.eml': otterMail(),
      'mail/archive.mbox': mbox([otterMail(), beaverMail()]),
      'mail/deep.eml': nestedEml(100),
      'web/deep.html': '<div>'.repeat(200_000),
      'notes.txt': 'a small file\n',
    });
    shelf = await startShelf([root]);
  }, 60_000);
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('lists each with its text next to it; resources/read gives the text; a hostile one is refused while a bystander is served', async () => {
    const client = await RawClient.initialized(shelf.socketPath);
    const bystander = await RawClient.initialized(shelf.socketPath);
    try {
      const listed = (await client.request('resources/list', {})).result as { resources: Array<{ name: string }> };
      const names = listed.resources.map((r) => r.name);
      for (const name of [
        'books/rivers.epub',
        'office/minutes.odt',
        'office/budget.ods',
        'office/deck.odp',
        'letters/old.rtf',
        'web/saved.html',
        'lab/census.ipynb',
        'mail/survey.eml',
        'mail/archive.mbox',
      ])
        expect(names[names.indexOf(name) + 1], name).toBe(`${name} (text)`);
      expect(names).not.toContain('notes.txt (text)');
      const text = async (rel: string) =>
        ((await client.request('resources/read', { uri: `${uriOf(root, rel)}?as=text` })).result as { contents: Array<{ text: string }> }).contents[0]?.text ??
        '';
      expect(await text('books/rivers.epub')).toContain('--- Chapter 2 ---\nEstuary\nWhere the kingfisher waits.');
      expect(await text('web/saved.html')).toContain('The dragonfly season starts in May.');
      expect(await text('mail/archive.mbox')).toContain('--- Message 2 ---');
      // The page itself is still its markup.
      const page = (await client.request('resources/read', { uri: uriOf(root, 'web/saved.html') })).result as {
        contents: Array<{ text: string; mimeType: string }>;
      };
      expect(page.contents[0]).toMatchObject({ mimeType: 'text/html', text: expect.stringContaining('<script>') });
      for (const rel of ['mail/deep.eml', 'web/deep.html']) {
        const hostile = client.request('resources/read', { uri: `${uriOf(root, rel)}?as=text` });
        expect((await bystander.request('resources/read', { uri: uriOf(root, 'notes.txt') })).result).toBeDefined();
        expect((await hostile).error, rel).toMatchObject({
          code: ErrorCodes.documentTextUnavailable,
          data: { reason: 'too-large', uri: `${uriOf(root, rel)}?as=text` },
        });
      }
    } finally {
      client.close();
      bystander.close();
    }
  });

  it('search and grep find their words (never their markup); the read tool pages chapters, sheets, cells and messages', async () => {
    const client = await connectSdkClient(shelf.socketPath, 'formats');
    const tool = async (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    const search = async (query: string) =>
      (await tool('search_resources', { query })).structuredContent as { results: Array<{ path: string; uri: string }>; indexing: boolean };
    try {
      await eventually(async () => !(await search('kingfisher')).indexing, 30_000, 'the index');
      const found: Record<string, string> = {
        kingfisher: 'books/rivers.epub',
        heron: 'office/minutes.odt',
        fence: 'office/budget.ods',
        newts: 'office/deck.odp',
        salamander: 'letters/old.rtf',
        dragonfly: 'web/saved.html',
        grebe: 'lab/census.ipynb',
        weir: 'mail/survey.eml',
        beaver: 'mail/archive.mbox',
      };
      for (const [word, rel] of Object.entries(found))
        expect(
          (await search(word)).results.map((r) => r.uri),
          word,
        ).toContain(`${uriOf(root, rel)}?as=text`);
      for (const word of ['scriptword', 'styleword', 'templateword', 'Fontnameword', 'Headerword', 'commentword'])
        expect((await search(word)).results, word).toEqual([]);
      const grep = (await tool('grep_resources', { pattern: 'kingfisher|dragonfly|salamander|grebes|beaver dam|scriptword' })).structuredContent as {
        files: Array<{ path: string; document: boolean; matches: Array<{ text: string }> }>;
      };
      const grepped = Object.fromEntries(grep.files.map((f) => [f.path, f.matches.map((m) => m.text)]));
      expect(grepped['web/saved.html']).toEqual(['The dragonfly season starts in May.']);
      expect(grepped['books/rivers.epub']).toEqual(['Where the kingfisher waits.']);
      expect(grepped['letters/old.rtf']).toEqual(['A letter about the salamander pond.']);
      expect(grepped['lab/census.ipynb']).toEqual(['print("grebes")', 'grebes']);
      expect(grepped['mail/archive.mbox']).toEqual(['And a beaver dam upstream.']);
      expect(JSON.stringify(grep)).not.toContain('scriptword');
      expect(grep.files.every((f) => f.document)).toBe(true);

      const read = async (rel: string, pages?: string, suffix = '') => {
        const r = await tool('read_resource', { uri: uriOf(root, rel) + suffix, ...(pages ? { pages } : {}) });
        return (r.content as Array<{ type: string; text?: string }>)
          .filter((c) => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
      };
      const chapter = await read('books/rivers.epub', '2');
      expect(chapter).toContain('--- Chapter 2 ---\nEstuary\nWhere the kingfisher waits.');
      expect(chapter).not.toContain('A spring in the hills.');
      expect(chapter).toContain('EPUB book, 2 chapter(s)');
      const sheet = await read('office/budget.ods', '2');
      expect(sheet).toContain('--- Sheet: Fences ---\notter fence\t5000');
      expect(sheet).not.toContain('Costs');
      const cell = await read('lab/census.ipynb', '2');
      expect(cell).toContain('--- Cell 2 ---\n```python\nprint("grebes")\n```\nOutput:\ngrebes');
      expect(cell).not.toContain('Grebe census');
      const message = await read('mail/archive.mbox', '2');
      expect(message).toContain('Subject: Re: Otter survey');
      expect(message).not.toContain('survey.pdf');
      // A web page is read as its markup (its text is at ?as=text, which the read tool gives as a document).
      expect(await read('web/saved.html')).toContain('<script>');
      expect(await read('web/saved.html', undefined, '?as=text')).toContain('Text extracted from saved.html (web page');
    } finally {
      await client.close();
    }
  }, 90_000);
});
