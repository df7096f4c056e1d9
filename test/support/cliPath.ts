import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built CLI (npm test builds first). Only its path: in-process tests
 * name it in the bridge command they expect and never run it, so they need
 * no build; shelfProcess.ts, which runs it, checks that it is there.
 */
export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/electron/cli.js');
