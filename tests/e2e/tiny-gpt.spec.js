// <tb-tiny-gpt>: token ids into TinyGPT (in the wasm), the stream and logits as heatmaps with their
// shapes, and the highest-scoring next token at each position.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

test('the lesson\u2019s ids give a 5 × 32 stream, 5 × 50 logits and 5 next-token guesses', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  await expect(gpt.getByLabel('Token ids')).toHaveValue('3, 1, 4, 1, 5');
  await expect(gpt.locator('.shape')).toHaveText(['stream 5 × 32', 'logits 5 × 50']);
  await expect(gpt.locator('.result')).toContainText('27,328 parameters');
  await expect(gpt.getByRole('img', { name: /^stream 5 × 32 heatmap: values from -0\.093 to 0\.101/ })).toBeVisible();
  await expect(gpt.getByRole('img', { name: /^logits 5 × 50 heatmap: values from -0\.3 to 0\.46/ })).toBeVisible();
  await expect(gpt.locator('.next-tokens li')).toHaveText([
    'after id 3 (position 1 of 5): id 3',
    'after id 1 (position 2 of 5): id 1',
    'after id 4 (position 3 of 5): id 4',
    'after id 1 (position 4 of 5): id 1',
    'after id 5 (position 5 of 5): id 5',
  ]);
  // One cell per number, coloured by class (theme variables), and one outline per row of logits.
  await expect(gpt.locator('svg').first().locator('rect[class^="heat-"]')).toHaveCount(160);
  await expect(gpt.locator('svg').nth(1).locator('rect.best')).toHaveCount(5);
  expect(problems).toEqual([]);
});

test('typing ids recomputes; an id past the vocabulary shows the library\u2019s message', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  const ids = gpt.getByLabel('Token ids');
  await ids.click();
  await ids.press('Control+a');
  await ids.pressSequentially('7, 8, 9');
  await expect(ids).toBeFocused();
  await expect(gpt.locator('.shape')).toHaveText(['stream 3 × 32', 'logits 3 × 50']);
  await expect(gpt.locator('.next-tokens li')).toHaveCount(3);

  await ids.fill('3, 1, 4, 1, 50');
  await expect(gpt.getByRole('alert')).toContainText('token id 50 is out of range: ids run from 0 to 49');
  await expect(gpt.locator('.next-tokens')).toBeHidden();
  await ids.fill('3, 1, x');
  await expect(gpt.getByRole('alert')).toHaveText('token ids: "x" is not a number; write numbers separated by commas');
  await ids.fill('3, 1, 4, 1, 5');
  await expect(gpt.getByRole('alert')).toBeHidden();
  await expect(gpt.locator('.next-tokens li')).toHaveCount(5);
  expect(problems).toEqual([]);
});

test('a bad ids attribute is named and the lesson\u2019s ids used; fixing it re-renders', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const bad = page.locator('tb-tiny-gpt').nth(1);
  await expect(bad.getByRole('alert')).toContainText('token id 50 is out of range: ids run from 0 to 49');
  await expect(bad.locator('.shape')).toHaveText(['stream 5 × 32', 'logits 5 × 50']);
  await bad.evaluate((el) => el.setAttribute('ids', '0, 1'));
  await expect(bad.getByRole('alert')).toHaveCount(0);
  await expect(bad.locator('.shape')).toHaveText(['stream 2 × 32', 'logits 2 × 50']);
  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone in dark mode without sideways scrolling of the page', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  await expect(gpt.locator('.next-tokens li')).toHaveCount(5);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  // Dark mode: a positive cell and the background are not the same colour as in light mode.
  const fill = await gpt.locator('rect.heat-p4').first().evaluate((el) => getComputedStyle(el).fill);
  expect(fill).not.toBe('rgb(209, 96, 61)');
  expect(problems).toEqual([]);
});
