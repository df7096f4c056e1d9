/** Types of hostileDocuments.mjs, for the tests. */
export function deflatedZeros(zeros: number, prefix?: Buffer): Buffer;
export function lyingZip(part: string, mib?: number): Buffer;
export function lyingDocx(mib?: number): Buffer;
export function plainDocx(text: string): Buffer;
export function flateBombPdf(mib?: number): Buffer;
