// <tb-anatomy> with TinyGPT: selecting a part shows its live tensor for the reader's text, from the
// shipped model, with the statistic the part is about (a norm's rows at mean 0 and spread 1, the
// stream's size around each add, the share of hidden units GELU lets through, the heads' maps).
import { test, expect } from '@playwright/test';
import { openPage } from './helpers.js';

async function open(page) {
  const problems = await openPage(page, '/gallery/anatomy.html');
  const widget = page.locator('#tiny');
  const live = widget.getByRole('group', { name: 'Live tensors' });
  await expect(live).toBeVisible();
  return { problems, widget, live };
}

/** The live table's body as text. */
const rows = (live) => live.locator('table.live-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('a norm: every row at mean 0 and spread 1 before the gain, for the text typed', async ({ page }) => {
  const { problems, widget, live } = await open(page);
  await widget.getByRole('option', { name: /^Norm before attention/ }).click();
  await expect(live.locator('h4')).toHaveText('For "the\u2423residual" (12 positions), block 0');
  await expect(live.locator('.statistic')).toContainText('before the gain and bias every row has mean 0 and spread 1');
  let body = await rows(live);
  expect(body).toHaveLength(12);
  for (const [position, , spreadRead, meanAfter, spreadAfter] of body) {
    expect([meanAfter, spreadAfter], position).toEqual(['0.000', '1.000']);
    expect(Number(spreadRead)).toBeGreaterThan(0);
  }
  await live.getByLabel('Text').fill('abc');
  await expect(live.locator('h4')).toHaveText('For "abc" (3 positions), block 0');
  await live.getByLabel('Block', { exact: true }).selectOption('1');
  await expect(live.locator('h4')).toHaveText('For "abc" (3 positions), block 1');
  body = await rows(live);
  expect(body.map((r) => r[0])).toEqual(['1 a', '2 b', '3 c']);
  await expect(live.locator('table.live-table caption')).toHaveText('ln_1 of block 1, row by row');
  // The final norm lives outside the blocks: no block to choose.
  await widget.getByRole('option', { name: /^Final norm/ }).click();
  await expect(live.getByLabel('Block', { exact: true })).toBeHidden();
  await expect(live.locator('table.live-table caption')).toHaveText('ln_f, row by row');
  expect(problems).toEqual([]);
});

test('the stream, GELU, attention and the logits, each with its own figure', async ({ page }) => {
  const { problems, widget, live } = await open(page);
  await widget.getByRole('option', { name: /^Residual stream/ }).click();
  await expect(live.locator('table.live-table thead th')).toHaveText(['Position', 'entering block 0', "after attention's add 0", "after the feed-forward's add 0", "after attention's add 1", "after the feed-forward's add 1"]);
  await widget.getByRole('option', { name: /^GELU/ }).click();
  await expect(live.locator('.statistic')).toHaveText(/^GELU lets \d+% of block 0\u2019s hidden units through over this text/);
  const shares = (await rows(live)).map((r) => Number(r[1]));
  expect(shares).toHaveLength(12);
  for (const x of shares) expect(x >= 0 && x <= 1).toBe(true);
  await widget.getByRole('option', { name: /^Attention/ }).click();
  await expect(live.locator('figure.head-map')).toHaveCount(8);
  await expect(live.getByRole('slider', { name: /^Block 0, head 0:/ })).toBeVisible();
  await widget.getByRole('option', { name: /^Output head/ }).click();
  await expect(live.getByRole('img', { name: /^logits 12 × 50 heatmap/ })).toBeVisible();
  await expect(live.getByRole('img', { name: /^next-character probabilities 12 × 50 heatmap/ })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a text the model cannot read is named and the last tensors stay; other models show no live part', async ({ page }) => {
  const { problems, widget, live } = await open(page);
  await widget.getByRole('option', { name: /^Norm before attention/ }).click();
  await live.getByLabel('Text').fill('far too long for TinyGPT');
  await expect(live.getByRole('alert')).toHaveText('text of 24 characters is out of range: the model reads at most 16 characters at once: shorten it');
  await expect(live.locator('h4')).toHaveText('For "the\u2423residual" (12 positions), block 0');
  await live.getByLabel('Text').fill('ok');
  await expect(live.getByRole('alert')).toBeHidden();
  await expect(page.locator('#default').getByRole('group', { name: 'Live tensors' })).toHaveCount(0);
  // Switching the TinyGPT widget to GPT-2 small takes the live part away, and back brings it again.
  await widget.getByLabel('Model', { exact: true }).selectOption('gpt2-small');
  await expect(widget.getByRole('group', { name: 'Live tensors' })).toHaveCount(0);
  await widget.getByLabel('Model', { exact: true }).selectOption('tiny-gpt');
  await expect(widget.getByRole('group', { name: 'Live tensors' })).toBeVisible();
  expect(problems).toEqual([]);
});
