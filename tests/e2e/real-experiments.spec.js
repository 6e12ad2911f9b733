// The lesson's experiments on a real checkpoint in the page: <tb-ablation> and <tb-stream> with
// weights-src a Hugging Face folder measure in the checkpoint worker, a forward pass at a time, and
// show what `tblock ablate` / `tblock stream` print for the same folder and text. On the Llama
// fixture and the fixtures' eval.txt at 32 positions, every figure is the float64 reference's
// (expected.json, which tblock matches within 1e-4: crate/tests/checkpoints.rs). Then the default
// text (the lesson's held-out text), Cancel, and the bad contexts and texts.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { FIXTURES, coursePage, expected, serveFolder } from './checkpoint-pages.js';

const EVAL_TEXT = readFileSync(new URL('eval.txt', FIXTURES), 'utf8');

test.describe.configure({ timeout: 60_000 });

/** The measured figure's rows: [label, ...cells as numbers (an empty cell: null)]. */
function figureRows(widget) {
  return widget.locator('.measured tbody tr').evaluateAll((rows) =>
    rows.map((r) => [r.cells[0].textContent, ...[...r.cells].slice(1).map((c) => (c.textContent === '' ? null : Number(c.textContent.replace('%', '')) / (c.textContent.endsWith('%') ? 100 : 1)))]),
  );
}

const near = (got, want, within, what) => expect(Math.abs(got - want), `${what}: ${got} against ${want}`).toBeLessThanOrEqual(within);

test('the ablation and the stream on a Llama checkpoint: the reference figures, measured in the page', async ({ page }) => {
  const want = expected('llama');
  await serveFolder(page, 'llama');
  const problems = await coursePage(page, '<tb-ablation weights-src="/course/models/llama/model.safetensors.index.json"></tb-ablation><tb-stream weights-src="/course/models/llama/model.safetensors.index.json"></tb-stream><tb-masks></tb-masks>');
  const [ablation, stream] = [page.locator('tb-ablation'), page.locator('tb-stream')];
  for (const w of [ablation, stream]) {
    await expect(w.getByRole('button', { name: 'Measure' })).toBeVisible({ timeout: 20_000 });
    await expect(w.locator('.model-note')).toContainText('stored as bf16');
    await expect(w.getByLabel('Positions a window')).toHaveValue('64'); // 256, or the model's 64
    await w.getByLabel('Positions a window').fill(String(want.context));
    await w.getByLabel('Text', { exact: true }).fill(EVAL_TEXT);
  }
  // Both asked at once: one worker, one run at a time.
  await ablation.getByRole('button', { name: 'Measure' }).click();
  await stream.getByRole('button', { name: 'Measure' }).click();
  for (const w of [ablation, stream]) {
    await expect(w.getByRole('status')).toHaveText(/^Measured in this page over 992 tokens\.$/, { timeout: 30_000 });
    await expect(w.locator('.measured figcaption')).toHaveText(
      /^Measured by transformer-block [0-9.]+ in the page on llama \(llama, 99,408 parameters stored as bf16\), over 992 tokens of your text in 31 windows of 32\.$/,
    );
  }
  const a = await figureRows(ablation);
  expect(a.map((r) => r[0])).toEqual(['intact', 'block 0', 'block 1', 'block 2', 'uniform guess (ln V)']);
  near(a[0][1], want.ablate.intact, 6e-4, 'intact');
  want.ablate.blocks.forEach((b, i) => {
    near(a[i + 1][1], b.removed, 6e-4, `block ${i} removed`);
    near(a[i + 1][2], b.overwritten, 6e-4, `block ${i} overwritten`);
  });
  near(a[4][1], want.ablate.uniform, 6e-4, 'uniform');
  const s = await figureRows(stream);
  near(s[0][1], want.stream.embedding_norm, 6e-3, 'embedding');
  want.stream.blocks.forEach((b, i) => {
    near(s[i + 1][1], b.stream_norm, 6e-3, `block ${i} stream`);
    near(s[i + 1][2], b.attention_fraction, 6e-3, `block ${i} attention`);
    near(s[i + 1][3], b.feed_forward_fraction, 6e-3, `block ${i} feed-forward`);
    near(s[i + 1][4], b.cosine_in_out, 6e-4, `block ${i} cosine`);
  });
  // The figures stay when the widget renders again (here in French).
  await ablation.evaluate((el) => el.setAttribute('lang', 'fr'));
  await expect(ablation.locator('.measured tbody tr')).toHaveCount(5);
  await expect(page.locator('tb-masks')).not.toHaveAttribute('aria-busy', 'true');
  expect(problems).toEqual([]);
});

test('Cancel stops a run between two passes; a bad context or a short text is named', async ({ page }) => {
  await serveFolder(page, 'gpt2');
  const problems = await coursePage(page, '<tb-ablation weights-src="/course/models/gpt2/"></tb-ablation>');
  const w = page.locator('tb-ablation');
  const measure = w.getByRole('button', { name: 'Measure' });
  await expect(measure).toBeVisible({ timeout: 20_000 });
  // Measure, then Cancel in the same task (the test model measures faster than a second click comes).
  await w.evaluate((host) => {
    const [start, cancel] = host.shadowRoot.querySelectorAll('.real-run .row button');
    start.click();
    cancel.click();
  });
  await expect(w.getByRole('status')).toHaveText('Stopped; nothing new was measured.');
  await expect(w.locator('.measured')).toHaveCount(0);
  await expect(measure).toBeFocused();
  // After a Cancel the worker measures again; with no text given, on the lesson's held-out text.
  await w.getByLabel('Positions a window').fill('16');
  await measure.click();
  await expect(w.locator('.measured tbody tr')).toHaveCount(5, { timeout: 30_000 }); // intact, 3 blocks, uniform
  await expect(w.locator('.measured figcaption')).toHaveText(/ tokens of the lesson’s held-out text in \d+ windows of 16\.$/);
  for (const [context, text, message] of [
    ['0', '', /^context 0 is out of range: 1 to 64 \(the model reads 64 positions; at most 1,024 here\)/],
    ['65', '', /^context 65 is out of range: 1 to 64/],
    ['16', 'too short', /^text: \d tokens make no window of 17 \(16 positions and the token each predicts\): give a longer text or a smaller context/],
  ]) {
    await w.getByLabel('Positions a window').fill(context);
    await w.getByLabel('Text', { exact: true }).fill(text);
    await measure.click();
    await expect(w.getByRole('alert')).toHaveText(message);
    // The figures of the last run stay.
    await expect(w.locator('.measured tbody tr')).toHaveCount(5);
  }
  expect(problems).toEqual([]);
});
