// A Hugging Face checkpoint in Firefox: the gallery's real-checkpoint page (www/gallery/checkpoint.html,
// its two test models copied beside it by make dist) served, each <tb-attention> opening its
// folder in the checkpoint worker (a module worker with its own wasm and the checkpoint's
// tokenizer). The tables hold transformers' weights for the same text (the committed inspect.json
// beside each test model, which tblock inspect matches within 1e-4), as in Chromium's
// tests/e2e/real-checkpoint.spec.js; typing reads a new text; the reader's own folder, picked,
// likewise (tests/e2e/your-real-checkpoint.spec.js); the ablation measured and the sampler at the
// model's tokens (real-experiments.spec.js, real-sampling.spec.js); a reload reads the kept copy; the
// page served cross-origin isolated, the checkpoint on the threads build's pool, with the same bits as
// on one thread (threads.spec.js);
// nothing is logged; and a GPT-2-shaped f16 checkpoint over 16 MiB, built from a seed, as tblock
// inspect prints it (big-f16-checkpoint.spec.js).
//
//   make test-e2e-firefox   (with the other Firefox tests)

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { startFirefox, startServer, Widget, widgetMessages } from './firefox.mjs';
import { F16_TEXT, SHAPE, buildF16Folder, tblock } from '../e2e/f16-folder.js';

const TIMEOUT = { timeout: 60_000 };
const FIXTURES = new URL('../reference/fixtures/checkpoints/', import.meta.url);
const expected = (name) => JSON.parse(readFileSync(new URL(`${name}/inspect.json`, FIXTURES), 'utf8'));

let browser;
let server;

/**
 * Waits until the widget at `host` has read its text (its own render, not the prerendered one the
 * build wrote into the page; not busy; its maps shown). The prerendered markup shows the same maps
 * before the widget takes over and loads the checkpoint, so it must not count.
 */
function settled(driver, host) {
  return driver.wait(() => driver.executeScript((host) => {
    const el = document.querySelector(host);
    return el && !el.prerendered && !el.busy && el.shadowRoot?.querySelector('.attention-maps:not([hidden]) .result') !== null;
  }, host), 30_000);
}

/** Head `head`'s table in the shadow root of `host`, as numbers (an empty cell: null). */
function table(driver, host, head) {
  return driver.executeScript(
    (host, head) =>
      [...(document.querySelector(host)?.shadowRoot.querySelectorAll(`table.weights-table[data-head="${head}"] tbody tr`) ?? [])].map((r) =>
        [...r.cells].slice(1).map((c) => (c.textContent === '' ? null : Number(c.textContent))),
      ),
    host,
    head,
  );
}

describe('a real checkpoint in Firefox', () => {
  before(async () => {
    browser = await startFirefox();
    server = await startServer();
    await browser.driver.get(`${server.origin}/gallery/checkpoint.html`);
  }, TIMEOUT);

  after(async () => {
    await browser?.quit();
    await server?.stop();
  }, TIMEOUT);

  for (const [name, host] of [
    ['llama', 'tb-attention[weights-src^="models/tiny-llama/"]'],
    ['gpt2', 'tb-attention[weights-src^="models/tiny-gpt2/"]'],
  ]) {
    test(`${name}: every head's weights as transformers computes them`, TIMEOUT, async () => {
      const want = expected(name);
      const w = new Widget(browser.driver, host);
      const n = want.ids.length;
      await settled(browser.driver, host);
      // The gallery's texts are not the fixtures': read the fixtures' text first.
      if (name === 'gpt2') await w.type('Text', want.text);
      await w.untilTexts('.result', new RegExp(`^${n} tokens; block 0, 4 heads`), 30_000);
      await w.click('This block: the weights as tables');
      for (const block of [0, 2]) {
        await w.select('Block', String(block));
        await w.untilTexts('table.weights-table caption', [0, 1, 2, 3].map((hd) => `Block ${block}, head ${hd}`));
        for (let head = 0; head < 4; head++) {
          const rows = await table(browser.driver, host, head);
          assert.equal(rows.length, n);
          rows.forEach((cells, q) =>
            cells.forEach((got, k) => {
              if (k > q) return assert.equal(got, null);
              const diff = Math.abs(got - want.attentions[block][head][q][k]);
              assert.ok(diff <= 6e-4, `block ${block}, head ${head}, query ${q + 1}, key ${k + 1}: ${got} against ${want.attentions[block][head][q][k]}`);
            }),
          );
        }
      }
      await w.type('Text', 'attention mixes');
      await w.untilTexts('.result', /^\d+ tokens; block 2, 4 heads/);
    });
  }

  test('the reader\'s Llama folder, picked: the real model, every head as transformers computes it', TIMEOUT, async () => {
    const host = 'tb-attention#yours';
    const want = expected('llama');
    const w = new Widget(browser.driver, host);
    await w.select('Model', '(load-checkpoint)');
    // Several files at once: their paths, one a line.
    const files = ['config.json', 'tokenizer.json', 'model.safetensors.index.json', 'model-00001-of-00003.safetensors', 'model-00002-of-00003.safetensors', 'model-00003-of-00003.safetensors'];
    await (await w.control('Checkpoint files')).sendKeys(files.map((f) => fileURLToPath(new URL(`llama/${f}`, FIXTURES))).join('\n'));
    await w.untilTexts('.model-note', /\(llama\): 99,408 parameters/, 30_000);
    await settled(browser.driver, host);
    await w.type('Text', want.text);
    await w.untilTexts('.result', new RegExp(`^${want.ids.length} tokens; block 0, 4 heads`), 30_000);
    await w.click('This block: the weights as tables');
    await w.untilTexts('table.weights-table caption', [0, 1, 2, 3].map((hd) => `Block 0, head ${hd}`));
    for (let head = 0; head < 4; head++) {
      const rows = await table(browser.driver, host, head);
      assert.equal(rows.length, want.ids.length);
      rows.forEach((cells, q) => cells.forEach((got, k) => (k > q ? assert.equal(got, null) : assert.ok(Math.abs(got - want.attentions[0][head][q][k]) <= 6e-4))));
    }
  });

  test('the ablation measured on the Llama in the worker, and the GPT-2 sampled at its tokens', TIMEOUT, async () => {
    const ablation = new Widget(browser.driver, 'tb-ablation[weights-src^="models/tiny-llama/"]');
    await ablation.until('the Measure button', () => ablation.texts('button').then((t) => t?.includes('Measure')), true, 30_000);
    await ablation.type('Positions a window', '16');
    await ablation.click('Measure');
    await ablation.until('the measured rows', () => ablation.texts('.measured tbody tr th').then((t) => t?.length), 5, 30_000);
    await ablation.untilTexts('.measured tbody tr th', ['intact', 'block 0', 'block 1', 'block 2', 'uniform guess (ln V)']);
    const gpt = new Widget(browser.driver, 'tb-tiny-gpt[weights-src^="models/tiny-gpt2/"]');
    await gpt.untilTexts('.kept-count', [`384 of 384 tokens kept; the 10 likeliest are listed.`], 30_000);
  });

  test('a reload reads the folder from the copy this browser kept (Cache Storage, in the worker)', TIMEOUT, async () => {
    const host = 'tb-attention[weights-src^="models/tiny-llama/"]';
    const w = new Widget(browser.driver, host);
    await w.untilTexts('.model-note .kept', /Kept in this browser \([\d.]+ KiB\)/, 30_000);
    await browser.driver.navigate().refresh();
    await settled(browser.driver, host);
    await w.untilTexts('.model-note .kept', /Read from this browser’s copy \([\d.]+ KiB\), not from the site/, 30_000);
    await w.untilTexts('.result', new RegExp(`^${expected('llama').ids.length} tokens; block 0, 4 heads`), 30_000);
  });

  test('on threads (served with COOP and COEP): the same bits on one thread and on the pool', TIMEOUT, async () => {
    const { driver } = browser;
    const [isolated, cores] = await driver.executeScript(() => [self.crossOriginIsolated, navigator.hardwareConcurrency]);
    assert.equal(isolated, true, 'scripts/serve.mjs sends COOP and COEP');
    const pool = Math.min(cores, 8);
    if (pool < 2) return; // one core: no pool to compare with
    const w = new Widget(driver, 'tb-attention[weights-src^="models/tiny-gpt2/"]');
    await w.untilTexts('.model-note', new RegExp(`Its forward passes run on ${pool} threads\\.`), 30_000);
    // The GPT-2's attention maps, next tokens and ablation at 64 positions (products that split), through
    // the sources' client module.
    const figuresOn = (threads) =>
      driver.executeAsyncScript(
        (threads, text, done) => {
          (async () => {
            const { openCheckpoint } = await import('/src/checkpoint/client.js');
            // WebDriver's script has modules of its own in Firefox: its client opens the folder anew.
            const c = openCheckpoint({ href: new URL('models/tiny-gpt2/', location.href).href });
            while (c.state === 'loading') await new Promise((resolve) => setTimeout(resolve, 50));
            const info = await c.setThreads(threads);
            const seen = await c.inspect(text, 'threads-test');
            const ablation = await c.experiment({ name: 'ablation', text: text.repeat(12), textName: 'text', context: 64 }).result;
            const attentions = seen.attentions.map((a) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length)));
            return JSON.stringify({ engine: c.engine, threads: info.threads, attentions, next: seen.next, ablation });
          })().then(done, (err) => done(`failed: ${err.message}`));
        },
        threads,
        expected('gpt2').text,
      );
    const all = JSON.parse(await figuresOn(pool));
    assert.equal(all.engine, 'threads');
    assert.equal(all.threads, pool);
    const one = JSON.parse(await figuresOn(1));
    assert.equal(one.threads, 1);
    assert.deepEqual(one.attentions, all.attentions);
    assert.deepEqual(one.next, all.next);
    assert.deepEqual(one.ablation, all.ablation);
    await figuresOn(pool); // as the page had it
  });

  test('no widget message, no uncaught exception, no console error or warning', async () => {
    assert.deepEqual(await widgetMessages(browser.driver), []);
    assert.deepEqual(browser.problems, []);
  });

  test('a GPT-2-shaped f16 checkpoint over 16 MiB (e2e/f16-folder.js): every head as tblock inspect prints it', { timeout: 120_000 }, async () => {
    // Beside the gallery for this test only: the folder, and a page that shows it.
    const folder = new URL('../../www/gallery/models/f16-firefox/', import.meta.url);
    const page = new URL('../../www/gallery/f16-firefox.html', import.meta.url);
    try {
      buildF16Folder(fileURLToPath(folder));
      writeFileSync(page, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>f16</title>
<script type="module" src="../src/elements/index.js"></script></head><body>
<tb-attention weights-src="models/f16-firefox/" text="${F16_TEXT}"></tb-attention></body></html>`);
      const want = JSON.parse(execFileSync(tblock(), ['inspect', '--weights', fileURLToPath(folder), '--text', F16_TEXT], { encoding: 'utf8', maxBuffer: 1 << 30 }));
      await browser.driver.get(`${server.origin}/gallery/f16-firefox.html`);
      const host = 'tb-attention';
      const w = new Widget(browser.driver, host);
      await w.untilTexts('.model-note', /stored as f16/, 60_000);
      await settled(browser.driver, host);
      await w.click('This block: the weights as tables');
      for (const block of [0, SHAPE.layers - 1]) {
        await w.select('Block', String(block));
        await w.untilTexts('table.weights-table caption', Array.from({ length: SHAPE.heads }, (_, hd) => `Block ${block}, head ${hd}`));
        for (let head = 0; head < SHAPE.heads; head++) {
          const rows = await table(browser.driver, host, head);
          assert.equal(rows.length, want.ids.length);
          rows.forEach((cells, q) => cells.forEach((got, k) => (k > q ? assert.equal(got, null) : assert.ok(Math.abs(got - want.attentions[block][head][q][k]) <= 6e-4, `block ${block}, head ${head}, query ${q + 1}, key ${k + 1}`))));
        }
      }
      assert.deepEqual(await widgetMessages(browser.driver), []);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(page, { force: true });
    }
  });
});
