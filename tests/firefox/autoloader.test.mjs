// The folder build (dist/transformer-block/, loaded by its autoloader) in Firefox: a course page
// under a sub-path of its site, with every element, each one's module imported on sight; every
// widget renders and nothing is logged; a page with one <tb-attention> fetches TinyGPT read alone,
// and one given a Hugging Face checkpoint (weights-src) opens it in the folder's checkpoint worker.
// (tests/e2e/autoloader.spec.js compares each element with the one-file bundle's, in Chromium.)
//
//   node --test tests/firefox/autoloader.test.mjs    (dist/ built: make dist)

import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startFirefox, startServer, unrenderedWidgets, widgetMessages } from './firefox.mjs';
import { scanElements } from '../../scripts/build-dist.mjs';

const FOLDER = fileURLToPath(new URL('../../dist/transformer-block/', import.meta.url));
const TIMEOUT = { timeout: 60_000 };
const TAGS = [...new Set(scanElements().map((e) => e.tag))];
const LLAMA = fileURLToPath(new URL('../reference/fixtures/checkpoints/llama/', import.meta.url));
const CHECKPOINT_TEXT = 'Attention is the only stage that mixes positions.';

describe('the autoloaded folder in Firefox', () => {
  let browser;
  let server;
  let site;

  before(async () => {
    assert.ok(existsSync(join(FOLDER, 'autoloader.js')), `${FOLDER} is missing: run make dist`);
    // The course's site: the page, and the folder copied under a sub-path (serve.mjs follows no link out of its root).
    site = mkdtempSync(join(tmpdir(), 'tb-course-'));
    mkdirSync(join(site, 'assets', 'js'), { recursive: true });
    cpSync(FOLDER, join(site, 'assets', 'js', 'transformer-block'), { recursive: true });
    const body = TAGS.map((t) => ({ 'tb-example': '<tb-example name="layernorm"></tb-example>', 'tb-number': '<tb-number value="total_params"></tb-number>' })[t] ?? `<${t}></${t}>`).join('\n');
    const course = (html) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title><script type="module" src="assets/js/transformer-block/autoloader.js"></script></head><body>${html}</body></html>`;
    writeFileSync(join(site, 'index.html'), course(body));
    writeFileSync(join(site, 'attention.html'), course('<tb-attention></tb-attention>'));
    cpSync(LLAMA, join(site, 'models', 'llama'), { recursive: true });
    writeFileSync(join(site, 'checkpoint.html'), course(`<tb-attention weights-src="models/llama/" text="${CHECKPOINT_TEXT}"></tb-attention>`));
    browser = await startFirefox();
    server = await startServer(site);
  }, TIMEOUT);

  after(async () => {
    await browser?.quit();
    await server?.stop();
    if (site) rmSync(site, { recursive: true, force: true });
  }, TIMEOUT);

  test('every element renders from its own module, with no message and nothing logged', TIMEOUT, async () => {
    const { driver } = browser;
    browser.problems.length = 0;
    await driver.get(`${server.origin}/index.html`);
    assert.deepEqual(await unrenderedWidgets(driver), [], 'widgets that did not render within 20 s');
    assert.deepEqual(await widgetMessages(driver), []);
    const modules = await driver.executeScript(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.includes('/elements/')));
    assert.equal(new Set(modules).size, TAGS.length, `one module an element: ${modules.join(', ')}`);
    assert.deepEqual(browser.problems, []);
  });

  test('a page with one <tb-attention> renders it with TinyGPT read alone', TIMEOUT, async () => {
    const { driver } = browser;
    browser.problems.length = 0;
    await driver.get(`${server.origin}/attention.html`);
    assert.deepEqual(await unrenderedWidgets(driver), [], 'widgets that did not render within 20 s');
    assert.deepEqual(await widgetMessages(driver), []);
    const maps = await driver.executeScript(() => document.querySelector('tb-attention').shadowRoot.querySelectorAll('canvas, svg').length);
    assert.ok(maps > 0, 'no attention map drawn');
    const wasm = await driver.executeScript(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop()).filter((f) => f.endsWith('.wasm')));
    assert.deepEqual(wasm, ['model_bg.wasm']);
    assert.deepEqual(browser.problems, []);
  });

  test('a Hugging Face checkpoint opens in the folder\u2019s checkpoint worker, with transformers\u2019 tokens', TIMEOUT, async () => {
    const { driver } = browser;
    browser.problems.length = 0;
    await driver.get(`${server.origin}/checkpoint.html`);
    const expected = JSON.parse(readFileSync(join(LLAMA, 'inspect.json'), 'utf8'));
    const ids = await driver.wait(
      () => driver.executeScript(() => [...(document.querySelector('tb-attention').shadowRoot?.querySelectorAll('.pieces li') ?? [])].map((li) => Number(li.title.split('id ')[1]))).then((got) => (got.length ? got : null)),
      30_000,
    );
    assert.deepEqual(ids, expected.ids);
    const note = await driver.executeScript(() => document.querySelector('tb-attention').shadowRoot.querySelector('.model-note')?.textContent ?? '');
    assert.match(note, /stored as bf16/);
    const worker = await driver.executeScript(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('checkpoint-worker.js')));
    assert.deepEqual(worker, ['/assets/js/transformer-block/pkg/checkpoint-worker.js']);
    // The sharded folder answers 404 for model.safetensors, asked first.
    assert.deepEqual(browser.problems.filter((m) => !/model\.safetensors/.test(m)), []);
  });
});
