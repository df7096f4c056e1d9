// The "formats" scenario of npm run bench: large honest files of each format
// read as text by the extraction worker, the way `?as=text` does (cold: a new
// DocumentText each, so nothing is cached), and 1,000 small web pages one
// after another (what the search index costs for a folder of saved pages).
// Files are made here; their sizes are printed beside the times.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { zipSync } from 'fflate';

import { ROOT } from './fixtures.mjs';

const enc = (s) => new TextEncoder().encode(s);
const words = ['otter', 'heron', 'river', 'stone', 'willow', 'reed', 'current', 'bank', 'mist', 'alder', 'pool', 'weir'];
const sentence = (i) => Array.from({ length: 12 }, (_, k) => words[(i * 7 + k * 5) % words.length]).join(' ') + '.';
const paragraphs = (n, from = 0) => Array.from({ length: n }, (_, i) => sentence(from + i));

function pkg(mimetype, files) {
  const entries = { mimetype: [enc(mimetype), { level: 0 }] };
  for (const [name, content] of Object.entries(files)) entries[name] = [enc(content), { level: 6 }];
  return Buffer.from(zipSync(entries));
}

/** A book of `chapters` chapters of `per` paragraphs. */
function epub(chapters, per) {
  const files = {
    'META-INF/container.xml':
      '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
  };
  const ids = Array.from({ length: chapters }, (_, i) => `c${i}`);
  files['OEBPS/content.opf'] =
    `<package xmlns="http://www.idpf.org/2007/opf"><manifest>${ids.map((id) => `<item id="${id}" href="${id}.xhtml"/>`).join('')}</manifest><spine>${ids.map((id) => `<itemref idref="${id}"/>`).join('')}</spine></package>`;
  ids.forEach((id, c) => {
    files[`OEBPS/${id}.xhtml`] = `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Book</title></head><body><h1>Chapter ${c}</h1>${paragraphs(
      per,
      c * per,
    )
      .map((p) => `<p class="x">${p}</p>`)
      .join('\n')}</body></html>`;
  });
  return pkg('application/epub+zip', files);
}

const ODF =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
const odf = (mimetype, body) =>
  pkg(mimetype, { 'content.xml': `<office:document-content ${ODF}><office:body>${body}</office:body></office:document-content>` });
const odt = (n) =>
  odf(
    'application/vnd.oasis.opendocument.text',
    `<office:text>${paragraphs(n)
      .map((p) => `<text:p text:style-name="P1"><text:span>${p}</text:span></text:p>`)
      .join('')}</office:text>`,
  );
const ods = (rows) =>
  odf(
    'application/vnd.oasis.opendocument.spreadsheet',
    `<office:spreadsheet><table:table table:name="Data">${Array.from({ length: rows }, (_, r) => `<table:table-row>${[r, words[r % 12], r * 3, 'note'].map((v) => `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`).join('')}<table:table-cell table:number-columns-repeated="16380"/></table:table-row>`).join('')}</table:table></office:spreadsheet>`,
  );
const rtf = (n) =>
  Buffer.from(
    `{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}${paragraphs(n)
      .map((p) => `{\\pard\\f0\\fs24 ${p} caf\\'e9\\par}`)
      .join('\r\n')}}`,
    'latin1',
  );
const html = (n) =>
  `<!DOCTYPE html><html><head><title>Page</title><script>${'var x = 1;'.repeat(1000)}</script><style>p{}</style></head><body>${paragraphs(n)
    .map((p) => `<div class="c"><p>${p} <a href="#">link</a></p></div>`)
    .join('\n')}</body></html>`;
const notebook = (cells) =>
  JSON.stringify({
    nbformat: 4,
    metadata: { language_info: { name: 'python' } },
    cells: Array.from({ length: cells }, (_, i) =>
      i % 2
        ? { cell_type: 'markdown', source: [sentence(i)] }
        : {
            cell_type: 'code',
            source: [`print("${sentence(i)}")`],
            outputs: [
              { output_type: 'stream', text: [sentence(i)] },
              { output_type: 'display_data', data: { 'image/png': 'A'.repeat(20_000), 'text/plain': ['<Figure>'] } },
            ],
          },
    ),
  });
const message = (i) =>
  [
    `From: sender${i}@example.com`,
    'To: list@example.com',
    `Subject: ${sentence(i).slice(0, 40)}`,
    'Date: Tue, 01 Dec 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain; charset=utf-8',
    '',
    ...paragraphs(20, i),
    '--b',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>${paragraphs(20, i).join('</p><p>')}</p>`,
    '--b--',
    '',
  ].join('\n');
const mbox = (n) => Array.from({ length: n }, (_, i) => `From sender${i}@example.com Tue Dec  1 10:00:00 2026\n${message(i)}`).join('\n');

export async function formatsBench() {
  const { DocumentText } = await import(pathToFileURL(path.join(ROOT, 'dist/electron/core/documents/documentText.js')).href);
  const workerFile = path.join(ROOT, 'dist/electron/extract-worker.js');
  const cold = async (kind, bytes) => {
    const docs = new DocumentText({ workerFile });
    try {
      const size = bytes.length; // before the bytes move to the worker
      const t = performance.now();
      const r = await docs.text(`file:///x.${kind}?as=text`, 'k', kind, async () => (typeof bytes === 'string' ? Buffer.from(bytes) : bytes));
      return { kind, bytes: size, ms: performance.now() - t, chars: r.text.length, parts: r.parts };
    } finally {
      await docs.close();
    }
  };
  const runs = [
    await cold('epub', epub(200, 250)),
    await cold('odt', odt(100_000)),
    await cold('ods', ods(100_000)),
    await cold('rtf', rtf(100_000)),
    await cold('html', html(100_000)),
    await cold('ipynb', notebook(2_000)),
    await cold('mbox', mbox(10_000)),
    // Past the bytes an mbox is read to (48 MiB): its first messages, and a note.
    await cold('mbox', mbox(20_000)),
  ];
  // 1,000 saved pages of ~20 KB through one worker, one after another (the search index reads them so).
  const docs = new DocumentText({ workerFile });
  const page = Buffer.from(html(120));
  const t = performance.now();
  for (let i = 0; i < 1000; i++) await docs.text('file:///p.html?as=text', `p${i}`, 'html', async () => Buffer.from(page)); // a copy each: the bytes move to the worker
  const pagesMs = performance.now() - t;
  await docs.close();
  return { runs, pagesMs, pageBytes: page.length };
}
