// Browser end-to-end tests: `npx playwright test` (or `make test`). They run against the page as
// scripts/serve.mjs serves it, in Debian's chromium (Playwright's own browser download is not used).
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './scripts/browser.mjs';

const PORT = Number(process.env.PORT ?? 8123);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  webServer: {
    command: 'node scripts/serve.mjs',
    env: { PORT: String(PORT) },
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 15_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
