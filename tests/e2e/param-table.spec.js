// <tb-param-table>: the count table of a model, part by part, with Kaplan's 12·L·d² beside it.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

const open = (page) => openPage(page, '/gallery/param-table.html');

/** The row whose header is `name`, and its data cells. */
function row(table, page, name) {
  return table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

test('GPT-2 small: every part with its formula and count, the totals and Kaplan', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#gpt2');
  const table = widget.getByRole('table', { name: 'Parameters of GPT-2 small, part by part' });
  await expect(table).toBeVisible();

  // Formula, per block, in the model, share.
  const expected = {
    'Token table': ['V·d', '—', '38,597,376', '31%'],
    'Position table': ['P·d', '—', '786,432', '0.6%'],
    'Norm before attention': ['2d', '1,536', '18,432', 'under 0.1%'],
    Attention: ['4d² + 4d', '2,362,368', '28,348,416', '23%'],
    'Norm before the feed-forward': ['2d', '1,536', '18,432', 'under 0.1%'],
    'Feed-forward': ['8d² + 5d', '4,722,432', '56,669,184', '46%'],
    'Final norm': ['2d', '—', '1,536', 'under 0.1%'],
    'Output head': ['0 (tied to the token table)', '—', 'tied (0)', '0%'],
    'One block': ['the per-block rows', '7,087,872', '', ''],
    'All 12 blocks': ['L × one block', '', '85,054,464', ''],
    'Without embeddings': ['total − tables', '', '85,056,000', ''],
    Total: ['', '', '124,439,808', '100%'],
    "Kaplan's estimate": ['12·L·d²', '', '84,934,656', '0.1% below the count without embeddings'],
  };
  for (const [name, cells] of Object.entries(expected)) {
    await expect(row(table, page, name).getByRole('cell'), name).toHaveText(cells);
  }
  await expect(table.locator('tbody tr')).toHaveCount(8);

  await expect(widget.getByText(/12·L·d² \+ V·d leaves out 0\.7% of the total/)).toBeVisible();
  await expect(widget.getByText(/12·L·d² \+ V·d = 123,532,032/)).toBeVisible();
  // The symbols, with this model's values.
  await expect(widget.locator('dl')).toContainText('vocabulary size, 50,257');
  await expect(widget.locator('dl')).toContainText('n_kv_heads × d_head = 12 × 64');
  await expect(widget.getByRole('alert')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('Llama 3 8B: grouped key/value heads in the attention formula, an untied output head', async ({ page }) => {
  const problems = await open(page);
  const table = page.locator('#llama').getByRole('table', { name: 'Parameters of Llama 3 8B, part by part' });
  await expect(row(table, page, 'Attention').getByRole('cell')).toHaveText(['2d² + 2d·d_kv', '41,943,040', '1,342,177,280', '17%']);
  await expect(row(table, page, 'Feed-forward').getByRole('cell')).toHaveText(['3d·f', '176,160,768', '5,637,144,576', '70%']);
  await expect(row(table, page, 'Norm before attention').getByRole('cell').first()).toHaveText('d');
  await expect(row(table, page, 'Output head').getByRole('cell')).toHaveText(['V·d', '—', '525,336,576', '7%']);
  await expect(row(table, page, 'Total').getByRole('cell').nth(2)).toHaveText('8,030,261,248');
  // Rotary positions: no position table row.
  await expect(row(table, page, 'Position table')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('Mixtral: the router, experts in the formula, and the parameters a token uses', async ({ page }) => {
  const problems = await open(page);
  const table = page.locator('#mixtral').getByRole('table', { name: /Mixtral 8x7B/ });
  await expect(row(table, page, 'Router').getByRole('cell').first()).toHaveText('E·d');
  await expect(row(table, page, 'Feed-forward').getByRole('cell').first()).toHaveText('3E·d·f');
  await expect(row(table, page, 'Total').getByRole('cell').nth(2)).toHaveText('46,702,792,704');
  await expect(row(table, page, 'Used per token (2 of 8 experts)').getByRole('cell').nth(2)).toHaveText('12,879,925,248');
  expect(problems).toEqual([]);
});

test('every tensor in a second view', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#gpt2');
  const tensors = widget.getByRole('table', { name: 'Tensors of GPT-2 small' });
  await expect(tensors).toBeHidden();
  await widget.getByText('Every tensor of GPT-2 small').click();
  await expect(tensors).toBeVisible();
  await expect(row(tensors, page, 'W_Q').getByRole('cell')).toHaveText(['d × d = 768 × 768', 'd²', '589,824', '7,077,888']);
  await expect(row(tensors, page, 'W_1').getByRole('cell')).toHaveText(['d × 4d = 768 × 3,072', '4d²', '2,359,296', '28,311,552']);
  await expect(row(tensors, page, 'W_out').getByRole('cell').nth(3)).toHaveText('tied (0)');
  expect(problems).toEqual([]);
});

test('a bad model says what is allowed, shows GPT-2 small, and recovers when the attribute changes', async ({ page }) => {
  const problems = await open(page);
  const widget = page.locator('#bad');
  await expect(widget.getByRole('alert')).toContainText('unknown model "gpt-5": choose one of tiny-gpt, gpt2-small');
  const table = widget.getByRole('table', { name: 'Parameters of GPT-2 small, part by part' });
  await expect(row(table, page, 'Total').getByRole('cell').nth(2)).toHaveText('124,439,808');

  await widget.evaluate((el) => el.setAttribute('model', 'tiny-gpt'));
  await expect(widget.getByRole('alert')).toHaveCount(0);
  const tiny = widget.getByRole('table', { name: 'Parameters of TinyGPT, part by part' });
  await expect(row(tiny, page, 'Total').getByRole('cell').nth(2)).toHaveText('27,328');
  await expect(row(tiny, page, 'One block').getByRole('cell').nth(1)).toHaveText('12,576');
  expect(problems).toEqual([]);
});

test('at 360px every count is in view: each row a card, nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await open(page);
  await expect(page.locator('#llama').getByRole('table').first()).toBeVisible();
  const overflow = await pageOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  const region = page.locator('#gpt2').getByRole('group', { name: /Parameters of GPT-2 small/ });
  expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  // The total and the attention row's counts, each labelled by its column, inside the screen.
  const total = region.locator('tr.total td.in-model');
  await expect(total).toHaveText('124,439,808');
  await expect(total).toHaveAttribute('data-label', 'In the model');
  for (const cell of [total, region.locator('tr[data-part="attention"] td.per-block')]) {
    const box = await cell.boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
  }
  expect(problems).toEqual([]);
});
