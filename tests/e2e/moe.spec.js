// <tb-moe>: router scores as sliders, k, the gates from the wasm, and a seeded batch through a real
// MoE layer drawn as tokens per expert with its load-balancing loss.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

test('the lesson\u2019s scores keep experts 0 and 1 with gates 0.731 and 0.269', async ({ page }) => {
  const problems = await openPage(page, '/gallery/moe.html');
  const moe = page.locator('tb-moe').first();
  await expect(moe.getByRole('slider')).toHaveCount(4);
  await expect(moe.getByRole('slider', { name: 'Expert 0 score' })).toHaveValue('2');
  await expect(moe.locator('.result').first()).toHaveText(
    'Kept: experts 0 and 1 with gates 0.731 and 0.269. Skipped: experts 2 and 3 (never run for this token).',
  );
  await expect(moe.locator('tbody tr')).toHaveText([
    'Expert 02.0kept, gate 0.731',
    'Expert 11.0kept, gate 0.269',
    'Expert 20.5skipped',
    'Expert 3-1.0skipped',
  ]);
  // The batch: 64 tokens through a seeded layer of 8 experts, k = 2.
  const chart = moe.getByRole('img', { name: /^Tokens per expert/ });
  await expect(chart).toHaveAttribute(
    'aria-label',
    'Tokens per expert, 64 tokens, k = 2, seed 0: expert 0 14, expert 1 18, expert 2 17, expert 3 12, expert 4 12, expert 5 25, expert 6 12, expert 7 18',
  );
  await expect(moe.locator('.loss')).toHaveText('1.003');
  expect(problems).toEqual([]);
});

test('moving a slider by keyboard changes which experts are kept and their gates', async ({ page }) => {
  const problems = await openPage(page, '/gallery/moe.html');
  const moe = page.locator('tb-moe').first();
  const slider = moe.getByRole('slider', { name: 'Expert 2 score' });
  await slider.focus();
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue('1.1');
  await expect(slider).toBeFocused();
  await expect(moe.locator('output').nth(2)).toHaveText('1.1');
  await expect(moe.locator('.result').first()).toHaveText(
    'Kept: experts 0 and 2 with gates 0.711 and 0.289. Skipped: experts 1 and 3 (never run for this token).',
  );

  // k from the select: keep one expert, which then takes the whole gate.
  await moe.getByLabel('Experts kept per token, k').selectOption('1');
  await expect(moe.locator('.result').first()).toHaveText(
    'Kept: expert 0 with gate 1. Skipped: experts 1, 2 and 3 (never run for this token).',
  );
  await expect(moe.getByRole('img', { name: /^Tokens per expert/ })).toHaveAttribute(
    'aria-label',
    'Tokens per expert, 64 tokens, k = 1, seed 0: expert 0 4, expert 1 11, expert 2 11, expert 3 7, expert 4 6, expert 5 14, expert 6 2, expert 7 9',
  );
  expect(problems).toEqual([]);
});

test('a new seed draws another batch', async ({ page }) => {
  const problems = await openPage(page, '/gallery/moe.html');
  const moe = page.locator('tb-moe').first();
  const seed = moe.getByRole('spinbutton', { name: 'Seed' });
  await seed.fill('1');
  await expect(seed).toBeFocused();
  await expect(moe.getByRole('img', { name: /^Tokens per expert/ })).toHaveAttribute(
    'aria-label',
    'Tokens per expert, 64 tokens, k = 2, seed 1: expert 0 17, expert 1 16, expert 2 13, expert 3 17, expert 4 13, expert 5 15, expert 6 20, expert 7 17',
  );
  await expect(moe.locator('.loss')).toHaveText('1');
  await seed.fill('');
  await expect(moe.getByRole('alert')).toHaveText('Seed: type a whole number');
  await seed.fill('0');
  await expect(moe.getByRole('alert')).toBeHidden();
  await expect(moe.locator('.loss')).toHaveText('1.003');
  expect(problems).toEqual([]);
});

test('attributes set the experts and k; bad ones are named and the defaults used', async ({ page }) => {
  const problems = await openPage(page, '/gallery/moe.html');
  const six = page.locator('tb-moe').nth(1);
  await expect(six.getByRole('slider')).toHaveCount(6);
  await expect(six.locator('.result').first()).toHaveText(
    'Kept: experts 0, 1 and 2 with gates 0.629, 0.231 and 0.14. Skipped: experts 3, 4 and 5 (never run for this token).',
  );
  await expect(six.getByRole('img', { name: /^Tokens per expert, 64 tokens, k = 3, seed 7:/ })).toBeVisible();

  const bad = page.locator('tb-moe').nth(2);
  await expect(bad.locator(':scope > *').first()).toBeAttached();
  await expect(bad.getByRole('alert')).toHaveText([
    'experts 0 is out of range: choose 1 to 64',
    'k "lots" is not a whole number; using 2',
  ]);
  await expect(bad.locator('.result').first()).toHaveText(
    'Kept: experts 0 and 1 with gates 0.731 and 0.269. Skipped: experts 2 and 3 (never run for this token).',
  );

  // Changing an attribute later re-renders.
  await bad.evaluate((el) => {
    el.setAttribute('experts', '8');
    el.setAttribute('k', '2');
  });
  await expect(bad.getByRole('alert')).toHaveCount(0);
  await expect(bad.getByRole('slider')).toHaveCount(8);
  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone without sideways scrolling of the page', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await openPage(page, '/gallery/moe.html');
  await expect(page.locator('tb-moe').first().locator('.loss')).toHaveText('1.003');
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
