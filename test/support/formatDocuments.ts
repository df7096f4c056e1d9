import { zipSync } from 'fflate';

/**
 * Documents of the formats people keep, made here as their specifications
 * describe them (no writer for these is in the registry's reach): an EPUB
 * whose spine orders its chapters unlike its manifest, OpenDocument text,
 * sheets and slides, RTF as Word writes it, a web page with script and
 * hidden content, a notebook with outputs, and MIME mail. Each carries
 * markup, script or encoded content that must not reach the text.
 */

const enc = (s: string) => new TextEncoder().encode(s);
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A zip with `mimetype` first and stored, as EPUB and OpenDocument require. */
function packageZip(mimetype: string, files: Record<string, string | Uint8Array>): Buffer {
  const entries: Record<string, [Uint8Array, { level: 0 | 6 }]> = { mimetype: [enc(mimetype), { level: 0 }] };
  for (const [name, content] of Object.entries(files)) entries[name] = [typeof content === 'string' ? enc(content) : content, { level: 6 }];
  return Buffer.from(zipSync(entries));
}

/** An EPUB 3: chapters given in reading order; the manifest lists them backwards, the spine in order. */
export function epub(chapters: Array<{ title: string; paragraphs: string[] }>): Buffer {
  const files: Record<string, string | Uint8Array> = {
    'META-INF/container.xml': `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    'OEBPS/images/cover.png': new Uint8Array(4096).fill(7),
  };
  const ids = chapters.map((_, i) => `ch${i + 1}`);
  const manifest = [...ids].reverse().map((id) => `<item id="${id}" href="text/${id}.xhtml" media-type="application/xhtml+xml"/>`);
  files['OEBPS/content.opf'] =
    `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Book</dc:title><dc:identifier id="id">urn:uuid:1</dc:identifier></metadata>` +
    `<manifest><item id="cover" href="images/cover.png" media-type="image/png"/>${manifest.join('')}</manifest><spine>${ids.map((id) => `<itemref idref="${id}"/>`).join('')}</spine></package>`;
  chapters.forEach((c, i) => {
    files[`OEBPS/text/${ids[i]}.xhtml`] =
      `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>The Book</title><style>p { color: red }</style></head>` +
      `<body><a id="top"/><h1>${escapeXml(c.title)}</h1>${c.paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('')}<script>var secret = "scriptword";</script></body></html>`;
  });
  return packageZip('application/epub+zip', files);
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"';
const STYLES =
  '<office:automatic-styles><style:style style:name="P1" style:family="paragraph"><style:text-properties style:font-name="Stylefontword"/></style:style></office:automatic-styles>';

function odf(mimetype: string, body: string): Buffer {
  return packageZip(mimetype, {
    'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS} office:version="1.3">${STYLES}<office:body>${body}</office:body></office:document-content>`,
    'META-INF/manifest.xml': `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
  });
}

/** An EPUB of one chapter, as given. */
export function epubOfChapter(xhtml: string): Buffer {
  return packageZip('application/epub+zip', {
    'META-INF/container.xml':
      '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="c.opf"/></rootfiles></container>',
    'c.opf': '<package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="a" href="a.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>',
    'a.xhtml': xhtml,
  });
}

/** An ODS of one table, as given. */
export const odsOfTable = (table: string) => odf('application/vnd.oasis.opendocument.spreadsheet', `<office:spreadsheet>${table}</office:spreadsheet>`);

/** ODT: a heading, then paragraphs (a `text:s` run of spaces in the first, a deleted change and a comment that are not text). */
export function odt(heading: string, paragraphs: string[]): Buffer {
  const ps = paragraphs.map((p, i) => `<text:p text:style-name="P1">${i === 0 ? `${escapeXml(p)}<text:s text:c="2"/>end` : escapeXml(p)}</text:p>`).join('');
  return odf(
    'application/vnd.oasis.opendocument.text',
    `<office:text><text:tracked-changes><text:changed-region><text:deletion><text:p>deletedword</text:p></text:deletion></text:changed-region></text:tracked-changes><text:h text:outline-level="1">${escapeXml(heading)}</text:h>${ps}<text:p>Commented<office:annotation><text:p>commentword</text:p></office:annotation></text:p></office:text>`,
  );
}

/** ODS: sheets of rows; every row ends in a million repeated empty cells, and each sheet in a million empty rows, as LibreOffice writes them. */
export function ods(sheets: Array<{ name: string; rows: string[][] }>): Buffer {
  const cell = (v: string) => `<table:table-cell office:value-type="string"><text:p>${escapeXml(v)}</text:p></table:table-cell>`;
  const tables = sheets.map(
    (s) =>
      `<table:table table:name="${escapeXml(s.name)}">${s.rows.map((r) => `<table:table-row>${r.map(cell).join('')}<table:table-cell table:number-columns-repeated="1048576"/></table:table-row>`).join('')}<table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>`,
  );
  return odf('application/vnd.oasis.opendocument.spreadsheet', `<office:spreadsheet>${tables.join('')}</office:spreadsheet>`);
}

/** ODP: slides of lines (each in a text box), with speaker notes that are not slide text. */
export function odp(slides: string[][]): Buffer {
  const pages = slides.map(
    (lines, i) =>
      `<draw:page draw:name="page${i + 1}">${lines.map((l) => `<draw:frame><draw:text-box><text:p>${escapeXml(l)}</text:p></draw:text-box></draw:frame>`).join('')}<presentation:notes><draw:frame><draw:text-box><text:p>notesword</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>`,
  );
  return odf('application/vnd.oasis.opendocument.presentation', `<office:presentation>${pages.join('')}</office:presentation>`);
}

/** RTF as Word writes it: tables of fonts, colours and styles, a field, a picture, and each paragraph (non-ASCII as \'hh and \uN). */
export function rtf(paragraphs: string[]): Buffer {
  const escape = (s: string) =>
    [...s]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (ch === '\\' || ch === '{' || ch === '}') return `\\${ch}`;
        if (code < 128) return ch;
        if (code < 256) return `\\'${code.toString(16).padStart(2, '0')}`;
        return `\\u${code > 32767 ? code - 65536 : code}?`;
      })
      .join('');
  const body = paragraphs.map((p) => `{\\pard\\plain\\f0\\fs24 ${escape(p)}\\par}`).join('\r\n');
  return Buffer.from(
    `{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss Fontnameword;}}{\\colortbl;\\red255\\green0\\blue0;}{\\stylesheet{\\s0 Stylenameword;}}` +
      `{\\info{\\title Infotitleword}{\\author Someone}}{\\*\\generator Riched20;}\r\n${body}\r\n` +
      `{\\field{\\*\\fldinst HYPERLINK "http://fieldword.example"}{\\fldrslt Linkresult}}\\par\r\n` +
      `{\\pict\\pngblip\\picw10\\pich10 89504e470d0a1a0a0000000d4948445200}\r\n}`,
    'latin1',
  );
}

/** A saved web page: its words in the body, and script, style, a template and hidden content that are not text. */
export function html(title: string, paragraphs: string[]): string {
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeXml(title)}</title><style>.x { content: "styleword" }</style><script>document.write("scriptword")</script></head>` +
    `<body><nav hidden>hiddenword</nav><template><p>templateword</p></template><div style="display: none">invisibleword</div><noscript>noscriptword</noscript>` +
    `${paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('\n')}<ul><li>first &amp; item</li><li>second</li></ul><table><tr><td>cell one</td><td>cell two</td></tr></table></body></html>`
  );
}

/** A Jupyter notebook (nbformat 4): markdown, code with a stream, a result and an image, and an error. */
export function notebook(markdown: string, code: string, printed: string): string {
  const png = Buffer.alloc(30_000, 1).toString('base64');
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
    cells: [
      { cell_type: 'markdown', metadata: {}, source: [markdown] },
      {
        cell_type: 'code',
        execution_count: 1,
        metadata: {},
        source: code.split(/(?<=\n)/),
        outputs: [
          { output_type: 'stream', name: 'stdout', text: [printed] },
          { output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': ['42'], 'text/html': ['<b>htmlresultword</b>'] } },
          { output_type: 'display_data', metadata: {}, data: { 'image/png': png, 'text/plain': ['<Figure size 640x480>'] } },
        ],
      },
      {
        cell_type: 'code',
        execution_count: 2,
        metadata: {},
        source: '1/0',
        outputs: [
          {
            output_type: 'error',
            ename: 'ZeroDivisionError',
            evalue: 'division by zero',
            traceback: ['\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'],
          },
        ],
      },
    ],
  });
}

/** A MIME message: text and HTML alternatives (quoted-printable), and a base64 attachment. */
export function eml(o: { from: string; to: string; subject: string; text: string; html?: string; attachment?: { name: string; bytes: Buffer } }): string {
  const b = 'b1_boundary';
  const alt = 'b2_alternative';
  const lines = [
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    'Date: Tue, 01 Dec 2026 10:00:00 +0000',
    'Message-ID: <1@example.com>',
    'X-Mailer: Headerword 1.0',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    `--${b}`,
    `Content-Type: multipart/alternative; boundary="${alt}"`,
    '',
    `--${alt}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    o.text.replace(/=/g, '=3D').replace(/é/g, '=C3=A9'),
    ...(o.html !== undefined ? [`--${alt}`, 'Content-Type: text/html; charset=utf-8', '', o.html] : []),
    `--${alt}--`,
    ...(o.attachment
      ? [
          `--${b}`,
          `Content-Type: application/pdf; name="${o.attachment.name}"`,
          `Content-Disposition: attachment; filename="${o.attachment.name}"`,
          'Content-Transfer-Encoding: base64',
          '',
          o.attachment.bytes.toString('base64').replace(/.{76}/g, '$&\r\n'),
        ]
      : []),
    `--${b}--`,
    '',
  ];
  return lines.join('\r\n');
}

/** An mbox of messages (mboxrd: a body line starting "From " is written ">From "). */
export function mbox(messages: string[]): string {
  return messages
    .map((m, i) => `From sender${i}@example.com Tue Dec  1 10:00:00 2026\n${m.replace(/\r\n/g, '\n').replace(/^(>*From )/gm, '>$1')}\n`)
    .join('\n');
}

/** A message whose MIME parts nest `depth` deep. */
export function nestedEml(depth: number): string {
  let body = 'Content-Type: text/plain\r\n\r\ninnermost\r\n';
  for (let i = 0; i < depth; i++) body = `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n${body}--n${i}--\r\n`;
  return `From: a@example.com\r\nSubject: nested\r\nMIME-Version: 1.0\r\n${body}`;
}
