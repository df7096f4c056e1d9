import { defineConfig } from '@playwright/test';

/**
 * Two projects: the window in Debian's Chromium against the headless web host
 * (npx playwright install cannot work here), and Electron, which skips with
 * its reason where no Electron binary can be downloaded.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Deadlines for a failure, not speed targets (those live in npm run bench):
  // generous, so a laptop busy with other work (or CI's CPU burner) is not a failure.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  projects: [
    {
      name: 'browser',
      testDir: 'e2e/browser',
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
        trace: 'retain-on-failure',
      },
    },
    { name: 'electron', testDir: 'e2e/electron' },
  ],
});
