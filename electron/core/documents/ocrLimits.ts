/** OCR's limits and names, shared by the main thread and the OCR worker (nothing here loads an engine). */

/** Scanned pages of one PDF read by OCR at most; the rest say they were left. */
export const MAX_OCR_PAGES = 100;

/**
 * Processor time OCR spends on one document (a scanned PDF, a multi-page
 * TIFF): pages past it are left, and the text says which. A page takes 1–3 s
 * here, so a 100-page scan fits.
 */
export const OCR_DOCUMENT_MS = 240_000;

/** A language code as Tesseract names them (`eng`, `deu`, `chi_sim`): checked where set, as it becomes part of a file name. */
export const LANGUAGE_CODE = /^[a-z]{3}(_[a-z]{2,8})?$/;
