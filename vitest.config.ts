import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'electron/**/*.test.ts', 'shared/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn servers and watch real folders; two cores.
    maxWorkers: 2,
  },
});
