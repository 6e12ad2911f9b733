// A Hugging Face checkpoint in the page: <tb-attention weights-src="folder/"> opens the folder in the
// checkpoint worker (its own wasm, with the checkpoint's tokenizer) and shows every block's heads.
// The tables hold what transformers computes for the same folder and text (the committed
// tests/reference/fixtures/checkpoints/*/inspect.json, which `tblock inspect` matches within 1e-4:
// crate/tests/cli_checkpoints.rs). GPT-2 in f32, one file; Llama in bf16, three shards and
// an index. Then the bad folders, Cancel, the analytic count, and the prerendered gallery page taken
// over without a loading view between its figures; and the copy this browser keeps of a folder.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { FIXTURES, coursePage, expectHeads, inspected, serveFolder } from './checkpoint-pages.js';
import { openPage, waitForWidgets } from './helpers.js';

const TEXT = 'Attention is the only stage that mixes positions.';

// Chromium has relaxed SIMD, so the worker runs the engine built with it (checkpoint-relaxed_bg.wasm);
// the last case serves the folder without it, and the SIMD128 engine must give the same tables.
for (const [name, what, src, engine] of [
  ['gpt2', 'GPT-2, f32, one file', 'gpt2/', 'checkpoint-relaxed_bg.wasm'],
  ['llama', 'Llama, bf16, three shards', 'llama/', 'checkpoint-relaxed_bg.wasm'],
  ['llama', 'Llama, bf16, three shards named by their index', 'llama/model.safetensors.index.json', 'checkpoint-relaxed_bg.wasm'],
  ['gpt2', 'GPT-2, f32, on the SIMD128 engine (the relaxed-SIMD one not served)', 'gpt2/', 'checkpoint_bg.wasm'],
]) {
  test(`${what}: every head's weights equal transformers' for the same text`, async ({ page }) => {
    const expected = inspected(name);
    await serveFolder(page, name);
    const plain = engine === 'checkpoint_bg.wasm';
    if (plain) await page.route('**/checkpoint-relaxed_bg.wasm', (route) => route.fulfill({ status: 404, body: '' }));
    const engines = [];
    page.on('requestfinished', (r) => /checkpoint(-relaxed)?_bg\.wasm$/.test(r.url()) && engines.push(r.url().split('/').pop()));
    const problems = await coursePage(page, `<tb-attention weights-src="/course/models/${src}" text="${TEXT}"></tb-attention><tb-masks></tb-masks>`);
    const att = page.locator('tb-attention');
    const n = expected.ids.length;
    await expect(att.locator('.pieces li')).toHaveCount(n, { timeout: 20_000 });
    const ids = await att.locator('.pieces li').evaluateAll((lis) => lis.map((li) => Number(li.title.split('id ')[1])));
    expect(ids).toEqual(expected.ids);
    await expect(att.locator('.model-note')).toContainText(name === 'gpt2' ? 'stored as f32' : 'stored as bf16');
    await expectHeads(att, expected);
    // The likeliest next token is transformers'.
    const first = await att.locator('.next li').first().textContent();
    expect(first).toMatch(new RegExp(`${expected.next[0].probability.toFixed(3)}$`));
    // The lesson's own widgets keep running beside it.
    await expect(page.locator('tb-masks')).not.toHaveAttribute('aria-busy', 'true');
    // The engine the worker ran: the relaxed-SIMD build, or the SIMD128 one when that is not served.
    expect(engines.at(-1)).toBe(engine);
    // A sharded folder answers 404 for model.safetensors, asked first; not when named by its index.
    const expected404 = (p) => (src === 'llama/' && /HTTP 404: .*\/model\.safetensors$/.test(p)) || (plain && /checkpoint-relaxed_bg\.wasm/.test(p));
    expect(problems.filter((p) => !expected404(p))).toEqual([]);
  });
}

test('bad folders are named, the widget runs TinyGPT instead, and the page keeps working', async ({ page }) => {
  const gpt2 = (file) => readFileSync(new URL(`gpt2/${file}`, FIXTURES));
  const llama = (file) => readFileSync(new URL(`llama/${file}`, FIXTURES));
  const bert = JSON.stringify({ model_type: 'bert', hidden_size: 48, num_hidden_layers: 2, num_attention_heads: 4, intermediate_size: 96, vocab_size: 384, max_position_embeddings: 64 });
  const hugeIndex = JSON.parse(llama('model.safetensors.index.json'));
  hugeIndex.metadata = { total_size: 3 * 2 ** 30 };
  const folders = {
    bert: { 'config.json': bert, 'tokenizer.json': gpt2('tokenizer.json'), 'model.safetensors': gpt2('model.safetensors') },
    'no-tokenizer': { 'config.json': gpt2('config.json'), 'model.safetensors': gpt2('model.safetensors') },
    'bad-tokenizer': { 'config.json': gpt2('config.json'), 'tokenizer.json': '{"not": "a tokenizer"}', 'model.safetensors': gpt2('model.safetensors') },
    'cut-short': { 'config.json': gpt2('config.json'), 'tokenizer.json': gpt2('tokenizer.json'), 'model.safetensors': gpt2('model.safetensors').subarray(0, 100_000) },
    'missing-shard': Object.fromEntries(['config.json', 'tokenizer.json', 'model.safetensors.index.json', 'model-00001-of-00003.safetensors', 'model-00003-of-00003.safetensors'].map((f) => [f, llama(f)])),
    huge: { 'config.json': llama('config.json'), 'tokenizer.json': llama('tokenizer.json'), 'model.safetensors.index.json': JSON.stringify(hugeIndex), 'model-00001-of-00003.safetensors': llama('model-00001-of-00003.safetensors') },
    empty: { 'config.json': gpt2('config.json'), 'tokenizer.json': gpt2('tokenizer.json') },
  };
  const asked = [];
  await page.context().route('**/course/models/*/*', (route) => {
    const [folder, file] = new URL(route.request().url()).pathname.split('/').slice(-2);
    asked.push(`${folder}/${file}`);
    const body = folders[folder]?.[file];
    route.fulfill(body === undefined ? { status: 404, body: 'not here' } : { body });
  });
  const problems = await coursePage(page, Object.keys(folders).map((f) => `<tb-attention name="${f}" weights-src="/course/models/${f}/"></tb-attention>`).join('\n'));
  const expected = {
    bert: /The checkpoint bert could not be opened: .*"bert".*gpt2.*llama.*mistral.*qwen2.*TinyGPT is shown instead\./,
    'no-tokenizer': /tokenizer\.json: the server answered 404/,
    'bad-tokenizer': /tokenizer\.json.*not a tokenizer the tokenizers library reads/,
    'cut-short': /model\.safetensors.*its header says .* but its length is 100,000 bytes/,
    'missing-shard': /model-00002-of-00003\.safetensors: the server answered 404/,
    huge: /checkpoint size 3,221,225,472 bytes \(3072\.0 MiB\) is out of range: at most 2,147,483,648 bytes \(2048\.0 MiB\) in the page; run it natively instead: tblock inspect --weights/,
    empty: /the folder has neither model\.safetensors nor model\.safetensors\.index\.json/,
  };
  for (const [folder, message] of Object.entries(expected)) {
    const widget = page.locator(`tb-attention[name="${folder}"]`);
    await expect(widget.getByRole('alert').first(), folder).toHaveText(message, { timeout: 20_000 });
    // TinyGPT, as without weights-src.
    await expect(widget.getByLabel('Model'), folder).toHaveValue('shipped');
    await expect(widget.locator('figure.head-map'), folder).toHaveCount(8);
  }
  // Refused on the index's total: no shard of it was fetched.
  expect(asked.filter((a) => a.startsWith('huge/model-'))).toEqual([]);
  const widget = page.locator('tb-attention[name="bert"]');
  await widget.getByLabel('Text').fill('the stream');
  await expect(widget.locator('.result')).toContainText('10 positions');
  expect(problems.filter((p) => !/HTTP 404: /.test(p))).toEqual([]);
});

test('Cancel stops a load; another folder chosen meanwhile replaces it; a text past the limit is named', async ({ page }) => {
  await serveFolder(page, 'gpt2');
  // The llama folder's second shard never comes.
  const llama = (file) => readFileSync(new URL(`llama/${file}`, FIXTURES));
  let held = 0;
  await page.context().route('**/course/models/slow/*', (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop();
    if (file === 'model-00002-of-00003.safetensors') return void held++;
    if (file === 'model.safetensors') return route.fulfill({ status: 404, body: 'not here' });
    route.fulfill({ body: llama(file) });
  });
  const problems = await coursePage(page, '<tb-attention name="a" weights-src="/course/models/slow/"></tb-attention><tb-attention name="b" weights-src="/course/models/slow/"></tb-attention>');
  const [a, b] = [page.locator('tb-attention[name="a"]'), page.locator('tb-attention[name="b"]')];
  await expect.poll(() => held).toBe(1);
  await expect(a.locator('progress')).toBeVisible();
  // One widget's Cancel stops the load both wait on; both run TinyGPT and say why.
  await a.getByRole('button', { name: 'Cancel' }).click();
  for (const w of [a, b]) {
    await expect(w.getByRole('alert').first()).toHaveText(/The checkpoint slow could not be opened: its loading was cancelled\. TinyGPT is shown instead\./);
    await expect(w.locator('figure.head-map')).toHaveCount(8);
  }
  // A cancelled load stays cancelled: a widget rendered again (here in French) starts no new one.
  await a.evaluate((el) => el.setAttribute('lang', 'fr'));
  await expect(a.getByRole('alert').first()).toHaveText(/^Le checkpoint slow n’a pas pu être ouvert/);
  await page.waitForTimeout(300);
  expect(held).toBe(1);
  // Another folder for widget b while a load of its own is under way: the load is left.
  await page.context().route('**/course/models/slow2/*', (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop();
    if (file === 'model-00002-of-00003.safetensors') return void held++;
    if (file === 'model.safetensors') return route.fulfill({ status: 404, body: 'not here' });
    route.fulfill({ body: llama(file) });
  });
  await b.evaluate((el) => el.setAttribute('weights-src', '/course/models/slow2/'));
  await expect.poll(() => held).toBe(2);
  await b.evaluate((el) => el.setAttribute('weights-src', '/course/models/gpt2/'));
  await expect(b.locator('.pieces li').first()).toBeVisible({ timeout: 20_000 });
  await expect(b.getByRole('alert')).toHaveCount(0);
  // Past 64 tokens: more than an inspection reads. The maps keep the text before, and say so.
  await b.getByLabel('Text').fill('x '.repeat(65).trim());
  await expect(b.locator('.error')).toHaveText(/^tokens of the text 1[0-9]{2} is out of range: 1 to 64/);
  await expect(b.locator('.stale')).toHaveText(/The maps still show/);
  await b.getByLabel('Text').fill('back to a short text');
  await expect(b.locator('.error')).toBeHidden();
  expect(problems.filter((p) => !/HTTP 404: |failed request: .*model-00002-of-00003/.test(p))).toEqual([]);
});

test('the analytic widgets read the same folder\u2019s config.json: their count is the one the worker checks against the tensors', async ({ page }) => {
  await serveFolder(page, 'llama');
  const problems = await coursePage(
    page,
    '<tb-attention weights-src="/course/models/llama/model.safetensors.index.json"></tb-attention><tb-param-table config-src="/course/models/llama/config.json"></tb-param-table>',
  );
  const att = page.locator('tb-attention');
  await expect(att.locator('.model-note')).toContainText('99,408 parameters stored as bf16', { timeout: 20_000 });
  const total = page.locator('tb-param-table').getByRole('row', { name: /^Total/ }).first();
  await expect(total).toContainText('99,408');
  expect(problems).toEqual([]);
});

test('the gallery, prerendered: the widgets keep their figures while the checkpoint loads, no loading view between', async ({ page }) => {
  // Every frame, whether a checkpoint widget shows its loading view.
  await page.addInitScript(() => {
    window.sawLoading = new Set();
    const look = () => {
      for (const el of document.querySelectorAll('tb-attention, tb-ablation, tb-stream, tb-tiny-gpt')) {
        if (el.shadowRoot?.querySelector('p.loading')) window.sawLoading.add(el.localName);
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  const problems = await openPage(page, '/gallery/checkpoint.html');
  await waitForWidgets(page);
  const real = 'tb-attention, tb-ablation, tb-stream, tb-tiny-gpt';
  await page.waitForFunction((real) => [...document.querySelectorAll(real)].every((el) => !el.prerendered && !el.busy), real, { timeout: 30_000 });
  await expect(page.locator('tb-attention').first().locator('.pieces li').first()).toBeVisible();
  await expect(page.locator('tb-ablation').getByRole('button', { name: 'Measure' })).toBeVisible();
  expect(await page.evaluate(() => [...window.sawLoading])).toEqual([]);
  expect(problems).toEqual([]);
});

test('a folder loaded once is kept: a reload reads this browser\u2019s copy, not the site, until the site changes it; Forget drops it', async ({ page }) => {
  await serveFolder(page, 'llama');
  let refuse = false; // the site's weights refused: only a kept copy can open the folder
  let version = '"v1"'; // the weight files' ETag
  const weightsAsked = []; // GETs of a weight file
  await page.context().route('**/course/models/llama/*', (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop();
    if (!file.endsWith('.safetensors')) return route.fallback();
    if (route.request().method() === 'GET') weightsAsked.push(file);
    if (refuse) return route.abort('connectionrefused');
    route.fulfill({ body: readFileSync(new URL(`llama/${file}`, FIXTURES)), headers: { etag: version }, contentType: 'application/octet-stream' });
  });
  const html = `<tb-attention weights-src="/course/models/llama/model.safetensors.index.json" text="${TEXT}"></tb-attention>`;
  await coursePage(page, html);
  const att = page.locator('tb-attention');
  const kept = att.locator('.model-note .kept');
  const keptNow = /^ ?Kept in this browser \([\d.]+ KiB\): a reload reads it from here\. Forget this copy$/;
  await expect(kept).toHaveText(keptNow, { timeout: 20_000 });
  expect(weightsAsked).toHaveLength(3);
  // What the reader typed stays through a render (here the page switching the widget to French).
  await att.getByLabel('Text').fill('typed before a render');
  await att.evaluate((el) => el.setAttribute('lang', 'fr'));
  await expect(att.locator('.model-note .kept')).toContainText('Gardé dans ce navigateur');
  await expect(att.locator('input[type="text"]')).toHaveValue('typed before a render');
  await att.evaluate((el) => el.setAttribute('lang', 'en'));
  const reload = async () => {
    await page.reload();
    await waitForWidgets(page);
  };

  // Offline (the site refuses): the copy.
  refuse = true;
  await reload();
  await expect(kept).toHaveText(/^ ?Read from this browser’s copy \([\d.]+ KiB\), not from the site\. Forget this copy$/, { timeout: 20_000 });
  await expectHeads(att, inspected('llama'));
  expect(weightsAsked).toHaveLength(3); // none fetched again
  await expect(att.getByRole('alert')).toHaveCount(0);

  // The site serves other weights at the same URLs (another ETag): fetched anew, and kept.
  [refuse, version] = [false, '"v2"'];
  await reload();
  await expect(kept).toHaveText(keptNow, { timeout: 20_000 });
  expect(weightsAsked).toHaveLength(6);

  await kept.getByRole('button', { name: 'Forget this copy' }).click();
  await expect(kept).toHaveText(/Forgotten: a reload fetches it from the site\./);
  await expect(kept).toBeFocused();
  const entries = () => page.evaluate(async () => (await (await caches.open('transformer-block-checkpoints')).keys()).length);
  expect(await entries()).toBe(0);
  // Forgotten: the reload goes to the site, which refuses.
  refuse = true;
  await reload();
  await expect(att.getByRole('alert').first()).toHaveText(/could not be opened/, { timeout: 20_000 });
  expect(weightsAsked.length).toBeGreaterThan(6);
});
