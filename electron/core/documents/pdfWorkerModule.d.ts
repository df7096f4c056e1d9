/** pdf.js's parser, loaded into the extraction worker so pdf.js runs it inline (it ships no types for it). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
