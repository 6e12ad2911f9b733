// The demo lesson page as a reader gets it: served locally, wasm loaded, numbers in the table.
import { test, expect } from '@playwright/test';

const PRESETS = [
  'tiny-gpt',
  'gpt2-small',
  'gpt2-medium',
  'gpt2-large',
  'gpt2-xl',
  'llama3-8b',
  'llama3-70b',
  'mixtral-8x7b',
];

/** Opens the page, recording console errors, uncaught exceptions and requests to other hosts. */
async function openPage(page, baseURL) {
  const problems = [];
  const origin = new URL(baseURL).origin;
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) {
      problems.push(`request to another host: ${req.url()}`);
    }
  });
  page.on('requestfailed', (req) => problems.push(`failed request: ${req.url()}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto('/');
  return problems;
}

test('lists the eight presets with their shapes, computed by the wasm', async ({ page, baseURL }) => {
  const problems = await openPage(page, baseURL);
  const table = page.getByRole('table', { name: /presets/i });
  await expect(table).toBeVisible();
  await expect(page.getByRole('status')).toContainText('8 models');

  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(8);
  await expect(rows.locator('th code')).toHaveText(PRESETS);

  // GPT-2 small: 12 layers, width 768, 12 heads, 12 KV heads, and its exact parameter count.
  const gpt2 = table.locator('tbody tr[data-model="gpt2-small"]');
  await expect(gpt2.locator('th')).toContainText('GPT-2 small');
  await expect(gpt2.locator('td')).toHaveText(['12', '768', '12', '12', /^124,439,808\b/]);

  // Llama 3 8B uses grouped-query attention: 32 query heads share 8 key/value heads.
  const llama = table.locator('tbody tr[data-model="llama3-8b"]');
  await expect(llama.locator('td').nth(2)).toHaveText('32');
  await expect(llama.locator('td').nth(3)).toHaveText('8');

  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone without sideways scrolling of the page', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await openPage(page, baseURL);
  await expect(page.locator('#models tbody tr')).toHaveCount(8);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});

test('says so clearly when the wasm cannot be loaded', async ({ page }) => {
  await page.route('**/pkg/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/');
  const status = page.getByRole('status');
  await expect(status).toContainText('could not be loaded');
  await expect(status).toHaveClass(/error/);
  await expect(page.locator('#models')).toBeHidden();
});
