// <tb-memory>: weight memory per number format and the key/value cache for a batch and a context.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

const open = (page) => openPage(page, '/gallery/memory.html');

/** The cells of the row for one number format: weights, KV per token, KV for B × T. */
function cells(widget, page, dtype) {
  return widget
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: dtype }) })
    .getByRole('cell');
}

test('Llama 3 8B: 128 KiB of KV cache per token in bf16, and its weights in each format', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#llama');
  await expect(widget.getByRole('table', { name: 'Memory of Llama 3 8B: weights and key/value cache' })).toBeVisible();
  await expect(cells(widget, page, 'bf16/fp16 (16 bits)')).toHaveText([
    '15 GiB16,060,522,496 bytes',
    '128 KiB131,072 bytes',
    '1 MiB1,048,576 bytes',
  ]);
  await expect(cells(widget, page, 'fp32 (32 bits)').first()).toHaveText('29.9 GiB32,121,044,992 bytes');
  await expect(cells(widget, page, 'int8 (8 bits)').first()).toHaveText('7.48 GiB8,030,261,248 bytes');
  await expect(cells(widget, page, 'int4 (4 bits)').first()).toHaveText('3.74 GiB4,015,130,624 bytes');
  // The cache follows the key/value heads, not the query heads.
  await expect(widget.locator('.kv-note')).toContainText('for the 8 key/value heads (n_kv_heads), not the 32 query heads');
  expect(problems).toEqual([]);
});

test('the cache grows with T and the batch the reader types', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#llama');
  const seq = widget.getByLabel('Context T (tokens)');
  const batch = widget.getByLabel('Batch B (sequences)');
  await seq.fill('8192');
  await expect(widget.getByRole('columnheader', { name: 'KV cache for B = 1, T = 8,192' })).toBeVisible();
  await expect(cells(widget, page, 'bf16/fp16 (16 bits)').nth(2)).toHaveText('1 GiB1,073,741,824 bytes');
  await batch.fill('4');
  await expect(cells(widget, page, 'bf16/fp16 (16 bits)').nth(2)).toHaveText('4 GiB4,294,967,296 bytes');
  // The weights do not move.
  await expect(cells(widget, page, 'bf16/fp16 (16 bits)').first()).toHaveText('15 GiB16,060,522,496 bytes');

  // GPT-2 small at its full context: 36 MiB of fp16 cache for one sequence.
  const gpt2 = page.locator('#gpt2');
  await gpt2.getByRole('button', { name: 'Use the full context (1,024)' }).click();
  await expect(gpt2.getByLabel('Context T (tokens)')).toHaveValue('1024');
  await expect(cells(gpt2, page, 'bf16/fp16 (16 bits)').nth(1)).toHaveText('36 KiB36,864 bytes');
  await expect(cells(gpt2, page, 'bf16/fp16 (16 bits)').nth(2)).toHaveText('36 MiB37,748,736 bytes');
  await expect(gpt2.locator('.kv-note')).toContainText('every query head has its own key/value head');
  expect(problems).toEqual([]);
});

test('out-of-range input: the library message, and no table for input it was not computed from', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#llama');
  const seq = widget.getByLabel('Context T (tokens)');
  await seq.fill('9000');
  await expect(widget.getByRole('alert')).toHaveText('seq_len 9000 is out of range: Llama 3 8B accepts 1 to 8,192 tokens');
  await expect(widget.getByRole('columnheader', { name: 'KV cache for B = 1, T = 8' })).toBeHidden();
  await widget.getByLabel('Batch B (sequences)').fill('0');
  await seq.fill('16');
  await expect(widget.getByRole('alert')).toHaveText('batch 0 is out of range: allowed is 1 to 65,536');
  await widget.getByLabel('Batch B (sequences)').fill('2');
  await expect(widget.getByRole('alert')).toHaveCount(0);
  await expect(widget.getByRole('columnheader', { name: 'KV cache for B = 2, T = 16' })).toBeVisible();
  await expect(cells(widget, page, 'bf16/fp16 (16 bits)').nth(2)).toHaveText('4 MiB4,194,304 bytes');
  expect(problems).toEqual([]);
});

test('bad attributes name what is allowed and fall back to the defaults', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#bad');
  await expect(widget.getByRole('alert')).toHaveText([
    /^unknown model "gpt-5": choose one of tiny-gpt, gpt2-small/,
    'seq-len "abc" is not a whole number; using 8',
    'batch 0 is out of range: allowed is 1 to 65,536',
  ]);
  await expect(widget.getByRole('table', { name: /Memory of GPT-2 small/ })).toBeVisible();
  await expect(widget.getByLabel('Batch B (sequences)')).toHaveValue('1');
  await expect(widget.getByLabel('Context T (tokens)')).toHaveValue('8');
  await expect(cells(widget, page, 'fp32 (32 bits)').first()).toHaveText('475 MiB497,759,232 bytes');

  await widget.evaluate((el) => {
    el.setAttribute('model', 'llama3-8b');
    el.setAttribute('batch', '1');
    el.setAttribute('seq-len', '8');
  });
  await expect(widget.getByRole('alert')).toHaveCount(0);
  await expect(cells(widget, page, 'bf16/fp16 (16 bits)').nth(1)).toHaveText('128 KiB131,072 bytes');
  expect(problems).toEqual([]);
});

test('at 360px the page does not scroll sideways and every figure is in view, one card per format', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await open(page);
  const table = page.locator('#llama').getByRole('table');
  await expect(table).toBeVisible();
  const overflow = await pageOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await table.evaluate((el) => el.parentElement.scrollWidth - el.parentElement.clientWidth)).toBeLessThanOrEqual(0);
  const cells = table.locator('td');
  expect(await cells.count()).toBeGreaterThan(8);
  for (const box of await cells.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(360);
  }
  expect(problems).toEqual([]);
});
