// <tb-tiny-gpt>: TinyGPT reading characters (in the wasm): the stream and logits as heatmaps with
// their shapes, and the likeliest next characters at each position, from the trained model the page
// ships, an untrained one, or one trained on the page.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

test('the shipped model reads "the residual": 12 × 32 stream, 12 × 50 logits, sensible guesses', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  await expect(gpt.getByLabel('Text')).toHaveValue('the residual');
  await expect(gpt.getByLabel('Model')).toHaveValue('shipped');
  await expect(gpt.locator('.shape')).toHaveText(['stream 12 × 32', 'logits 12 × 50']);
  await expect(gpt.locator('.model-note')).toContainText('27,328 parameters, 2 blocks of width 32, trained for 6,000 steps on this page');
  await expect(gpt.locator('.result')).toContainText('ids (42, 30, 27, 1, 40, 27, 41, 31, 26, 43, 23, 34)');
  const guesses = gpt.locator('.next-chars li');
  await expect(guesses).toHaveCount(12);
  // A trained model knows English a little: "th" -> "e", "the" -> space, "residua" -> "l".
  await expect(guesses.nth(1)).toContainText(/after h \(position 2 of 12\): e \d+%/);
  await expect(guesses.nth(2)).toContainText(/after e \(position 3 of 12\): \u2423 \d+%/);
  await expect(guesses.nth(10)).toContainText(/after a \(position 11 of 12\): l \d+%/);
  // One cell per number (a square in its colour class's path; theme variables), and one outline
  // per row of logits.
  const cells = (svg) => svg.locator('path[class^="heat-"]').evaluateAll((paths) => paths.reduce((n, p) => n + p.getAttribute('d').split('M').length - 1, 0));
  expect(await cells(gpt.locator('svg').first())).toBe(12 * 32);
  expect(await cells(gpt.locator('svg').nth(1))).toBe(12 * 50);
  await expect(gpt.locator('svg').nth(1).locator('rect.best')).toHaveCount(12);
  await expect(gpt.getByRole('img', { name: /^logits 12 × 50 heatmap: values from/ })).toBeVisible();
  expect(problems).toEqual([]);
});

test('typing recomputes; text longer than 16 characters is read from its last 16', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  const text = gpt.getByLabel('Text');
  await text.click();
  await text.press('Control+a');
  await text.pressSequentially('Attention');
  await expect(text).toBeFocused();
  await expect(gpt.locator('.shape')).toHaveText(['stream 9 × 32', 'logits 9 × 50']);
  await text.fill('Attention mixes positions; the feed-forward does not.');
  await expect(gpt.locator('.shape')).toHaveText(['stream 16 × 32', 'logits 16 × 50']);
  await expect(gpt.locator('.result')).toContainText('the first 37 characters do not fit in 16 positions');
  await text.fill('');
  await expect(gpt.getByRole('alert')).toHaveText('text (empty) is out of range: type at least one character');
  await text.fill('the');
  await expect(gpt.getByRole('alert')).toBeHidden();
  await expect(gpt.locator('.next-chars li')).toHaveCount(3);
  expect(problems).toEqual([]);
});

test('"Write on" continues the text with the model, the same way each time', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  await gpt.getByRole('button', { name: 'Write on' }).click();
  const written = gpt.locator('.written');
  await expect(written).toBeVisible();
  const first = await written.textContent();
  expect(first.startsWith('the residual')).toBe(true);
  expect(first.length).toBe('the residual'.length + 80);
  await gpt.getByRole('button', { name: 'Write on' }).click();
  await expect(written).toHaveText(first);
  expect(problems).toEqual([]);
});

test('a seed gives the untrained model, whose guesses are near uniform; a bad seed is named', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const untrained = page.locator('tb-tiny-gpt').nth(1);
  await expect(untrained.getByLabel('Model')).toHaveValue('untrained');
  await expect(untrained.locator('.model-note')).toContainText('as initialised, before any training');
  // 50 characters at random: the likeliest gets about 2%, far from the trained model's 80%.
  const best = await untrained.locator('.next-chars li').first().textContent();
  expect(Number(best.match(/(\d+)%/)[1])).toBeLessThan(5);
  const bad = page.locator('tb-tiny-gpt').nth(2);
  await expect(bad.getByRole('alert').first()).toHaveText('seed "-3" is not a whole number; showing the trained model');
  await expect(bad.getByLabel('Model')).toHaveValue('shipped');
  await bad.evaluate((el) => el.setAttribute('seed', '5'));
  await expect(bad.getByRole('alert')).toHaveCount(0);
  await expect(bad.getByLabel('Model')).toHaveValue('untrained');
  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone in dark mode without sideways scrolling of the page', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  await expect(gpt.locator('.next-chars li')).toHaveCount(12);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  // Dark mode: a positive cell is not the colour it is in light mode.
  const cell = gpt.locator('path[class^="heat-p"]').first();
  const dark = await cell.evaluate((el) => getComputedStyle(el).fill);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => cell.evaluate((el) => getComputedStyle(el).fill)).not.toBe(dark);
  expect(problems).toEqual([]);
});

test('the sampler: top-k and top-p keep the likeliest, the distribution before and after them, Write on with them', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  const gpt = page.locator('tb-tiny-gpt').first();
  const sampling = gpt.getByRole('group', { name: 'Writing on' });
  await expect(sampling.locator('.kept-count')).toHaveText('50 of 50 characters kept; the 10 likeliest are listed.');
  await expect(sampling.locator('table caption')).toHaveText('The next character after "the residual"');
  await expect(sampling.locator('tbody tr')).toHaveCount(10);
  await sampling.getByLabel('Top-k').fill('3');
  await expect(sampling.locator('.kept-count')).toHaveText('3 of 50 characters kept; the 10 likeliest are listed.');
  await expect(sampling.locator('tbody tr.kept')).toHaveCount(3);
  await expect(sampling.locator('tbody tr').nth(3)).toHaveClass(/dropped/);
  await expect(sampling.locator('tbody tr').nth(3).locator('td').last()).toHaveText('not kept');
  await sampling.getByLabel('Top-p').fill('0.5');
  await expect(sampling.locator('tbody tr.kept')).toHaveCount(1);
  await expect(sampling.locator('tbody tr.kept td').last()).toHaveText('100%');

  // Top-k 1 writes what temperature 0 writes.
  await sampling.getByLabel('Top-k').fill('1');
  await sampling.getByLabel('Top-p').fill('1');
  await sampling.getByLabel('Temperature').fill('2');
  await sampling.getByRole('button', { name: 'Write on' }).click();
  const greedy = await sampling.locator('.written').textContent();
  await sampling.getByLabel('Top-k').fill('');
  await sampling.getByLabel('Temperature').fill('0');
  await sampling.getByRole('button', { name: 'Write on' }).click();
  await expect(sampling.locator('.written')).toHaveText(greedy);
  expect(greedy.length).toBe('the residual'.length + 80);

  // Bad settings: the library's message, nothing drawn.
  for (const [label, value, says] of [
    ['Top-k', '0', 'top-k 0 is out of range: keep from 1 (the likeliest only) up to 50 (every character) of the likeliest'],
    ['Top-k', '51', 'top-k 51 is out of range'],
    ['Top-p', '0', 'top-p 0 is out of range: give a share above 0 and at most 1'],
    ['Top-p', '1.5', 'top-p 1.5 is out of range'],
    ['Temperature', '-1', 'temperature -1 is out of range: give 0 (always the likeliest) to 10'],
  ]) {
    await sampling.getByLabel(label).fill(value);
    await expect(sampling.getByRole('alert')).toContainText(says);
    await expect(sampling.locator('table')).toBeHidden();
    await sampling.getByLabel(label).fill(label === 'Top-p' ? '1' : label === 'Top-k' ? '' : '0.8');
    await expect(sampling.getByRole('alert')).toBeHidden();
  }
  // What the browser cannot read as a number is named, not taken as 0.
  await sampling.getByLabel('Temperature').fill('');
  await sampling.getByLabel('Temperature').pressSequentially('-');
  await expect(sampling.getByRole('alert')).toHaveText('Temperature: that is not a number; type a number, such as 0.8');
  await sampling.getByLabel('Temperature').fill('0.8');
  await expect(sampling.getByRole('alert')).toBeHidden();
  // Text written with other settings goes when they change.
  await sampling.getByRole('button', { name: 'Write on' }).click();
  await expect(sampling.locator('.written')).toBeVisible();
  await sampling.getByLabel('Top-k').fill('5');
  await expect(sampling.locator('.written')).toBeHidden();
  expect(problems).toEqual([]);
});
