import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';

import { ExtractionError } from './extractionError.js';

/**
 * PDFium (Chrome's PDF engine) compiled to WebAssembly, inside the extraction
 * worker: a PDF's text per page at ~3× poppler's pdftotext where pdf.js took
 * ~10× (BENCHMARKS.md, "PDF engine"), and pages rendered to pixels for OCR.
 * No native module, so nothing is rebuilt per Electron. Its memory is one
 * WebAssembly memory: outside the worker's heap limit, inside what the parent
 * watches (processGrowth.ts).
 */

/** PDFium's FPDF_GetLastError codes that mean something to a person. */
const ERR_PASSWORD = 4;
const ERR_SECURITY = 5;

/** A page may be rendered to at most this many pixels (a 10,000 × 10,000 point page at 150 dpi would be 4 × 10⁸). */
export const MAX_RENDER_PIXELS = 40_000_000;

let loaded: Promise<WrappedPdfiumModule> | null = null;

/** The module's memory as bytes (read again each time: it is replaced when the memory grows). Its typings leave it out. */
const heapOf = (m: WrappedPdfiumModule): Uint8Array => (m.pdfium as unknown as { HEAPU8: Uint8Array }).HEAPU8;

/** The engine, loaded once per worker from the package's own wasm file (nothing fetched). */
function pdfium(): Promise<WrappedPdfiumModule> {
  loaded ??= (async () => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm'));
    const m = await init({
      wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer,
      print: () => undefined,
      printErr: () => undefined,
    });
    m.PDFiumExt_Init();
    return m;
  })();
  return loaded;
}

/** Grey pixels, one byte each, row after row. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An open PDF in PDFium's memory; close() frees it (the document and the copy of its bytes). */
export class PdfiumDocument {
  private constructor(
    private readonly m: WrappedPdfiumModule,
    private readonly doc: number,
    private readonly bytesPtr: number,
    readonly pageCount: number,
  ) {}

  static async open(bytes: Uint8Array): Promise<PdfiumDocument> {
    const m = await pdfium();
    const ptr = m.pdfium.wasmExports.malloc(bytes.byteLength);
    if (!ptr) throw new ExtractionError('too-large', "the PDF does not fit in the PDF engine's memory");
    heapOf(m).set(bytes, ptr);
    const doc = m.FPDF_LoadMemDocument(ptr, bytes.byteLength, '');
    if (!doc) {
      const error = m.FPDF_GetLastError();
      m.pdfium.wasmExports.free(ptr);
      if (error === ERR_PASSWORD || error === ERR_SECURITY) throw new ExtractionError('encrypted', 'The PDF is encrypted with a password');
      throw new ExtractionError('corrupt', `Not a readable PDF (PDFium error ${error})`);
    }
    return new PdfiumDocument(m, doc, ptr, m.FPDF_GetPageCount(doc));
  }

  /** Page `index`'s text (0-based), its lines ending in \n. */
  pageText(index: number): string {
    const m = this.m;
    const page = m.FPDF_LoadPage(this.doc, index);
    if (!page) return '';
    try {
      const textPage = m.FPDFText_LoadPage(page);
      if (!textPage) return '';
      try {
        const count = m.FPDFText_CountChars(textPage);
        if (count <= 0) return '';
        const buf = m.pdfium.wasmExports.malloc((count + 1) * 2);
        try {
          const written = m.FPDFText_GetText(textPage, 0, count, buf);
          // UTF-16, ending in a NUL; PDFium ends lines with \r\n and marks soft hyphens and generated breaks with U+FFFE/U+0002.
          return m.pdfium
            .UTF16ToString(buf, Math.max(0, written - 1) * 2)
            .replace(/\r\n?/g, '\n')
            .replaceAll('\uFFFE', '')
            .replaceAll('\u0002', '');
        } finally {
          m.pdfium.wasmExports.free(buf);
        }
      } finally {
        m.FPDFText_ClosePage(textPage);
      }
    } finally {
      m.FPDF_ClosePage(page);
    }
  }

  /**
   * The resolution to render page `index` at for OCR: its largest image's
   * own (a scanner's 110, 200 or 300 dpi: more adds no detail, only time),
   * within 150–300 dpi, where Tesseract reads small print well; 200 for a
   * page without images (drawn letters). Looks at 1,000 objects at most.
   */
  scanDpi(index: number): number {
    const m = this.m;
    const page = m.FPDF_LoadPage(this.doc, index);
    if (!page) return 200;
    const size = m.pdfium.wasmExports.malloc(8);
    try {
      const widthInches = Math.max(1, m.FPDF_GetPageWidthF(page)) / 72;
      let best = 0;
      let bestPixels = 0;
      const count = Math.min(1000, m.FPDFPage_CountObjects(page));
      for (let i = 0; i < count; i++) {
        const obj = m.FPDFPage_GetObject(page, i);
        // FPDF_PAGEOBJ_IMAGE
        if (!obj || m.FPDFPageObj_GetType(obj) !== 3 || !m.FPDFImageObj_GetImagePixelSize(obj, size, size + 4)) continue;
        const w = m.pdfium.getValue(size, 'i32') as number;
        const h = m.pdfium.getValue(size + 4, 'i32') as number;
        if (w * h > bestPixels) {
          bestPixels = w * h;
          best = w / widthInches;
        }
      }
      return best > 0 ? Math.min(300, Math.max(150, Math.round(best))) : 200;
    } finally {
      m.pdfium.wasmExports.free(size);
      m.FPDF_ClosePage(page);
    }
  }

  /**
   * Page `index` rendered in grey at `dpi` (lowered so the page stays within
   * MAX_RENDER_PIXELS: a page declaring a huge size costs no more than that).
   */
  renderGrey(index: number, dpi: number): GreyImage & { dpi: number } {
    const m = this.m;
    const page = m.FPDF_LoadPage(this.doc, index);
    if (!page) throw new ExtractionError('corrupt', `Page ${index + 1} of the PDF cannot be read`);
    let bitmap = 0;
    try {
      const wPt = Math.max(1, m.FPDF_GetPageWidthF(page));
      const hPt = Math.max(1, m.FPDF_GetPageHeightF(page));
      const fit = Math.sqrt(MAX_RENDER_PIXELS / ((wPt / 72) * dpi * ((hPt / 72) * dpi)));
      const scale = Math.min(dpi, dpi * fit) / 72;
      const width = Math.max(1, Math.round(wPt * scale));
      const height = Math.max(1, Math.round(hPt * scale));
      // BGRA (FPDFBitmap_BGRA, 4 bytes a pixel), painted white first: a page draws only what it has.
      bitmap = m.FPDFBitmap_CreateEx(width, height, 4, 0, 0);
      if (!bitmap) throw new ExtractionError('too-large', `Page ${index + 1} is too large to render (${width}×${height} px)`);
      m.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
      // FPDF_ANNOT (1) | FPDF_GRAYSCALE (8): what a reader sees, in grey.
      m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, 1 | 8);
      const stride = m.FPDFBitmap_GetStride(bitmap);
      const base = m.FPDFBitmap_GetBuffer(bitmap);
      const heap = heapOf(m);
      const data = new Uint8Array(width * height);
      for (let y = 0; y < height; y++) {
        const row = base + y * stride;
        for (let x = 0, o = y * width; x < width; x++, o++) {
          const p = row + x * 4;
          // ITU-R 601 luma from B, G, R.
          data[o] = ((heap[p] as number) * 29 + (heap[p + 1] as number) * 150 + (heap[p + 2] as number) * 77) >> 8;
        }
      }
      return { width, height, data, dpi: scale * 72 };
    } finally {
      if (bitmap) m.FPDFBitmap_Destroy(bitmap);
      m.FPDF_ClosePage(page);
    }
  }

  close(): void {
    this.m.FPDF_CloseDocument(this.doc);
    this.m.pdfium.wasmExports.free(this.bytesPtr);
  }
}
