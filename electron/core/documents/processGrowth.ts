/**
 * What the process has grown by since it was made, less what this thread's
 * own heap and buffers grew by: while an extraction runs, that is the
 * worker's memory (its heap, and the ArrayBuffers its heap limit does not
 * count). This thread's shrinking is not added back: a collection here can
 * drop its heap figure before the pages leave the RSS, which would look
 * like the worker growing (a 200 MiB jump in 10 ms was seen).
 */
export class ProcessGrowth {
  private readonly rss: number;
  private readonly own: number;

  constructor() {
    const m = process.memoryUsage();
    this.rss = m.rss;
    this.own = m.heapTotal + m.external;
  }

  bytes(): number {
    const m = process.memoryUsage();
    return m.rss - this.rss - Math.max(0, m.heapTotal + m.external - this.own);
  }
}
