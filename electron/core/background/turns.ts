import { ErrorCodes } from '../../../shared/errorCodes.js';
import { ShelfError } from '../base/shelfError.js';

/**
 * At most `max` of a kind of work at once (work a client's request makes
 * over many files or bytes): more wait their turn, and past `maxWaiting`
 * waiting are told to try again, so neither the work nor the queue grows
 * with what clients ask.
 */
export class Turns {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly maxWaiting: number,
    /** What a refused request is told. */
    private readonly busy: string,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.take();
    try {
      return await work();
    } finally {
      this.give();
    }
  }

  private async take(): Promise<void> {
    if (this.running < this.max) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.maxWaiting) throw new ShelfError(ErrorCodes.internalError, this.busy);
    // The turn is handed over by the work that ends (running stays counted).
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
