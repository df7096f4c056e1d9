import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Document, Packer, Paragraph } from 'docx';
import { Zip, ZipDeflate } from 'fflate';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import PptxGenJS from 'pptxgenjs';
import writeXlsxFile from 'write-excel-file/node';

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
