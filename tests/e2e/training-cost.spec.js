// <tb-training-cost>: 6·N·D and the hours it takes, preset to nanoGPT's GPT-2 run.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

const open = (page) => openPage(page, '/gallery/training-cost.html');

test("nanoGPT's GPT-2 run: 2.2 × 10²⁰ FLOPs, about 195 hours of one A100 at peak", async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#nanogpt');
  await expect(widget.getByLabel('N, parameters')).toHaveValue('123,653,376');
  await expect(widget.getByLabel('Tokens per iteration')).toHaveValue('491,520');
  await expect(widget.getByLabel('Iterations')).toHaveValue('600,000');
  await expect(widget.getByLabel('Peak, TFLOP/s')).toHaveValue('312');
  await expect(widget.getByLabel('Utilisation (fraction of peak)')).toHaveValue('1');
  const result = widget.locator('.result');
  await expect(result).toHaveAttribute('aria-live', 'polite');
  await expect(result.locator('.tokens')).toHaveText('D = 2.95 × 10¹¹ tokens');
  await expect(result.locator('.flops')).toHaveText('6·N·D = 2.2 × 10²⁰ FLOPs');
  await expect(result.locator('.time')).toHaveText(
    'About 195 hours (8.1 days) of one accelerator at 312 TFLOP/s and utilisation 1.',
  );
  await expect(widget.getByRole('alert')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the result follows what the reader types', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#nanogpt');
  const time = widget.locator('.result .time');
  await widget.getByLabel('Utilisation (fraction of peak)').fill('0.5');
  await expect(time).toHaveText('About 390 hours (16 days) of one accelerator at 312 TFLOP/s and utilisation 0.5.');
  await widget.getByLabel('Iterations').fill('1,200,000');
  await expect(widget.locator('.result .tokens')).toHaveText('D = 5.9 × 10¹¹ tokens');
  await expect(widget.locator('.result .flops')).toHaveText('6·N·D = 4.4 × 10²⁰ FLOPs');
  await widget.getByLabel('N, parameters').fill('7e9');
  await widget.getByLabel('Peak, TFLOP/s').fill('989');
  await expect(widget.locator('.result .flops')).toHaveText('6·N·D = 2.5 × 10²² FLOPs');
  await expect(time).toContainText('at 989 TFLOP/s and utilisation 0.5.');
  expect(problems).toEqual([]);
});

test('a bad number says what is wrong, and no result stands beside input it was not computed from', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#nanogpt');
  const utilisation = widget.getByLabel('Utilisation (fraction of peak)');
  await utilisation.fill('2');
  await expect(widget.getByRole('alert')).toHaveText(
    'utilisation 2 is out of range: it is a fraction of peak, above 0 and at most 1',
  );
  await expect(widget.locator('.result')).toBeHidden();
  await utilisation.fill('1');
  await expect(widget.locator('.result .time')).toContainText('About 195 hours');
  await expect(widget.getByRole('alert')).toHaveCount(0);
  await widget.getByLabel('Iterations').fill('many');
  await expect(widget.getByRole('alert')).toHaveText(/^Iterations "many" is not a number/);
  await widget.getByLabel('N, parameters').fill('0');
  await widget.getByLabel('Iterations').fill('600000');
  await expect(widget.getByRole('alert')).toHaveText('parameters 0 is out of range: it must be a whole number of at least 1');
  await expect(widget.locator('.result')).toBeHidden();
  // Valid but enormous: the numbers come in scientific notation; past what a double holds, a message.
  const n = widget.getByLabel('N, parameters');
  await n.fill('1e200');
  await expect(widget.locator('.result .time')).toContainText(/About \d[\d.]* × 10\S+ hours \([\d.]+ × 10\S+ years\)/);
  expect((await widget.locator('.result').textContent()).length).toBeLessThan(400);
  await n.fill('1e300');
  await expect(widget.getByRole('alert')).toHaveText(/^6·N·D: N × D is too large to compute/);
  await expect(widget.locator('.result')).toBeHidden();
  await n.fill('124,000,000');
  await expect(widget.getByRole('alert')).toHaveCount(0);
  await expect(widget.locator('.result .flops')).toHaveText('6·N·D = 2.2 × 10²⁰ FLOPs');
  expect(problems).toEqual([]);
});

test('a fraction of a token or of an iteration is refused; a vast peak gives a time in scientific notation', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#nanogpt');
  const tokens = widget.getByLabel('Tokens per iteration');
  await tokens.fill('1e-320');
  await expect(widget.getByRole('alert')).toHaveText(
    'tokens per iteration 1e-320 is out of range: it counts whole things: give a whole number of at least 1',
  );
  await expect(widget.locator('.result')).toBeHidden();
  await tokens.fill('491,520');
  await widget.getByLabel('Iterations').fill('2.5');
  await expect(widget.getByRole('alert')).toHaveText('iterations 2.5 is out of range: it counts whole things: give a whole number of at least 1');
  await widget.getByLabel('Iterations').fill('600000');
  await widget.getByLabel('Peak, TFLOP/s').fill('1e200');
  const time = widget.locator('.result .time');
  await expect(time).toHaveText(/^About 6\.08 × 10⁻¹⁹⁶ hours of one accelerator at 1 × 10²⁰⁰ TFLOP\/s and utilisation 1\.$/);
  expect((await widget.locator('.result').textContent()).length).toBeLessThan(200);
  expect(problems).toEqual([]);
});

test('bad attributes are named and the defaults used', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#bad');
  await expect(widget.getByRole('alert')).toHaveText([
    'iterations "lots" is not a number: type digits, like 491,520 or 1.2e20; using 600,000',
    "utilisation 2 is out of range: it is a fraction of peak, above 0 and at most 1; using nanoGPT's run instead",
  ]);
  await expect(widget.locator('.result .flops')).toHaveText('6·N·D = 2.2 × 10²⁰ FLOPs');
  await widget.evaluate((el) => {
    el.removeAttribute('iterations');
    el.setAttribute('utilisation', '0.25');
  });
  await expect(widget.getByRole('alert')).toHaveCount(0);
  await expect(widget.locator('.result .time')).toHaveText(
    'About 779 hours (32 days) of one accelerator at 312 TFLOP/s and utilisation 0.25.',
  );
  expect(problems).toEqual([]);
});

test('at 360px the page does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await open(page);
  await expect(page.locator('#nanogpt .result .flops')).toBeVisible();
  const overflow = await pageOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
