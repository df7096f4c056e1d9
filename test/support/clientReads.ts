import { AskGate } from '../../electron/core/access/askGate.js';
import { ClientReads, type ClientReadsOptions } from '../../electron/core/access/clientReads.js';
import { LineIndexCache } from '../../electron/core/delivery/lineIndex.js';
import { ModelReader } from '../../electron/core/delivery/modelRead.js';
import type { Library } from '../../electron/core/library/library.js';

/**
 * ClientReads for tests of other parts, wired as a shelf with no folder that
 * asks and no history would be: every part given explicitly (ClientReads
 * takes none by default), so what these tests leave out is said here.
 */
export function plainReads(library: Library, overrides: Partial<ClientReadsOptions> = {}): ClientReads {
  return new ClientReads(library, {
    history: null,
    gate: new AskGate({ timeoutMs: () => 5000, windows: () => 0, changed: () => undefined }),
    asks: () => false,
    askingFolder: () => null,
    anyAsks: () => false,
    folderOff: () => false,
    model: new ModelReader({ library, lines: new LineIndexCache(), images: null }),
    delivery: () => ({ textBudget: 100_000, imageMaxSide: 1568, imageMaxBytes: 1536 * 1024, clients: {} }),
    ...overrides,
  });
}
