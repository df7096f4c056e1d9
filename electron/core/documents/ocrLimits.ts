/** OCR's limits and names, shared by the main thread and the OCR worker (nothing here loads an engine). */

/** Scanned pages of one PDF read by OCR at most; the rest say they were left. */
export const MAX_OCR_PAGES = 100;

/** A language code as Tesseract names them (`eng`, `deu`, `chi_sim`): checked where set, as it becomes part of a file name. */
export const LANGUAGE_CODE = /^[a-z]{3}(_[a-z]{2,8})?$/;
