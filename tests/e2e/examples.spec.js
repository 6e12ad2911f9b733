// <tb-example>: every worked example shows the lessons' numbers, computed by the wasm, and
// recomputes as the reader types.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow } from './helpers.js';

const example = (page, name) => page.locator(`tb-example[name="${name}"]`);

test('every example shows the lessons\u2019 numbers by default', async ({ page }) => {
  const problems = await openPage(page, '/gallery/examples.html');

  const residual = example(page, 'residual');
  await expect(residual.locator('.steps li')).toHaveText([
    'x (1, 2)',
    '+ attention (0.1, -0.3) = (1.1, 1.7)',
    '+ feed-forward (-0.2, 0.4) = (0.9, 2.1)',
  ]);
  await expect(residual.locator('.result')).toContainText('changes its input by at most 0:');

  const layernorm = example(page, 'layernorm');
  await expect(layernorm.locator('.steps li')).toHaveText([
    'mean μ = 2.5',
    'variance σ² = 1.25',
    'spread √(σ² + ε) = 1.118',
    'centred x − μ = (-1.5, -0.5, 0.5, 1.5)',
    'output (x − μ) / spread = (-1.342, -0.447, 0.447, 1.342)',
  ]);
  await expect(layernorm.locator('.result')).toContainText('times 100 normalises to (-1.342, -0.447, 0.447, 1.342)');

  const gelu = example(page, 'gelu');
  await expect(gelu.locator('tbody th')).toHaveText(['1', '10', '-3', '0']);
  await expect(gelu.locator('tbody td')).toHaveText(['0.841', '10', '-0.004', '0']);

  const ff = example(page, 'feed-forward');
  await expect(ff.locator('.steps li')).toHaveText(['hidden width 4d = 32', 'W_1 8 × 32', 'b_1 32', 'W_2 32 × 8', 'b_2 8']);
  await expect(ff.locator('.result .value')).toHaveText('552');

  const tiny = example(page, 'tiny-gpt');
  await expect(tiny.locator('.steps li')).toHaveText([
    'ids 3, 1, 4, 1, 5',
    '→ stream 5 × 32',
    '→ logits 5 × 50',
    'highest-scoring next token at each position: 3, 1, 4, 1, 5',
  ]);
  await expect(tiny.locator('.result')).toHaveText('The model holds 27,328 parameters.');

  const tied = example(page, 'tied-output');
  await expect(tied.locator('.steps li')).toHaveText([
    'token 0: (1, 0) · (1, -1) = 1',
    'token 1: (0, 1) · (1, -1) = -1',
    'token 2: (-1, 1) · (1, -1) = -2',
  ]);
  await expect(tied.locator('.result .value')).toHaveText('(1, -1, -2)');

  const masks = example(page, 'masks');
  await expect(masks.locator('.caption')).toHaveText(['Encoder: 9 of 9 pairs allowed', 'Decoder: 6 of 9 pairs allowed']);

  const count = example(page, 'param-count');
  await expect(count.locator('.steps li')).toHaveText([
    'one TinyGPT block 12,576',
    'token table 50 × 32',
    'position table 16 × 32',
    'final norm 64',
    'TinyGPT in all 27,328',
    'the analytic model\u2019s count of the same configuration 27,328 (they agree)',
    'GPT-2 small without attention biases 124,402,944',
    'GPT-2 small, with them 124,439,808',
  ]);

  const moe = example(page, 'moe');
  await expect(moe.locator('.steps li')).toHaveText([
    'kept (top 2): experts 0 and 1',
    'gates (softmax over the kept scores) 0.731 and 0.269',
    'skipped (never run): experts 2 and 3',
    'one expert (a feed-forward network) 2,128',
    'router 128',
    'all held in memory 17,152',
    'touched per token 4,384',
  ]);

  const balance = example(page, 'balance-loss');
  await expect(balance.locator('.result')).toHaveText(['Loss: 1.0', 'Loss: 4.0']);

  const flops = example(page, 'flops');
  await expect(flops.locator('.result')).toHaveText([
    'C_infer(7e9) = 1.4 × 10¹⁰ FLOPs',
    'C_train(7e10, 1e12) = 4.2 × 10²³ FLOPs',
    'C_train(1.75e11, 3e11) = 3.15 × 10²³ FLOPs',
  ]);

  expect(problems).toEqual([]);
});

test('LayerNorm recomputes as the reader types, keeping focus', async ({ page }) => {
  const problems = await openPage(page, '/gallery/examples.html');
  const layernorm = example(page, 'layernorm');
  const input = layernorm.getByLabel('Vector x');
  await expect(input).toHaveValue('1, 2, 3, 4');
  await input.click();
  await input.press('Control+a');
  await input.pressSequentially('2, 4, 6, 8');
  await expect(input).toBeFocused();
  await expect(layernorm.locator('.steps li').first()).toHaveText('mean μ = 5');
  await expect(layernorm.locator('.steps li').nth(1)).toHaveText('variance σ² = 5');
  await expect(layernorm.locator('.steps li').nth(4)).toHaveText('output (x − μ) / spread = (-1.342, -0.447, 0.447, 1.342)');
  expect(problems).toEqual([]);
});

test('a bad input shows a message and the example works again once fixed', async ({ page }) => {
  const problems = await openPage(page, '/gallery/examples.html');
  const layernorm = example(page, 'layernorm');
  const input = layernorm.getByLabel('Vector x');
  const alert = layernorm.getByRole('alert');

  await input.fill('1, x');
  await expect(alert).toHaveText('the vector: "x" is not a number; write numbers separated by commas');
  await expect(layernorm.locator('.steps')).toBeHidden();

  // The library's own message for a vector it cannot take.
  await input.fill('');
  await expect(alert).toHaveText('the length of the vector 0 is out of range: give 1 to 64 numbers');

  await input.fill('1, 2, 3, 4');
  await expect(alert).toBeHidden();
  await expect(layernorm.locator('.steps li').first()).toHaveText('mean μ = 2.5');

  // A number field: the library says what width is allowed.
  const ff = example(page, 'feed-forward');
  const d = ff.getByLabel('Model width d');
  await d.fill('0');
  await expect(ff.getByRole('alert')).toHaveText('width d 0 is out of range: choose 1 to 256');
  await d.fill('16');
  await expect(ff.locator('.steps li').nth(1)).toHaveText('W_1 16 × 64');
  await expect(ff.locator('.result .value')).toHaveText('2,128');

  // MoE routing: k larger than the experts.
  const moe = example(page, 'moe');
  const k = moe.getByLabel('Experts kept, k').first();
  await k.fill('5');
  await expect(moe.getByRole('alert')).toHaveText('k 5 is out of range: keep between 1 and the 4 experts');
  await k.fill('1');
  await expect(moe.locator('.steps li').first()).toHaveText('kept (top 1): expert 0');
  await expect(moe.locator('.steps li').nth(1)).toHaveText('gates (softmax over the kept scores) 1');

  expect(problems).toEqual([]);
});

test('other examples recompute from their inputs', async ({ page }) => {
  const problems = await openPage(page, '/gallery/examples.html');

  const residual = example(page, 'residual');
  await residual.getByLabel('What attention writes').fill('0, 0');
  await residual.getByLabel('What the feed-forward writes').fill('0, 0');
  await expect(residual.locator('.steps li').nth(2)).toHaveText('+ feed-forward (0, 0) = (1, 2)');
  await residual.getByLabel('What attention writes').fill('1, 2, 3');
  await expect(residual.getByRole('alert')).toHaveText(
    "the length of attention's output 3 is out of range: it must match x, 2 numbers",
  );

  const tied = example(page, 'tied-output');
  await tied.getByLabel(/Token table rows/).fill('2, 0; 0, 2');
  await expect(tied.locator('.result .value')).toHaveText('(2, -2)');

  const balance = example(page, 'balance-loss');
  await balance.getByLabel('Fractions f').first().fill('0.5, 0.5, 0, 0');
  await balance.getByLabel('Probabilities P').first().fill('0.5, 0.5, 0, 0');
  await expect(balance.locator('.result').first()).toHaveText('Loss: 2.0');

  const flops = example(page, 'flops');
  await flops.getByLabel('Parameters N').first().fill('124e6');
  await expect(flops.locator('.result').first()).toHaveText('C_infer(1.24e8) = 2.48 × 10⁸ FLOPs');

  const tiny = example(page, 'tiny-gpt');
  await tiny.getByRole('textbox', { name: 'Token ids' }).fill('3, 1, 50');
  await expect(tiny.getByRole('alert')).toContainText('token id 50 is out of range: ids run from 0 to 49');

  const masks = example(page, 'masks');
  await masks.getByLabel('Number of tokens', { exact: true }).fill('5');
  await masks.getByLabel('Change token at position').selectOption('4');
  await expect(masks.locator('.outputs-changed')).toHaveText(['Outputs changed: 1–5', 'Outputs changed: 5']);

  expect(problems).toEqual([]);
});

test('an unknown example name lists the allowed names and shows a working default', async ({ page }) => {
  const problems = await openPage(page, '/gallery/examples.html');
  const bad = page.locator('tb-example').last();
  await expect(bad).toHaveAttribute('name', 'softmax');
  await expect(bad.getByRole('alert')).toHaveText(
    'unknown example "softmax": choose one of residual, layernorm, gelu, feed-forward, tiny-gpt, tied-output, masks, param-count, moe, balance-loss, flops; showing residual',
  );
  await expect(bad.locator('.steps li').nth(1)).toHaveText('+ attention (0.1, -0.3) = (1.1, 1.7)');

  // Fixing the attribute re-renders the example it names.
  await bad.evaluate((el) => el.setAttribute('name', 'gelu'));
  await expect(bad.getByRole('alert')).toHaveCount(0);
  await expect(bad.locator('tbody td')).toHaveText(['0.841', '10', '-0.004', '0']);
  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone without sideways scrolling of the page', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await openPage(page, '/gallery/examples.html');
  await expect(example(page, 'flops').locator('.result')).toHaveCount(3);
  const overflow = await pageOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
