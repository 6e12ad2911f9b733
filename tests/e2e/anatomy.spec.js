// <tb-anatomy>: the "select any part" diagram, driven as a reader would (keyboard, pointer, the
// model switcher and the sequence-length control), asserting the lesson's numbers as shown.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

const PAGE = '/gallery/anatomy.html';

/** A diagram part is named by every text it draws, its label first: "Attention 2.36M per block WQ …". */
const partName = (label) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([:,]? |$)`);

/** Opens the gallery page (recording problems), and waits for the diagram. */
async function open(page) {
  const problems = await openPage(page, PAGE);
  const widget = page.locator('#default');
  await expect(widget.getByRole('option', { name: partName('Attention') })).toBeVisible();
  return { problems, widget };
}

const details = (widget) => widget.getByRole('group', { name: 'Selected part' });
const headline = (widget) => widget.locator('dl.headline');
const legendItem = (widget, name) => widget.getByRole('list', { name: 'Parameters by group' }).getByRole('listitem').filter({ hasText: name });

test('keyboard: Tab to the diagram, arrows between parts, Enter selects; attention in GPT-2 small', async ({ page }) => {
  const { problems, widget } = await open(page);
  const diagram = widget.getByRole('listbox', { name: 'Parts of GPT-2 small' });
  await expect(diagram).toBeVisible();

  // Tab order: model, slider, number field, then the diagram as one stop, on the selected part.
  await widget.getByLabel('Model', { exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('slider', { name: 'Sequence length T' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const attention = diagram.getByRole('option', { name: partName('Attention') });
  await expect(attention).toBeFocused();
  await expect(attention).toHaveAttribute('aria-selected', 'true');

  // Up to the norm, select it; its numbers show.
  await page.keyboard.press('ArrowUp');
  const norm = diagram.getByRole('option', { name: partName('Norm before attention') });
  await expect(norm).toBeFocused();
  await expect(norm).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('Enter');
  await expect(norm).toHaveAttribute('aria-selected', 'true');
  await expect(attention).toHaveAttribute('aria-selected', 'false');
  await expect(details(widget).getByRole('heading', { level: 3 })).toHaveText('Norm before attention');
  await expect(details(widget)).toContainText('1,536 parameters per block, 18,432 across all 12 blocks');

  // Back down to attention and select it with Space.
  await page.keyboard.press('ArrowDown');
  await expect(attention).toBeFocused();
  await page.keyboard.press(' ');
  await expect(attention).toHaveAttribute('aria-selected', 'true');
  const panel = details(widget);
  await expect(panel.getByRole('heading', { level: 3 })).toHaveText('Attention');
  await expect(panel).toContainText('2,362,368 parameters per block, 28,348,416 across all 12 blocks, 23% of the model.');
  for (const w of ['W_Q', 'W_K', 'W_V', 'W_O']) await expect(panel).toContainText(`${w} 768 × 768 (d × d)`);
  await expect(panel).toContainText('Attention output 1 × 8 × 768 (B × T × d)');

  // Only one Tab stop: Tab leaves the diagram.
  await page.keyboard.press('Tab');
  await expect(attention).not.toBeFocused();
  await expect(diagram.locator('[tabindex="0"]')).toHaveCount(1);

  // The headline figures.
  await expect(headline(widget)).toContainText('Parameters124,439,808 (124M)');
  await expect(headline(widget)).toContainText('Without embeddings85,056,000 (85.1M)');
  await expect(headline(widget)).toContainText('Forward FLOPs per token at T = 80.248 G');
  expect(problems).toEqual([]);
});

test('every part is selectable; parameter-free parts say they hold none', async ({ page }) => {
  const { problems, widget } = await open(page);
  const diagram = widget.getByRole('listbox');
  await expect(diagram.getByRole('option')).toHaveCount(14);
  const names = await diagram.getByRole('option').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
  // Each part is named by its label and the figures it shows (what is seen is what is said).
  expect(names).toEqual([
    'Token table 38.6M V×d',
    'Position table 786K P×d',
    'Residual stream, 8 × 768',
    'Norm before attention 1.54K',
    'Attention 2.36M per block WQ WK WV WO',
    'Scores per head 8 × 8',
    "Add attention's output",
    'Norm before the feed-forward 1.54K per block',
    'Feed-forward 4.72M W1 W2',
    'GELU activation: GELU no parameters',
    "Add the feed-forward's output",
    'Final norm 1.54K',
    'Output head tied: the token table Wout',
    'Logits 8 × 50,257, no parameters',
  ]);

  // On its label: the activation's box sits inside it, over its middle.
  await diagram.getByRole('option', { name: partName('Feed-forward') }).click({ position: { x: 30, y: 14 } });
  await expect(details(widget)).toContainText('4,722,432 parameters per block, 56,669,184 across all 12 blocks, 46% of the model.');
  await expect(details(widget)).toContainText('W_1 768 × 3,072 (d × 4d)');

  for (const name of ['Scores', 'GELU activation', "Add attention's output", "Add the feed-forward's output", 'Logits', 'Residual stream']) {
    await diagram.getByRole('option', { name: partName(name) }).click();
    await expect(diagram.getByRole('option', { name: partName(name) })).toHaveAttribute('aria-selected', 'true');
    await expect(details(widget).getByRole('heading', { level: 3 })).toHaveText(name);
    await expect(details(widget)).toContainText('This part holds no parameters');
  }
  await diagram.getByRole('option', { name: partName('Output head') }).click();
  await expect(details(widget)).toContainText('No parameters of its own: it reads the token table (38,597,376 parameters');
  await diagram.getByRole('option', { name: partName('Token table') }).click();
  await expect(details(widget)).toContainText('38,597,376 parameters, 31% of the model.');
  expect(problems).toEqual([]);
});

test('dragging T to 1,024 changes no parameter count; the scores grow to 1,024 × 1,024', async ({ page }) => {
  const { problems, widget } = await open(page);
  const diagram = widget.getByRole('listbox');
  await diagram.getByRole('option', { name: partName('Scores') }).click();
  await expect(details(widget)).toContainText('Scores, per head 8 × 8 (T × T)');
  await expect(details(widget)).toContainText('Scores, all heads 1 × 12 × 8 × 8 (B × h × T × T)');

  const slider = widget.getByRole('slider', { name: 'Sequence length T' });
  await slider.focus();
  await page.keyboard.press('End'); // the slider's end: GPT-2's context
  await expect(widget.getByLabel('Sequence length T (tokens)')).toHaveValue('1024');
  await expect(details(widget)).toContainText('Scores, per head 1,024 × 1,024 (T × T)');
  await expect(details(widget)).toContainText('Scores, all heads 1 × 12 × 1,024 × 1,024 (B × h × T × T)');
  await expect(diagram.getByRole('option', { name: partName('Scores') })).toHaveAccessibleName('Scores per head 1,024 × 1,024');
  await expect(headline(widget)).toContainText('Parameters124,439,808 (124M)');
  await expect(headline(widget)).toContainText('Forward FLOPs per token at T = 1,024');

  // Attention's parameters have not moved either.
  await diagram.getByRole('option', { name: partName('Attention') }).click();
  await expect(details(widget)).toContainText('2,362,368 parameters per block, 28,348,416 across all 12 blocks, 23% of the model.');
  await expect(details(widget)).toContainText('Activations at T = 1,024');

  // Typing a T past the context: the library says what is allowed, the widget keeps the last good T.
  const field = widget.getByLabel('Sequence length T (tokens)');
  await field.fill('5000');
  await field.press('Enter');
  await expect(widget.getByRole('alert')).toContainText('seq_len 5000 is out of range: GPT-2 small accepts 1 to 1,024 tokens');
  await expect(details(widget)).toContainText('Activations at T = 1,024');
  await field.fill('16');
  await field.press('Enter');
  await expect(widget.getByRole('alert')).toBeHidden();
  await expect(details(widget)).toContainText('Activations at T = 16');
  expect(problems).toEqual([]);
});

test('Llama 3 8B: W_K narrower than W_Q, and why', async ({ page }) => {
  const { problems, widget } = await open(page);
  await widget.getByLabel('Model', { exact: true }).selectOption({ label: 'Llama 3 8B' });
  const diagram = widget.getByRole('listbox', { name: 'Parts of Llama 3 8B' });
  await expect(diagram).toBeVisible();
  // rotary: no position table to select
  await expect(diagram.getByRole('option', { name: partName('Position table') })).toHaveCount(0);
  await expect(diagram).toContainText('Rotary positions: no parameters');
  await expect(diagram).toContainText('31 more blocks like this');

  await diagram.getByRole('option', { name: partName('Attention') }).click();
  const panel = details(widget);
  await expect(panel).toContainText('W_Q 4,096 × 4,096 (d × d)');
  await expect(panel).toContainText('W_K 4,096 × 1,024 (d × d_kv)');
  await expect(panel).toContainText('W_V 4,096 × 1,024 (d × d_kv)');
  await expect(panel).toContainText('Why W_K and W_V are narrower than W_Q');
  await expect(panel).toContainText('32 query heads share 8 key/value heads');
  await expect(panel).toContainText('KV cache');
  await expect(panel).toContainText('41,943,040 parameters per block, 1,342,177,280 across all 32 blocks, 17% of the model.');

  // SwiGLU: three matrices and the activation named for it
  await diagram.getByRole('option', { name: partName('Feed-forward') }).click();
  await expect(panel).toContainText('W_gate 4,096 × 14,336 (d × f)');
  await expect(panel).toContainText('W_down 14,336 × 4,096 (f × d)');
  await expect(diagram.getByRole('option', { name: partName('SwiGLU activation') })).toHaveCount(1);
  await expect(headline(widget)).toContainText('Parameters8,030,261,248 (8.03B)');
  expect(problems).toEqual([]);
});

test('breakdown: embeddings about a third of GPT-2 small, a few percent of Llama 3 70B', async ({ page }) => {
  const { problems, widget } = await open(page);
  await expect(widget.getByRole('heading', { name: 'Where GPT-2 small’s 124,439,808 parameters live' })).toBeVisible();
  await expect(legendItem(widget, 'Embeddings')).toHaveText('Embeddings 39.4M, 32%');
  await expect(legendItem(widget, 'Attention')).toHaveText('Attention 28.3M, 23%');
  await expect(legendItem(widget, 'Feed-forward')).toHaveText('Feed-forward 56.7M, 46%');
  await expect(legendItem(widget, 'Norms')).toHaveText('Norms 38.4K, under 0.1%');
  await expect(legendItem(widget, 'Output head')).toHaveCount(0); // tied: no group of its own

  // The bar's segments are as wide as the shares.
  const bar = widget.locator('svg.breakdown-bar');
  const widths = await bar.locator('rect').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('width'))));
  expect(widths.length).toBe(4);
  expect(Math.abs(widths.reduce((a, b) => a + b, 0) - 1000)).toBeLessThan(1e-6);
  expect(widths[0]).toBeGreaterThan(310);
  expect(widths[0]).toBeLessThan(320);

  await widget.getByLabel('Model', { exact: true }).selectOption({ label: 'Llama 3 70B' });
  await expect(widget.getByRole('heading', { name: 'Where Llama 3 70B’s 70,553,706,496 parameters live' })).toBeVisible();
  await expect(legendItem(widget, 'Embeddings')).toHaveText('Embeddings 1.05B, 1.5%');
  await expect(legendItem(widget, 'Output head')).toHaveText('Output head 1.05B, 1.5%');
  // embeddings and the separate unembedding together: about 3%
  const shown = await Promise.all(
    ['Embeddings', 'Output head'].map(async (name) => Number(/([\d.]+)%$/.exec(await legendItem(widget, name).textContent())[1])),
  );
  expect(shown[0] + shown[1]).toBeCloseTo(3, 5);
  await expect(headline(widget)).toContainText('Parameters70,553,706,496 (70.6B)');
  expect(problems).toEqual([]);
});

test('Mixtral: a router, experts, and fewer parameters used per token', async ({ page }) => {
  const { problems } = await open(page);
  const widget = page.locator('#mixtral');
  const diagram = widget.getByRole('listbox', { name: 'Parts of Mixtral 8x7B' });
  await diagram.getByRole('option', { name: partName('Router') }).click();
  await expect(details(widget)).toContainText('W_router 4,096 × 8 (d × E)');
  await diagram.getByRole('option', { name: partName('Feed-forward') }).click();
  await expect(details(widget)).toContainText('W_gate (each expert) 4,096 × 14,336 (d × f), 8 copies, 2 used per token');
  await expect(details(widget)).toContainText(
    '1,409,286,144 parameters per block, 45,097,156,608 across all 32 blocks, 97% of the model. Any one token uses 352,321,536 of them per block, 11,274,289,152 in all.',
  );
  await expect(headline(widget)).toContainText('Used per token12,879,925,248 (12.9B)');
  await expect(legendItem(widget, 'Router')).toHaveText('Router 1.05M, under 0.1%');
  expect(problems).toEqual([]);
});

test('bad attributes: a message from the library, and the widget still works', async ({ page }) => {
  const { problems } = await open(page);
  const widget = page.locator('#bad');
  const alerts = widget.locator(':scope > .error[data-message]');
  await expect(alerts).toHaveCount(2);
  await expect(alerts.nth(0)).toContainText('unknown model "nope": choose one of tiny-gpt, gpt2-small, gpt2-medium');
  await expect(alerts.nth(0)).toContainText('mixtral-8x7b');
  await expect(alerts.nth(1)).toHaveText('seq-len "abc" is not a whole number; using 8');
  await expect(widget.getByLabel('Model', { exact: true })).toHaveValue('gpt2-small');
  await expect(widget.getByLabel('Sequence length T (tokens)')).toHaveValue('8');
  await widget.getByRole('option', { name: partName('Attention') }).click();
  await expect(details(widget)).toContainText('2,362,368 parameters per block, 28,348,416 across all 12 blocks, 23% of the model.');

  // seq-len past the context: clamped to it; 0: back to 8; fixing the attribute clears the messages.
  await widget.evaluate((el) => {
    el.setAttribute('model', 'gpt2-small');
    el.setAttribute('seq-len', '5000');
  });
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toHaveText('seq_len 5000 is out of range: GPT-2 small accepts 1 to 1,024 tokens; showing T = 1,024.');
  await expect(widget.getByLabel('Sequence length T (tokens)')).toHaveValue('1024');
  await widget.evaluate((el) => el.setAttribute('seq-len', '0'));
  await expect(alerts).toHaveText('seq_len 0 is out of range: GPT-2 small accepts 1 to 1,024 tokens; showing T = 8.');
  await expect(widget.getByLabel('Sequence length T (tokens)')).toHaveValue('8');
  await widget.evaluate((el) => el.setAttribute('seq-len', '64'));
  await expect(alerts).toHaveCount(0);
  await expect(widget.getByLabel('Sequence length T (tokens)')).toHaveValue('64');
  await widget.evaluate((el) => el.setAttribute('model', 'llama3-8b'));
  await expect(widget.getByRole('listbox', { name: 'Parts of Llama 3 8B' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone without sideways scrolling, in dark mode too', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const { problems, widget } = await open(page);
  await widget.getByRole('option', { name: partName('Attention') }).click();
  await page.locator('#mixtral').getByRole('option', { name: partName('Feed-forward') }).click();
  const overflow = await pageOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await widget.getByRole('listbox').boundingBox();
  expect(box.width).toBeLessThanOrEqual(360);
  expect(problems).toEqual([]);
});
