// The smoke test's checks, one per kind of widget on the lesson page (www/index.html): each reads a
// number the wasm computed as the widget first shows it, does one thing a reader does (types, drags
// a slider by keyboard, picks an option, presses a button), and waits for the figure that follows.
// The figures are the lessons' own (GPT-2 small's 124,439,808 parameters and the like), as the
// Chromium tests in tests/e2e/ pin them; where a figure comes from training or timing, its form.

import { Key } from 'selenium-webdriver';

/** A decimal as the widgets print it (up to three places, trailing zeros dropped). */
const num = String.raw`\d+(\.\d+)?`;

/** [tag, host selector, check(widget, page)]; `page.widget(selector)` gives another widget. */
export const CHECKS = [
  ['tb-anatomy', 'tb-anatomy', async (w) => {
    await w.untilTexts('dl.headline', /Parameters124,439,808 \(124M\)/);
    await w.press('Sequence length T', Key.END);
    await w.until('T field', () => w.prop('input[type="number"]', 'value'), '1024');
    await w.until('scores option', () => w.driver.executeScript((h) => [...document.querySelector(h).shadowRoot.querySelectorAll('[role="option"]')].map((o) => o.getAttribute('aria-label')), w.host), (labels) => labels?.includes('Scores per head 1,024 × 1,024'));
    await w.untilTexts('dl.headline', /Parameters124,439,808 \(124M\)/);
  }],

  ['tb-example', 'tb-example[name="layernorm"]', async (w, page) => {
    await w.untilTexts('.steps li', ['mean μ = 2.5', 'variance σ² = 1.25', 'spread √(σ² + ε) = 1.118', 'centred x − μ = (-1.5, -0.5, 0.5, 1.5)', 'output (x − μ) / spread = (-1.342, -0.447, 0.447, 1.342)']);
    await w.type('Vector x', '2, 4, 6, 8');
    await w.untilTexts('.steps li', ['mean μ = 5', 'variance σ² = 5', 'spread √(σ² + ε) = 2.236', 'centred x − μ = (-3, -1, 1, 3)', 'output (x − μ) / spread = (-1.342, -0.447, 0.447, 1.342)']);
    const ff = page.widget('tb-example[name="feed-forward"]');
    await ff.untilTexts('.result .value', ['552']);
    await ff.type('Model width d', '16');
    await ff.untilTexts('.result .value', ['2,128']);
  }],

  ['tb-tiny-gpt', 'tb-tiny-gpt', async (w) => {
    await w.untilTexts('.shape', ['stream 12 × 32', 'logits 12 × 50']);
    await w.untilTexts('.model-note', /27,328 parameters, 2 blocks of width 32/);
    await w.type('Text', 'Attention');
    await w.untilTexts('.shape', ['stream 9 × 32', 'logits 9 × 50']);
    await w.until('guesses', () => w.texts('.next-chars li').then((t) => t?.length), 9);
  }],

  ['tb-attention', 'tb-attention', async (w) => {
    await w.untilTexts('.result', /^"the\u2423residual": 12 positions, 2 blocks of 4 heads/);
    // The weights as Chromium's tests pin them (tests/e2e/fixtures/attention-shipped.json, from tblock inspect).
    await w.click('Block 0: the weights as tables');
    await w.untilTexts('table[data-block="0"][data-head="0"] tbody tr:nth-child(2) td', ['0.768', '0.232', '', '', '', '', '', '', '', '', '', '']);
    await w.type('Text', 'abc');
    await w.untilTexts('.result', /^"abc": 3 positions/);
    await w.untilTexts('table[data-block="0"][data-head="0"] tbody tr:first-child td', ['1.000', '', '']);
  }],

  ['tb-train', 'tb-train', async (w) => {
    await w.untilTexts('.status', /^Not started\. [\d,]+ characters of this page's prose/);
    await w.type('Steps', '40');
    await w.click('Train');
    await w.untilTexts('.outcome', new RegExp(`^After 40 steps the held-out loss is ${num}`), 30_000);
    await w.untilTexts('.status', /^Step 40 of 40 · /);
    await w.untilTexts('.where', ['Training runs in a background worker: the page stays responsive.']);
  }],

  ['tb-norm-race', 'tb-norm-race', async (w) => {
    await w.type('Steps', '10');
    await w.click('Race');
    await w.untilTexts('.outcome', new RegExp(`^At step 10, pre-LN is .* \\(${num}\\) and post-LN .* \\(${num}\\)`), 30_000);
    await w.untilTexts('.status', ['pre-LN: step 10 of 10 · post-LN: step 10 of 10']);
  }],

  ['tb-masks', 'tb-masks', async (w) => {
    await w.untilTexts('.caption', ['Encoder: 25 of 25 pairs allowed', 'Decoder: 15 of 25 pairs allowed']);
    await w.press('Number of tokens (slider)', Key.ARROW_LEFT, Key.ARROW_LEFT);
    await w.untilTexts('.caption', ['Encoder: 9 of 9 pairs allowed', 'Decoder: 6 of 9 pairs allowed']);
    await w.until('number field', () => w.prop('input[type="number"]', 'value'), '3');
  }],

  ['tb-param-table', 'tb-param-table', async (w) => {
    await w.untilTexts('tr.total td.in-model', ['124,439,808']);
    await w.click('Every tensor of GPT-2 small');
    await w.until('tensor table open', () => w.prop('details', 'open'), true);
    await w.until('W_Q row', () => w.driver.executeScript((h) => {
      const row = [...document.querySelector(h).shadowRoot.querySelectorAll('details tr')].find((r) => r.querySelector('th')?.textContent === 'W_Q');
      return row ? [...row.querySelectorAll('td')].map((td) => td.textContent) : null;
    }, w.host), ['d × d = 768 × 768', 'd²', '589,824', '7,077,888']);
  }],

  ['tb-cost-chart', 'tb-cost-chart', async (w) => {
    await w.untilTexts('.readout', ["At T = 8: 248 MFLOPs per token forward (parameters 247 M, attention 295 k); attention is 0.2% of one block's arithmetic."]);
    await w.type('Sequence length T (tokens)', '1024');
    await w.untilTexts('.readout', ["At T = 1,024: 285 MFLOPs per token forward (parameters 247 M, attention 37.7 M); attention is 18% of one block's arithmetic."]);
  }],

  ['tb-training-cost', 'tb-training-cost', async (w) => {
    await w.untilTexts('.result .flops', ['6·N·D = 2.2 × 10²⁰ FLOPs']);
    await w.untilTexts('.result .time', ['About 195 hours (8.1 days) of one accelerator at 312 TFLOP/s and utilisation 1.']);
    await w.type('Utilisation (fraction of peak)', '0.5');
    await w.untilTexts('.result .time', ['About 390 hours (16 days) of one accelerator at 312 TFLOP/s and utilisation 0.5.']);
  }],

  ['tb-memory', 'tb-memory', async (w) => {
    const bf16 = () => w.driver.executeScript((h) => {
      const row = [...document.querySelector(h).shadowRoot.querySelectorAll('tr')].find((r) => r.querySelector('th')?.textContent === 'bf16/fp16 (16 bits)');
      return row ? [...row.querySelectorAll('td')].map((td) => td.textContent) : null;
    }, w.host);
    await w.until('bf16 row', bf16, ['237 MiB248,879,616 bytes', '36 KiB36,864 bytes', '288 KiB294,912 bytes']);
    await w.click('Use the full context (1,024)');
    await w.until('bf16 row', bf16, ['237 MiB248,879,616 bytes', '36 KiB36,864 bytes', '36 MiB37,748,736 bytes']);
  }],

  ['tb-depth-latency', 'tb-depth-latency', async (w) => {
    // It times once scrolled into view; "Time again" starts over.
    await w.driver.executeScript((h) => document.querySelector(h).scrollIntoView(), w.host);
    const done = /^Timed just now in your browser/;
    await w.untilTexts('.status', done, 45_000);
    const label = () => w.driver.executeScript((h) => document.querySelector(h).shadowRoot.querySelector('svg.bars')?.getAttribute('aria-label'), w.host);
    await w.until('bars', label, /6 blocks of width 136 \(1,339,056 block parameters\): [\d.]+ ms.*48 blocks of width 48 \(1,347,840 block parameters\): [\d.]+ ms/);
    // Mark the chart drawn so far: timing again draws a new one.
    await w.driver.executeScript((h) => (document.querySelector(h).shadowRoot.querySelector('svg.bars').dataset.before = ''), w.host);
    await w.click('Time again');
    await w.until('a new chart', () => w.driver.executeScript((h) => document.querySelector(h).shadowRoot.querySelector('svg.bars:not([data-before])') !== null, w.host), true, 45_000);
    await w.untilTexts('.status', done, 45_000);
    await w.until('bars', label, /6 blocks of width 136 \(1,339,056 block parameters\): [\d.]+ ms/);
  }],

  ['tb-moe', 'tb-moe', async (w) => {
    await w.untilTexts('.result', /^Kept: experts 0 and 1 with gates 0\.731 and 0\.269\./);
    await w.press('Expert 2 score', ...Array(6).fill(Key.ARROW_RIGHT));
    await w.untilTexts('.result', /^Kept: experts 0 and 2 with gates 0\.711 and 0\.289\. Skipped: experts 1 and 3/);
  }],

  ['tb-ablation', 'tb-ablation', async (w) => {
    await w.untilTexts('.status', /^(?!Measuring).*6 blocks of width 16, 20,384 parameters/, 30_000);
    await w.click('Block 3');
    await w.until('Block 3 pressed', () => w.driver.executeScript((h) => [...document.querySelector(h).shadowRoot.querySelectorAll('.blocks button')].find((b) => b.textContent === 'Block 3')?.getAttribute('aria-pressed'), w.host), 'true');
    await w.untilTexts('.details', new RegExp(`^Block 3: removed, the loss is ${num} nats; overwriting, ${num}\\. Intact: ${num}; a uniform guess: 3\\.912\\.$`));
  }],

  ['tb-stream', 'tb-stream', async (w) => {
    await w.until('cards', () => w.texts('.cards li').then((t) => t?.length), 6);
    await w.untilTexts('.cards li', new RegExp(`stream in: ${num}.*cos\\(in, out\\): -?${num}`));
    await w.select('Model', 'shipped');
    await w.until('cards', () => w.texts('.cards li').then((t) => t?.length), 2);
  }],

  ['tb-number', 'tb-number[value="total_params"]:not([model])', async (w) => {
    await w.untilTexts(null, ['124,439,808']);
    // Its one input is its attributes: point it at TinyGPT (marked, so the selector still finds it).
    await w.driver.executeScript((h) => Object.assign(document.querySelector(h), { id: 'smoke-number' }).setAttribute('model', 'tiny-gpt'), w.host);
    w.host = '#smoke-number';
    await w.untilTexts(null, ['27,328']);
  }],
];
