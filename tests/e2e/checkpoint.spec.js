// "Your checkpoint…": a reader drops the files `tblock train` writes (model.safetensors, config.json,
// vocab.json) into <tb-tiny-gpt>, <tb-ablation> or <tb-stream>; the page writes what `tblock sample`
// writes with them (tests/e2e/fixtures/checkpoint-sample.txt, recorded by the CLI and checked by
// crate/tests/cli_train.rs). Bad files get their message and the model shown stays.

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPage, waitForWidgets } from './helpers.js';

const FIXTURE = new URL('fixtures/checkpoint/', import.meta.url);
const file = (name) => ({ name, bytes: [...readFileSync(new URL(name, FIXTURE))] });
const CHECKPOINT = ['model.safetensors', 'config.json', 'vocab.json'].map(file);

/** Drops `files` ({ name, bytes }) on the widget's checkpoint panel. */
async function drop(widget, files) {
  await widget.evaluate((host, files) => {
    const data = new DataTransfer();
    for (const f of files) data.items.add(new File([new Uint8Array(f.bytes)], f.name));
    host.shadowRoot.querySelector('.your-checkpoint').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}
const openPanel = (widget) => widget.getByLabel('Model', { exact: true }).selectOption({ label: 'Your checkpoint…' });

test('a checkpoint from tblock train, dropped into TinyGPT, writes what tblock sample writes', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  await waitForWidgets(page);
  const gpt = page.locator('tb-tiny-gpt').first();
  await gpt.getByLabel('Text').fill('the residual');
  await openPanel(gpt);
  await drop(gpt, CHECKPOINT);
  await expect(gpt.locator('.model-note')).toHaveText(/^[\d,]+ parameters, 1 block of width 16, pre-LN, from your checkpoint \(model\.safetensors\)\.$/);
  await expect(gpt.getByLabel('Model', { exact: true })).toHaveValue('checkpoint');
  await gpt.getByRole('button', { name: 'Write on' }).click();
  const recorded = readFileSync(new URL('fixtures/checkpoint-sample.txt', import.meta.url), 'utf8');
  expect(await gpt.locator('.written').textContent()).toBe(recorded.replace(/\n$/, ''));
  // An author's script changing the text re-renders the widget: the reader's choice stays.
  await gpt.evaluate((el) => el.setAttribute('text', 'the stream'));
  await expect(gpt.locator('.model-note')).toContainText('from your checkpoint');
  await expect(gpt.getByLabel('Model', { exact: true })).toHaveValue('checkpoint');
  // The other widgets that run a character model offer it too.
  const stream = page.locator('tb-tiny-gpt').nth(1);
  await expect(stream.getByLabel('Model', { exact: true }).locator('option[value="checkpoint"]')).toHaveText('your checkpoint: model.safetensors');
  expect(problems).toEqual([]);
});

test('the attention maps of a dropped checkpoint, of its own shape, hold what tblock inspect prints for it', async ({ page }) => {
  const problems = await openPage(page, '/gallery/attention.html');
  await waitForWidgets(page);
  const att = page.locator('tb-attention').first();
  await openPanel(att);
  await drop(att, CHECKPOINT);
  await expect(att.getByLabel('Model', { exact: true })).toHaveValue('checkpoint');
  await expect(att.locator('.result')).toContainText('12 positions, 1 block of 2 heads');
  await expect(att.locator('figure.head-map')).toHaveCount(2);
  await att.locator('details.tables summary').click();
  await expect(att.locator('table.weights-table')).toHaveCount(2);
  const recorded = JSON.parse(readFileSync(new URL('fixtures/attention-checkpoint.json', import.meta.url), 'utf8'));
  for (const head of [0, 1]) {
    const rows = await att.locator(`table[data-block="0"][data-head="${head}"] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.cells].slice(1).map((c) => c.textContent)));
    expect(rows).toEqual(recorded.attentions[0][head].map((row, q) => row.map((w, k) => (k <= q ? w.toFixed(3) : ''))));
  }
  expect(problems).toEqual([]);
});

test('the ablation and the stream measure a dropped checkpoint, and it survives a reload', async ({ page }) => {
  const problems = await openPage(page, '/gallery/experiments.html');
  await waitForWidgets(page);
  const ablation = page.locator('tb-ablation').first();
  await openPanel(ablation);
  await drop(ablation, CHECKPOINT);
  await expect(ablation.locator('.blocks li')).toHaveCount(1);
  const stream = page.locator('tb-stream').first();
  await stream.getByLabel('Model', { exact: true }).selectOption('checkpoint');
  await expect(stream.locator('.cards li')).toHaveCount(1);
  await page.reload();
  await waitForWidgets(page);
  await page.locator('tb-stream').first().getByLabel('Model', { exact: true }).selectOption('checkpoint');
  await expect(page.locator('tb-stream').first().locator('.cards li')).toHaveCount(1);
  expect(problems).toEqual([]);
});

test('a truncated file, a config that disagrees, a missing file and 200 MB of zeros are each named; the model stays', async ({ page }) => {
  const problems = await openPage(page, '/gallery/tiny-gpt.html');
  await waitForWidgets(page);
  const gpt = page.locator('tb-tiny-gpt').first();
  const note = await gpt.locator('.model-note').textContent();
  const message = gpt.locator('.your-checkpoint .error');
  const [weights, config, vocab] = CHECKPOINT;
  const wrongConfig = { name: 'config.json', bytes: [...Buffer.from(Buffer.from(config.bytes).toString().replace('"n_embd": 16', '"n_embd": 32'))] };
  const cases = [
    [[{ name: 'model.safetensors', bytes: weights.bytes.slice(0, 5000) }, config, vocab], /safetensors/i],
    [[weights, wrongConfig, vocab], /n_embd.*the config says 32/],
    [[config, vocab], /^No \.safetensors file among them/],
    [[weights, config, { name: 'vocab.json', bytes: [...Buffer.from('{"a": 0, "\\ufffd": 1}')] }], /vocab\.json: has 2 symbols, but the model's token table has 50 rows/],
  ];
  for (const [files, expected] of cases) {
    await openPanel(gpt);
    await drop(gpt, files);
    await expect(message).toHaveText(expected);
    await expect(message).toHaveText(/The model shown stays\.$/);
    await expect(gpt.locator('.model-note')).toHaveText(note);
  }
  // 200 MB of zeros: refused by its size; nothing is read.
  await gpt.evaluate((host) => {
    const chunk = new Uint8Array(1 << 20);
    const data = new DataTransfer();
    data.items.add(new File(Array.from({ length: 200 }, () => chunk), 'model.safetensors'));
    host.shadowRoot.querySelector('.your-checkpoint').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(message).toHaveText(/^model\.safetensors is 200 MiB: the page runs models of up to 16 MiB/);
  await expect(gpt.locator('.model-note')).toHaveText(note);
  // The page still answers.
  await gpt.getByLabel('Text').fill('the stream');
  await expect(gpt.locator('.next-chars li')).toHaveCount(10);
  expect(problems).toEqual([]);
});

test('weights-src: an author\u2019s model folder on the site, fetched once and run by every widget that names it', async ({ page }) => {
  const problems = await openPage(page, '/gallery/index.html');
  const served = [];
  await page.route('**/course/models/mine/*', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop();
    served.push(name);
    route.fulfill({ body: readFileSync(new URL(name, FIXTURE)), contentType: name.endsWith('.json') ? 'application/json' : 'application/octet-stream' });
  });
  await page.route('**/course/page.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<script type="module" src="/src/elements/index.js"></script></head><body>
<tb-tiny-gpt weights-src="/course/models/mine/" text="the residual"></tb-tiny-gpt>
<tb-ablation weights-src="/course/models/mine/model.safetensors"></tb-ablation>
<tb-stream weights-src="https://example.com/models/mine/"></tb-stream>
</body></html>`,
    }),
  );
  await page.goto('/course/page.html');
  await waitForWidgets(page);
  const gpt = page.locator('tb-tiny-gpt');
  await expect(gpt.locator('.model-note')).toHaveText(/, 1 block of width 16, pre-LN, from this page's files \(mine\)\.$/);
  await gpt.getByRole('button', { name: 'Write on' }).click();
  const recorded = readFileSync(new URL('fixtures/checkpoint-sample.txt', import.meta.url), 'utf8');
  expect(await gpt.locator('.written').textContent()).toBe(recorded.replace(/\n$/, ''));
  await expect(page.locator('tb-ablation .blocks li')).toHaveCount(1);
  await expect(page.locator('tb-stream .error').first()).toHaveText(/weights-src "https:\/\/example\.com\/models\/mine\/" is not a model on this site/);
  expect(served.filter((n) => n === 'model.safetensors')).toHaveLength(1);
  expect(problems).toEqual([]);
});

test('weights-src: a download under way can be cancelled, and the widgets run their own model instead', async ({ page }) => {
  const problems = await openPage(page, '/gallery/index.html');
  let asked = 0;
  // The weights never arrive (a slow or stalled server): only the reader's Cancel ends the wait.
  // The folder's config.json comes (it is read first, to tell a model `tblock train` wrote from a
  // Hugging Face checkpoint).
  await page.route('**/course/slow/config.json', (route) => route.fulfill({ body: readFileSync(new URL('config.json', FIXTURE)), contentType: 'application/json' }));
  await page.route('**/course/slow/model.safetensors', () => {
    asked++;
  });
  await page.route('**/course/slow-page.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<script type="module" src="/src/elements/index.js"></script></head><body>
<tb-ablation model="shipped" weights-src="/course/slow/"></tb-ablation>
<tb-stream model="shipped" weights-src="/course/slow/"></tb-stream>
</body></html>`,
    }),
  );
  await page.goto('/course/slow-page.html');
  const ablation = page.locator('tb-ablation');
  await expect(ablation.getByRole('status')).toHaveText('Loading the model from /course/slow/…');
  await expect(page.locator('tb-stream').getByRole('status')).toHaveText('Loading the model from /course/slow/…');
  await ablation.getByRole('button', { name: 'Cancel the download' }).click();
  const said = 'weights-src "/course/slow/": the download was cancelled; using the model the widget runs without it';
  await expect(ablation.getByRole('alert').first()).toHaveText(said);
  await expect(page.locator('tb-stream').getByRole('alert').first()).toHaveText(said);
  await expect(ablation.locator('.bars .bar')).toHaveCount(2); // the shipped model's two blocks
  await expect(page.locator('tb-stream .cards li')).toHaveCount(2);
  expect(asked).toBe(1);
  // The cancelled request is the one failure: the download was stopped.
  expect(problems.filter((p) => !p.includes('/course/slow/model.safetensors'))).toEqual([]);
});
