import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

import { Document, Packer, Paragraph } from 'docx';
import { Zip, ZipDeflate } from 'fflate';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import PptxGenJS from 'pptxgenjs';
import sharp from 'sharp';
import writeXlsxFile from 'write-excel-file/node';

import { PdfiumDocument } from '../../electron/core/documents/pdfium.js';

/** Real documents for the tests, made by the ecosystem's writers (and one shipped file: an encrypted PDF). */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/documents');

/** A PDF with one line of text per page. */
export async function pdfWithText(pages: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) doc.addPage().drawText(text, { x: 50, y: 700, font, size: 12 });
  return doc.save();
}

/** A PDF of drawings only: what a scan without OCR looks like to a text extractor. */
export async function pdfWithoutText(pageCount = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pageCount; i++) doc.addPage().drawRectangle({ x: 40, y: 40, width: 300, height: 400, color: rgb(0.2, 0.3, 0.5) });
  return doc.save();
}

/** Encrypted with a user password by qpdf (test/fixtures/documents/README.md says how it was made). */
export function encryptedPdf(): Promise<Buffer> {
  return readFile(path.join(FIXTURES, 'encrypted.pdf'));
}

export function corruptPdf(): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R'), Buffer.alloc(2000, 0x7a), Buffer.from('\n%%EOF\n')]);
}

export function docx(paragraphs: string[]): Promise<Buffer> {
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs.map((p) => new Paragraph(p)) }] }));
}

export function xlsx(sheets: Array<{ name: string; rows: Array<Array<string | number>> }>): Promise<Buffer> {
  return writeXlsxFile(
    sheets.map((s) => ({ sheet: s.name, data: s.rows.map((r) => r.map((value) => ({ value }))) })),
    {},
  ).toBuffer();
}

export async function pptx(slides: string[][]): Promise<Buffer> {
  // pptxgenjs's types describe its CommonJS export; under ES modules the class is that export itself.
  const Deck = PptxGenJS as unknown as new () => InstanceType<typeof PptxGenJS.default>;
  const deck = new Deck();
  for (const lines of slides) {
    const slide = deck.addSlide();
    lines.forEach((text, i) => slide.addText(text, { x: 0.5, y: 0.5 + i * 0.8, w: 8, h: 0.6 }));
  }
  return Buffer.from((await deck.write({ outputType: 'nodebuffer' })) as Uint8Array);
}

/**
 * A zip bomb shaped like a .docx: a tiny file whose word/document.xml
 * inflates to `mib` MiB of zeros. Built in 1 MiB chunks, so making it costs
 * no more memory than that.
 */
export function docxBomb(mib = 300): Uint8Array {
  const out: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    out.push(chunk);
  });
  const types = new ZipDeflate('[Content_Types].xml');
  zip.add(types);
  types.push(new TextEncoder().encode('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), true);
  const body = new ZipDeflate('word/document.xml', { level: 1 });
  zip.add(body);
  const zeros = new Uint8Array(1024 * 1024);
  for (let i = 0; i < mib; i++) body.push(zeros, i === mib - 1);
  zip.end();
  return Buffer.concat(out);
}

/** A picture of words, as a screenshot or a photographed note is: black text on white, rendered by sharp from SVG. */
export async function imageWithText(lines: string[], format: 'png' | 'jpeg' | 'webp' | 'tiff' = 'png', size = { width: 935, height: 400 }): Promise<Buffer> {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const text = lines.map((l, i) => `<text x="50" y="${80 + i * 50}" font-family="DejaVu Sans, sans-serif" font-size="28">${esc(l)}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg))[format]().toBuffer();
}

/**
 * A scanned PDF: a text PDF (one line per page, as pdfWithText) rendered to
 * pixels at `dpi` by PDFium, each page's picture put back on a page of the
 * same size, so the file has no text layer — only the look of its words.
 * `textPages` (0-based) keep their text layer instead (a partly scanned PDF).
 */
export async function scannedPdf(pages: string[], dpi = 110, textPages: number[] = []): Promise<Uint8Array> {
  const source = await PDFDocument.create();
  const font = await source.embedFont(StandardFonts.Helvetica);
  for (const text of pages) source.addPage().drawText(text, { x: 50, y: 700, font, size: 16 });
  const original = await source.save();
  const rendered = await PdfiumDocument.open(original);
  const out = await PDFDocument.create();
  const outFont = await out.embedFont(StandardFonts.Helvetica);
  try {
    for (let i = 0; i < pages.length; i++) {
      const page = out.addPage();
      if (textPages.includes(i)) {
        page.drawText(pages[i] as string, { x: 50, y: 700, font: outFont, size: 16 });
        continue;
      }
      const grey = rendered.renderGrey(i, dpi);
      const png = await sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } })
        .png()
        .toBuffer();
      page.drawImage(await out.embedPng(png), { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
    }
  } finally {
    rendered.close();
  }
  return out.save();
}

/**
 * A PNG that declares `width` × `height` pixels in its header and holds one
 * row's worth of data: what a decompression or pixel bomb looks like before
 * anything is decoded.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit grey
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
