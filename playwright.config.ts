import { defineConfig } from '@playwright/test';

const chromium = {
  browserName: 'chromium' as const,
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  },
  trace: 'retain-on-failure' as const,
};

/**
 * The window in Debian's Chromium against the headless web host (npx
 * playwright install cannot work here), and Electron, which skips with its
 * reason where no Electron binary can be downloaded. `npm run dev`'s test
 * rebuilds dist/ (its watch build) while it runs, so it has a project of its
 * own that starts once every other window test has ended: no `serve` is
 * spawned from a bundle half written.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Deadlines for a failure, not speed targets (those live in npm run bench):
  // generous, so a laptop busy with other work (or CI's CPU burner) is not a failure.
  // Two files at a time on a machine already loaded: a three-minute deadline
  // (the slowest window test needs about a minute there).
  timeout: 180_000,
  expect: { timeout: 20_000 },
  // Each test runs its own `serve`, settings and socket, so files run two at
  // a time: much of a window test is waiting (for a frame, a debounce, a
  // server starting), which the other file fills.
  fullyParallel: false,
  workers: 2,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  projects: [
    { name: 'browser', testDir: 'e2e/browser', testIgnore: 'devLoop.spec.ts', use: chromium },
    { name: 'dev-loop', testDir: 'e2e/browser', testMatch: 'devLoop.spec.ts', use: chromium, dependencies: ['browser'] },
    { name: 'electron', testDir: 'e2e/electron' },
  ],
});
