// "Your model…": a reader's own config.json, pasted, dropped or picked into the model switcher of
// <tb-anatomy>, <tb-param-table>, <tb-cost-chart> and <tb-memory>, shown like a preset and kept for
// the page; an author's config in config-src. The totals are checked against the published counts
// of the nine released models (crate/tests/fixtures/hf/README.md), not against the library.

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPage, recordProblems, waitForWidgets } from './helpers.js';

const FIXTURES = new URL('../../crate/tests/fixtures/hf/', import.meta.url);
const config = (file) => readFileSync(new URL(file, FIXTURES), 'utf8');
const withCommas = (n) => n.toLocaleString('en-US');

/** The README's table: [file, published total]. */
const RELEASED = [...readFileSync(new URL('README.md', FIXTURES), 'utf8').matchAll(/^\| (\S+\.json) \| [^|]+ \| ([\d,]+) \|$/gm)].map(
  ([, file, total]) => [file, Number(total.replaceAll(',', ''))],
);

/** Drops `files` ({ name, text }) on the widget's "Your model" panel, as a reader's drag would. */
async function drop(widget, files) {
  await widget.evaluate((host, files) => {
    const data = new DataTransfer();
    for (const f of files) data.items.add(new File([f.text], f.name, { type: 'application/json' }));
    const panel = host.shadowRoot.querySelector('.your-model');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      panel.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, files);
}

const switcher = (widget) => widget.getByLabel('Model', { exact: true });
const openPanel = (widget) => switcher(widget).selectOption({ label: 'Your model…' });
const anatomyTotal = (widget) => widget.locator('.headline dd').first();

test('the nine released configs, dropped one by one into the anatomy, each show their published total', async ({ page }) => {
  test.setTimeout(60_000);
  expect(RELEASED.length).toBe(9);
  const problems = await openPage(page, '/gallery/anatomy.html');
  await waitForWidgets(page);
  const anatomy = page.locator('#default');
  for (const [file, total] of RELEASED) {
    await openPanel(anatomy);
    await drop(anatomy, [{ name: 'config.json', text: config(file) }]);
    await expect(anatomyTotal(anatomy), file).toHaveText(new RegExp(`^${withCommas(total)} \\(`));
    await expect(switcher(anatomy)).toHaveValue(/yours/);
    await expect(anatomy.locator('.your-model')).toBeHidden();
  }
  expect(problems).toEqual([]);
});

test('picked, pasted or dropped into each analytic widget, a config is counted; the reader\u2019s T stays', async ({ page }) => {
  const problems = await openPage(page, '/');
  await waitForWidgets(page);
  // The parameter table: picked as a file.
  const table = page.locator('tb-param-table');
  await openPanel(table);
  await table.getByLabel('config.json file').setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(config('qwen2-0.5b.json')) });
  await expect(table.locator('tr.total td.num').nth(1)).toHaveText('494,032,768');
  // The cost chart: pasted; T moved first, and kept.
  const chart = page.locator('tb-cost-chart');
  await chart.locator('input[type="number"]').fill('64');
  await chart.locator('input[type="number"]').press('Enter');
  await openPanel(chart);
  await chart.getByLabel('config.json text').fill(config('pythia-70m.json'));
  await chart.getByRole('button', { name: 'Show this model' }).click();
  await expect(chart.locator('h3')).toHaveText('What a token costs in gpt_neox (70.4M)');
  await expect(chart.locator('input[type="number"]')).toHaveValue('64');
  // Memory: dropped; fp32 weights are 4 bytes a parameter.
  const memory = page.locator('tb-memory');
  await openPanel(memory);
  await drop(memory, [{ name: 'config.json', text: config('tinyllama-1.1b.json') }]);
  await expect(memory.locator('h3')).toHaveText('Memory for llama (1.1B)');
  await expect(memory.locator('table')).toContainText(`${withCommas(4 * 1_100_048_384)} bytes`);
  // Every switcher on the page now offers the reader's last model.
  await expect(switcher(page.locator('tb-anatomy')).locator('option')).toContainText(['Your model: llama (1.1B)']);
  expect(problems).toEqual([]);
});

test('a bad file is named with what is wrong, the model shown stays, and the rest of the page works', async ({ page }) => {
  const problems = await openPage(page, '/gallery/anatomy.html');
  await waitForWidgets(page);
  const anatomy = page.locator('#default');
  const message = anatomy.locator('.your-model .error');
  const cases = [
    [{ name: 'config.json', text: '{"model_type": "gpt2", "n_layer": 12,' }, /^config\.json could not be read: .*families: gpt2, llama, mistral, mixtral, qwen2, gpt_neox\. The model shown stays\.$/],
    [{ name: 'config.json', text: '{"model_type": "bert", "hidden_size": 768}' }, /model_type "bert" is not supported: supported families are gpt2, llama, mistral, mixtral, qwen2, gpt_neox/],
    [{ name: 'config.json', text: '{"model_type": "llama", "hidden_size": -4096}' }, /hidden_size/],
    [{ name: 'notes.txt', text: '' }, /^Paste a config\.json first/],
  ];
  for (const [file, expected] of cases) {
    await openPanel(anatomy);
    await drop(anatomy, [file]);
    await expect(message).toHaveText(expected);
    await expect(anatomyTotal(anatomy)).toHaveText(/^124,439,808 /);
  }
  // 200 MB of zeros (the weights, dropped by mistake): refused by its size, without reading it.
  const started = Date.now();
  await anatomy.evaluate((host) => {
    const chunk = new Uint8Array(1 << 20);
    const data = new DataTransfer();
    data.items.add(new File(Array.from({ length: 200 }, () => chunk), 'model.safetensors'));
    host.shadowRoot.querySelector('.your-model').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(message).toHaveText(/^model\.safetensors is 200 MiB: a config\.json is a few KB/);
  expect(Date.now() - started).toBeLessThan(10_000); // a generous bound: it is never read
  await expect(anatomyTotal(anatomy)).toHaveText(/^124,439,808 /);
  // Cancel closes the panel; the other widgets on the page still answer.
  await anatomy.getByRole('button', { name: 'Cancel' }).click();
  await expect(anatomy.locator('.your-model')).toBeHidden();
  await switcher(page.locator('#mixtral')).selectOption({ label: 'Llama 3 8B' });
  await expect(anatomyTotal(page.locator('#mixtral'))).toHaveText(/^8,030,261,248 /);
  expect(problems).toEqual([]);
});

test('the reader\u2019s model survives a reload of the page, and can be forgotten', async ({ page }) => {
  const problems = await openPage(page, '/gallery/param-table.html');
  await waitForWidgets(page);
  const first = page.locator('tb-param-table').first();
  await openPanel(first);
  await drop(first, [{ name: 'config.json', text: config('mistral-7b.json') }]);
  await expect(first.locator('tr.total td.num').nth(1)).toHaveText('7,241,732,096');
  await page.reload();
  await waitForWidgets(page);
  const second = page.locator('tb-param-table').nth(1);
  await switcher(second).selectOption({ label: 'Your model: mistral (7.24B)' });
  await expect(second.locator('tr.total td.num').nth(1)).toHaveText('7,241,732,096');
  await openPanel(second);
  await second.getByRole('button', { name: 'Forget my model' }).click();
  // Gone from every switcher; the widget that showed it goes back to its author's model (llama3-8b).
  await expect(second.locator('tr.total td.num').nth(1)).toHaveText('8,030,261,248');
  await expect(switcher(second)).toHaveValue('llama3-8b');
  await expect(switcher(first).locator('option', { hasText: 'Your model:' })).toHaveCount(0);
  await page.reload();
  await waitForWidgets(page);
  await expect(switcher(first).locator('option', { hasText: 'Your model:' })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('config-src: a config inlined in the page or a .json file of the site; anything else is named', async ({ page }) => {
  const problems = recordProblems(page);
  await page.route('**/course/page.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<script type="module" src="/src/elements/index.js"></script></head><body>
<script type="application/json" id="qwen">${config('qwen2-7b.json')}</script>
<tb-param-table id="inline" config-src="#qwen"></tb-param-table>
<tb-memory id="fetched" config-src="/course/llama3-8b.json"></tb-memory>
<tb-param-table id="fetched-too" config-src="/course/llama3-8b.json"></tb-param-table>
<tb-cost-chart id="missing" config-src="#nothing"></tb-cost-chart>
<tb-anatomy id="elsewhere" config-src="https://example.com/config.json"></tb-anatomy>
</body></html>`,
    }),
  );
  let fetched = 0;
  await page.route('**/course/llama3-8b.json', (route) => {
    fetched++;
    route.fulfill({ contentType: 'application/json', body: config('llama3-8b.json') });
  });
  await page.goto('/course/page.html');
  await waitForWidgets(page);
  await expect(page.locator('#inline tr.total td.num').nth(1)).toHaveText('7,615,616,512');
  await expect(page.locator('#fetched table')).toContainText(`${withCommas(2 * 8_030_261_248)} bytes`);
  await expect(page.locator('#fetched-too tr.total td.num').nth(1)).toHaveText('8,030,261,248');
  expect(fetched, 'one download for the two widgets that name it').toBe(1);
  await expect(page.locator('#missing .error').first()).toHaveText(/config-src "#nothing" names no <script> in the page/);
  await expect(page.locator('#elsewhere .error').first()).toHaveText(/is not a \.json file on this site/);
  // The author's config is offered beside the presets, and comes back after the reader tried another.
  await switcher(page.locator('#inline')).selectOption({ label: 'GPT-2 small' });
  await expect(page.locator('#inline tr.total td.num').nth(1)).toHaveText('124,439,808');
  await switcher(page.locator('#inline')).selectOption({ label: 'qwen2 (7.62B)' });
  await expect(page.locator('#inline tr.total td.num').nth(1)).toHaveText('7,615,616,512');
  expect(problems).toEqual([]);
});

test('the snippet `tblock count config.json --format html` prints works pasted into a course page', async ({ page }) => {
  const problems = recordProblems(page);
  const snippet = readFileSync(new URL('fixtures/qwen2-0.5b-anatomy.html', import.meta.url), 'utf8');
  await page.route('**/course/snippet.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<script type="module" src="/src/elements/index.js"></script></head><body><main>${snippet}</main></body></html>`,
    }),
  );
  await page.goto('/course/snippet.html');
  await waitForWidgets(page);
  const anatomy = page.locator('tb-anatomy');
  await expect(anatomyTotal(anatomy)).toHaveText(/^494,032,768 \(/);
  await expect(anatomy.locator('input[type="number"]')).toHaveValue('16');
  await expect(switcher(anatomy).locator('option:checked')).toHaveText('qwen2 (494M)');
  expect(problems).toEqual([]);
});
