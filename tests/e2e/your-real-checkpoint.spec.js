// The reader's own Hugging Face checkpoint: its folder's files dropped or picked in "Your
// checkpoint…" are opened in the checkpoint worker (read from the disk, no upload) and shown by
// <tb-attention> as the real model, every head equal to transformers' figures for the same text,
// sampled by <tb-tiny-gpt> and measured by <tb-stream>; the files are kept in this browser (IndexedDB) and
// shown again after a reload; Forget removes them. Files that are not a whole checkpoint are named
// in the panel, and the model shown stays.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { FIXTURES, coursePage, expectHeads, inspected } from './checkpoint-pages.js';

const TEXT = 'Attention is the only stage that mixes positions.';
const LLAMA = ['config.json', 'tokenizer.json', 'model.safetensors.index.json', 'model-00001-of-00003.safetensors', 'model-00002-of-00003.safetensors', 'model-00003-of-00003.safetensors'];
const path = (folder, file) => fileURLToPath(new URL(`${folder}/${file}`, FIXTURES));
const switcher = (widget) => widget.getByLabel('Model', { exact: true });
const NAME = 'model-00001-of-00003.safetensors'; // picked files, not a folder: named by their weights

test.describe.configure({ timeout: 60_000 });

test('a picked Llama folder is shown by <tb-attention> as the real model, kept across a reload, and forgotten', async ({ page }) => {
  const expected = inspected('llama');
  const html = `<tb-attention text="${TEXT}"></tb-attention><tb-tiny-gpt></tb-tiny-gpt><tb-stream model="shipped"></tb-stream>`;
  const problems = await coursePage(page, html);
  const att = page.locator('tb-attention');
  await switcher(att).selectOption({ label: 'Your checkpoint…' });
  await att.getByLabel('Checkpoint files').setInputFiles(LLAMA.map((f) => path('llama', f)));
  // Opened, shared and picked: the real model's view, with the switcher above it.
  await expect(att.locator('.pieces li')).toHaveCount(expected.ids.length, { timeout: 20_000 });
  await expect(switcher(att)).toHaveValue('checkpoint');
  await expect(att.locator('.model-note')).toContainText(`${NAME} (llama)`);
  await expect(att.locator('.your-checkpoint')).toBeHidden(); // kept: the panel closes
  // The text the author gave is the real view's first text too.
  await expect(att.getByLabel('Text')).toHaveValue(TEXT);
  await expectHeads(att, expected);
  // <tb-tiny-gpt> samples it at its own vocabulary.
  const gpt = page.locator('tb-tiny-gpt');
  await switcher(gpt).selectOption({ label: `your checkpoint: ${NAME}` });
  await expect(gpt.locator('.kept-count')).toHaveText('384 of 384 tokens kept; the 10 likeliest are listed.', { timeout: 20_000 });
  // <tb-stream> measures it, with its switcher above to go back.
  const stream = page.locator('tb-stream');
  await switcher(stream).selectOption({ label: `your checkpoint: ${NAME}` });
  await expect(stream.locator('.model-note')).toContainText(`${NAME} (llama)`);
  await stream.getByLabel('Positions a window').fill('16');
  await stream.getByRole('button', { name: 'Measure' }).click();
  await expect(stream.locator('.measured tbody tr')).toHaveCount(4, { timeout: 30_000 }); // embedding, 3 blocks
  await switcher(stream).selectOption('shipped');
  await expect(stream.locator('.cards li')).toHaveCount(2);
  expect(problems).toEqual([]);

  // After a reload, the kept files: no drop needed.
  await page.reload();
  await expect(switcher(att)).toContainText(`your checkpoint: ${NAME}`);
  await expect(switcher(att).locator('option[value="checkpoint"]')).toBeEnabled();
  await switcher(att).selectOption('checkpoint');
  await expect(att.locator('.pieces li')).toHaveCount(expected.ids.length, { timeout: 20_000 });
  await att.locator('details.tables summary').click();
  await expect(att.locator('table.weights-table caption').first()).toHaveText('Block 0, head 0');

  // Forget: back to TinyGPT here, and nothing offered after a reload.
  await switcher(att).selectOption({ label: 'Your checkpoint…' });
  await att.getByRole('button', { name: 'Forget my checkpoint' }).click();
  await expect(switcher(att)).toHaveValue('shipped');
  await expect(att.locator('.pieces')).toHaveCount(0);
  await att.getByLabel('Text').fill('the stream');
  await expect(att.locator('figure.head-map')).toHaveCount(8);
  await page.reload();
  await expect(switcher(att).locator('option[value="checkpoint"]')).toBeDisabled();
});

test('files that are not a whole checkpoint are named in the panel, and the model shown stays', async ({ page }) => {
  const gpt2 = (file) => readFileSync(path('gpt2', file));
  const llama = (file) => readFileSync(path('llama', file));
  const bert = JSON.stringify({ model_type: 'bert', hidden_size: 48, num_hidden_layers: 2, num_attention_heads: 4, intermediate_size: 96, vocab_size: 384, max_position_embeddings: 64 });
  const file = (name, buffer) => ({ name, mimeType: name.endsWith('.json') ? 'application/json' : 'application/octet-stream', buffer: Buffer.from(buffer) });
  const cases = [
    ['no tokenizer', [file('config.json', gpt2('config.json')), file('model.safetensors', gpt2('model.safetensors'))], /the files have no tokenizer\.json: drop the whole folder/],
    ['a shard missing', ['config.json', 'tokenizer.json', 'model.safetensors.index.json', 'model-00001-of-00003.safetensors'].map((f) => file(f, llama(f))), /the files have no model-00002-of-00003\.safetensors/],
    ['BERT', [file('config.json', bert), file('tokenizer.json', gpt2('tokenizer.json')), file('model.safetensors', gpt2('model.safetensors'))], /"bert".*gpt2.*llama.*mistral.*qwen2/],
    ['cut short', [file('config.json', gpt2('config.json')), file('tokenizer.json', gpt2('tokenizer.json')), file('model.safetensors', gpt2('model.safetensors').subarray(0, 100_000))], /model\.safetensors could not be read: its header says 429,424 bytes \(0\.4 MiB\) but its length is 100,000 bytes/],
  ];
  const problems = await coursePage(page, '<tb-attention></tb-attention>');
  const att = page.locator('tb-attention');
  for (const [what, files, message] of cases) {
    await switcher(att).selectOption({ label: 'Your checkpoint…' });
    await att.getByLabel('Checkpoint files').setInputFiles(files);
    await expect(att.locator('.your-checkpoint [role="alert"]'), what).toHaveText(message, { timeout: 20_000 });
    await expect(att.locator('.your-checkpoint [role="alert"]'), what).toContainText('The model shown stays');
    await expect(att.locator('figure.head-map'), what).toHaveCount(8);
    await att.getByRole('button', { name: 'Cancel' }).click();
    await expect(switcher(att), what).toHaveValue('shipped');
  }
  await expect(switcher(att).locator('option[value="checkpoint"]')).toBeDisabled();
  expect(problems).toEqual([]);
});
