import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` tests run in this process and mirror the module they
 * test (test/unit/electron/core/library/rules.test.ts tests
 * electron/core/library/rules.ts); real sockets, files, worker threads and
 * an in-process ShelfService are fine, a process or the build (dist/) is
 * not. `integration` tests start processes — the real CLI, the stdio
 * bridge, official SDK clients, Python, Node 22, the conformance suite — or
 * run what the build made (its workers). `npm run test:unit` runs the quick
 * half, without a build; test/unit/build/testSplit.test.ts keeps the line.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    // Servers started with --ui never open a browser on the machine running the tests.
    env: { BROWSER: 'none' },
    // Deadlines for a failure, not speed targets (those live in npm run bench):
    // generous, so a busy machine is not a failure.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn servers and watch real folders; two cores.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
    ],
  },
});
