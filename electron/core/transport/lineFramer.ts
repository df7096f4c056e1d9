/**
 * Splits a byte stream into newline-terminated lines without re-copying what
 * it already holds (the SDK's ReadBuffer concatenates its whole buffer on
 * every chunk, which is quadratic on large messages). Nothing past `maxBytes`
 * is ever buffered: the first line over the limit stops the framer.
 */
export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOverflow: (bytesSeen: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.overflowed) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      const size = this.pendingBytes + (end - start);
      if (size > this.maxBytes) {
        this.overflowed = true;
        this.pending = [];
        this.pendingBytes = 0;
        this.onOverflow(size);
        return;
      }
      if (nl === -1) {
        if (end > start) {
          this.pending.push(chunk.subarray(start));
          this.pendingBytes = size;
        }
        return;
      }
      const piece = chunk.subarray(start, nl);
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece], size);
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
      this.onLine(line);
    }
  }

  /** Bytes held for an unfinished line. */
  get buffered(): number {
    return this.pendingBytes;
  }
}
