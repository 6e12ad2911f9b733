// <tb-cost-chart>: forward FLOPs per token and attention's share against T, with a cursor that
// follows the sequence-length control and a drag on the chart.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

const open = (page) => openPage(page, '/gallery/cost-chart.html');

function controls(widget) {
  return {
    slider: widget.getByRole('slider', { name: 'Sequence length T' }),
    field: widget.getByRole('spinbutton', { name: 'Sequence length T (tokens)' }),
    readout: widget.locator('.readout'),
    chart: widget.getByRole('img'),
  };
}

test('GPT-2 small at T = 1,024: 285 M FLOPs per token, attention 18% of a block', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#gpt2');
  const { field, slider, readout } = controls(widget);
  await expect(readout).toHaveText(
    "At T = 8: 248 MFLOPs per token forward (parameters 247 M, attention 295 k); attention is 0.2% of one block's arithmetic.",
  );
  await field.fill('1024');
  await field.press('Enter');
  await expect(readout).toHaveText(
    "At T = 1,024: 285 MFLOPs per token forward (parameters 247 M, attention 37.7 M); attention is 18% of one block's arithmetic.",
  );
  await expect(slider).toHaveValue('1024');
  await expect(readout).toHaveAttribute('aria-live', 'polite');
  expect(problems).toEqual([]);
});

test('the crossover at 6d = 4,608 is past the context, and the page says so', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#gpt2');
  await expect(widget.getByText('Attention would pass the linear layers at T = 4,608, past the 1,024 tokens GPT-2 small accepts.')).toBeVisible();
  await expect(widget.locator('svg .crossover text')).toHaveText('crossover at T = 4,608');
  const chart = controls(widget).chart;
  await expect(chart).toHaveAttribute('aria-label', /GPT-2 small.*285 M at T = 1,024.*to 18%/);

  const llama = page.locator('#llama');
  await expect(llama.getByText('Attention would pass the linear layers at T = 26,624, past the 8,192 tokens Llama 3 8B accepts.')).toBeVisible();
  await expect(controls(llama).readout).toContainText('At T = 1,024: 15.5 GFLOPs');
  expect(problems).toEqual([]);
});

test('the log axis has labelled ticks at powers of 2, the y axes SI and percent labels', async ({ page }) => {
  const problems = await open(page);
  const svg = page.locator('#gpt2 svg.cost-chart');
  await expect(svg.locator('.x-axis').first().locator('text')).toHaveText([
    '1', '2', '4', '8', '16', '32', '64', '128', '256', '512', '1,024', 'T (tokens, log scale)',
  ]);
  await expect(svg.locator('.y-axis').first().locator('text')).toHaveText(['0', '100 M', '200 M', '300 M']);
  await expect(svg.locator('.y-axis').nth(1).locator('text')).toHaveText(['0%', '25%', '50%', '75%', '100%']);
  expect(problems).toEqual([]);
});

test('dragging on the chart moves T; the field and slider follow', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#gpt2');
  const { field, slider, readout, chart } = controls(widget);
  const box = await chart.boundingBox();
  const y = box.y + box.height / 2;

  // Press near the left, drag past the right edge: T is clamped at the context.
  await page.mouse.move(box.x + 70, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, y, { steps: 4 });
  const middle = Number(await field.inputValue());
  expect(middle).toBeGreaterThan(8);
  expect(middle).toBeLessThan(1024);
  await page.mouse.move(box.x + box.width + 40, y, { steps: 4 });
  await page.mouse.up();
  await expect(field).toHaveValue('1024');
  await expect(slider).toHaveValue('1024');
  await expect(readout).toContainText('At T = 1,024: 285 MFLOPs');
  await expect(readout).toContainText('attention is 18%');

  // Halfway along the log axis from 1 to 1,024 is T = 32.
  // The ticks sit at percentages of the plot, which is the <svg>'s box.
  const layout = await chart.evaluate((svg) => {
    const ticks = [...svg.querySelectorAll('.x-axis')[0].querySelectorAll('text')];
    const x = (label) => parseFloat(ticks.find((t) => t.textContent === label).getAttribute('x')) / 100;
    return { x1: x('1'), x1024: x('1,024') };
  });
  expect(layout).toEqual({ x1: 0, x1024: 1 });
  await page.mouse.move(box.x + ((layout.x1 + layout.x1024) / 2) * box.width, y);
  await page.mouse.down();
  await page.mouse.up();
  await expect(field).toHaveValue('32');
  await expect(readout).toContainText('At T = 32:');
  expect(problems).toEqual([]);
});

test('the slider moves the cursor from the keyboard', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#gpt2');
  const { field, slider, readout } = controls(widget);
  const cursor = widget.locator('svg .cursor-line');
  const cursorX = async () => Number((await cursor.getAttribute('d')).match(/^M([\d.]+),/)[1]);
  const before = await cursorX();
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(field).toHaveValue('9');
  await expect(readout).toContainText('At T = 9:');
  const after = await cursorX();
  expect(after).toBeGreaterThan(before);
  await page.keyboard.press('End');
  await expect(readout).toContainText('At T = 1,024: 285 MFLOPs');
  expect(problems).toEqual([]);
});

test('bad attributes and bad input show the library message; the chart keeps working', async ({ page }) => {
  const problems = await open(page);
  const tooLong = page.locator('#bad-len');
  await expect(tooLong.getByRole('alert')).toHaveText('seq_len 5000 is out of range: GPT-2 small accepts 1 to 1,024 tokens');
  await expect(controls(tooLong).field).toHaveValue('8');
  await expect(controls(tooLong).readout).toContainText('At T = 8: 248 MFLOPs');

  const badModel = page.locator('#bad-model');
  await expect(badModel.getByRole('alert')).toHaveText([
    /^unknown model "gpt-5": choose one of tiny-gpt, gpt2-small/,
    'seq-len "abc" is not a whole number; using 8',
  ]);
  await expect(badModel.getByRole('heading')).toHaveText('What a token costs in GPT-2 small');

  // A reader types 0: the message says what is allowed; the readout keeps the last good T.
  const { field, readout } = controls(page.locator('#gpt2'));
  await field.fill('0');
  await field.press('Enter');
  await expect(page.locator('#gpt2').getByRole('alert')).toHaveText('seq_len 0 is out of range: GPT-2 small accepts 1 to 1,024 tokens');
  await expect(readout).toContainText('At T = 8:');
  await field.fill('64');
  await field.press('Enter');
  await expect(page.locator('#gpt2').getByRole('alert')).toHaveCount(0);
  await expect(readout).toContainText('At T = 64:');

  // Changing the attribute re-renders.
  await badModel.evaluate((el) => {
    el.setAttribute('model', 'tiny-gpt');
    el.setAttribute('seq-len', '16');
  });
  await expect(badModel.getByRole('alert')).toHaveCount(0);
  await expect(badModel.getByRole('heading')).toHaveText('What a token costs in TinyGPT');
  await expect(controls(badModel).field).toHaveValue('16');
  expect(problems).toEqual([]);
});

test('at 360px the page does not scroll sideways and the chart fits', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await open(page);
  const chart = controls(page.locator('#gpt2')).chart;
  await expect(chart).toBeVisible();
  const overflow = await pageOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await chart.boundingBox();
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(problems).toEqual([]);
});
