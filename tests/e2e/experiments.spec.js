// <tb-ablation> and <tb-stream>: the lesson's experiments on the shipped six-block TinyGPT, with no
// training first; the numbers are the library's (checked against it here), GPT-2 small's reported
// figures beside them.
import { test, expect } from '@playwright/test';
import { openPage, pageOverflow, waitForWidgets } from './helpers.js';

/** The library's own results for the six-block model, from the page's wasm instance. */
function library(page) {
  return page.evaluate(async () => {
    const lib = await (await import('/src/wasm.js')).fullLibrary();
    const m = lib.CharModel.six_blocks();
    try {
      return { ablation: m.ablation(), stream: m.stream(), reported: lib.reported_gpt2_small() };
    } finally {
      m.free();
    }
  });
}

const two = (x) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(x);
const three = (x) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 }).format(x);

test('the ablation renders from the shipped weights; the toggle changes the bars; a block tells its numbers', async ({ page }) => {
  const problems = await openPage(page, '/gallery/experiments.html');
  const widget = page.locator('tb-ablation').first();
  await expect(widget.locator('.status')).toContainText('6 blocks of width 16, 20,384 parameters', { timeout: 30_000 });
  await expect(widget.locator('.bars .bar')).toHaveCount(6);
  // Each bar's block named under it (the wording its slot has room for at this width).
  await expect(widget.locator('.bars .axis text:visible')).toContainText(['block 0', 'block 5']);
  // Measured off the page's thread, in the page's worker: the same numbers as the library's here.
  await expect(widget.locator('.where')).toHaveText('Measured in a background worker: the page stays responsive.');
  await expect(page.locator('tb-stream').first().locator('.where')).toHaveText('Measured in a background worker: the page stays responsive.');
  const lib = await library(page);
  const a = lib.ablation;
  await expect(widget.locator('.bars .line-label')).toHaveText([`intact ${two(a.intact)}`, `uniform ${two(a.uniform)}`]);
  const svg = widget.getByRole('img', { name: /^Loss with each block removed/ });
  await expect(svg).toHaveAttribute('aria-label', new RegExp(`block 0 ${two(a.blocks[0].removed).replace('.', '\\.')},`));
  const removedHeights = await widget.locator('.bars .bar').evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('height'))));

  await widget.getByLabel(/^overwriting/).check();
  await expect(widget.getByRole('img', { name: /^Loss with each block overwriting the stream/ })).toBeVisible();
  const overwrittenHeights = await widget.locator('.bars .bar').evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('height'))));
  expect(overwrittenHeights).not.toEqual(removedHeights);

  await widget.getByRole('button', { name: 'Block 3' }).click();
  await expect(widget.getByRole('button', { name: 'Block 3' })).toHaveAttribute('aria-pressed', 'true');
  await expect(widget.locator('.details')).toHaveText(
    `Block 3: removed, the loss is ${three(a.blocks[3].removed)} nats; overwriting, ${three(a.blocks[3].overwritten)}. Intact: ${three(a.intact)}; a uniform guess: ${three(a.uniform)}.`,
  );
  // The lesson's finding, on this model too: the first block cannot go as the later ones can, and
  // overwriting is worse than a uniform guess for most blocks.
  expect(a.blocks[0].removed).toBeGreaterThan(Math.max(...a.blocks.slice(2).map((b) => b.removed)));
  expect(a.blocks.filter((b) => b.overwritten > a.uniform).length).toBeGreaterThanOrEqual(4);
  // GPT-2 small's figures, quoted and labelled as such.
  await expect(widget.locator('.reported figcaption')).toContainText('quoted, not computed here');
  await expect(widget.locator('.reported li')).toHaveText(lib.reported.ablation.map((r) => `${r.what}: ${r.value}`));
  expect(problems).toEqual([]);
});

test('the stream shows the library\u2019s medians for every block', async ({ page }) => {
  const problems = await openPage(page, '/gallery/experiments.html');
  const widget = page.locator('tb-stream').first();
  const { stream } = await library(page);
  const cards = widget.locator('.cards li');
  await expect(cards).toHaveCount(6);
  const b0 = stream.blocks[0];
  await expect(cards.first()).toContainText(`stream in: ${two(b0.stream_norm)}`);
  await expect(cards.first()).toContainText(`cos(in, out): ${three(b0.cosine_in_out)}`);
  await expect(widget.locator('svg.adds rect')).toHaveCount(12);
  await expect(widget.getByRole('img', { name: /^Share of the stream each sublayer adds, per block: block 0: attention \d+%/ })).toBeVisible();
  expect(stream.positions).toBeGreaterThan(1000);
  expect(problems).toEqual([]);
});

test('bad attributes are named and the defaults used; phone width, dark mode', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const problems = await openPage(page, '/gallery/experiments.html');
  const bad = page.locator('tb-ablation').nth(2);
  await expect(bad.getByRole('alert').first()).toHaveText('model "gpt-5" is not a shipped model: choose six-blocks or shipped; using six-blocks');
  await expect(bad.getByRole('alert').nth(1)).toHaveText('mode "sideways" is not a mode: choose removed or overwritten; using removed');
  await expect(bad.locator('.bars .bar')).toHaveCount(6);
  await expect(page.locator('tb-stream').nth(1).getByRole('alert')).toHaveText('model "nope" is not a shipped model: choose six-blocks or shipped; using six-blocks');
  const twoBlock = page.locator('tb-ablation').nth(1);
  await expect(twoBlock.getByLabel('Model')).toHaveValue('shipped');
  await expect(twoBlock.locator('.bars .bar')).toHaveCount(2);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});

test('depth and latency: four stacks of equal parameters timed in the browser, and attention\u2019s share', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = await openPage(page, '/gallery/experiments.html');
  const widget = page.locator('tb-depth-latency');
  // It times once it is in view: scroll to it when the widgets above it have their full height, so
  // none of them, rendering after the scroll, pushes it back out of view.
  await waitForWidgets(page);
  await widget.scrollIntoViewIfNeeded();
  await expect(widget.locator('.status')).toContainText('Timed just now in your browser', { timeout: 45_000 });
  await expect(widget.locator('.bars .bar')).toHaveCount(4);
  const label = await widget.getByRole('img', { name: /^Median time of one token through the stack/ }).getAttribute('aria-label');
  // The four stacks and their block parameters, from the analytic model: equal within 1%.
  for (const [l, w, p] of [[6, 136, '1,339,056'], [12, 96, '1,337,472'], [24, 68, '1,346,400'], [48, 48, '1,347,840']]) {
    expect(label).toMatch(new RegExp(`${l} blocks of width ${w} \\(${p} block parameters\\): [\\d.]+ ms`));
  }
  const shares = widget.locator('.shares li');
  await expect(shares).toHaveCount(4);
  await expect(shares.first()).toContainText(/^T = 32attention stage [\d.]+ ms of the block's [\d.]+ msshare of the time: \d+%share of the FLOPs: 38%$/);
  await expect(widget.locator('.reported li')).toHaveCount(7);
  expect(problems).toEqual([]);
});

test('figures an author measured with tblock on a checkpoint replace the quoted ones; a file it cannot use leaves them, with a message', async ({ page }) => {
  const problems = await openPage(page, '/gallery/experiments.html');
  const files = await page.evaluate(async () => {
    const read = async (name) => (await fetch(`/gallery/results/${name}`)).json();
    return { ablation: await read('llama-ablation.json'), stream: await read('llama-stream.json') };
  });
  const ablation = page.locator('tb-ablation').nth(3);
  const caption = 'Measured by tblock 0.1.0 on llama (llama, 99,408 parameters stored as bf16), over 960 tokens of eval.txt in 15 windows of 64.';
  await expect(ablation.locator('.measured figcaption')).toHaveText(caption);
  const a = files.ablation;
  const rows = ablation.locator('.measured tbody tr');
  await expect(rows).toHaveCount(a.blocks.length + 2);
  await expect(rows.first()).toHaveText(`intact${three(a.intact)}`);
  await expect(rows.nth(1)).toHaveText(`block 0${three(a.blocks[0].removed)}${three(a.blocks[0].overwritten)}`);
  await expect(rows.last()).toHaveText(`uniform guess (ln V)${three(a.uniform)}`);
  await expect(ablation.locator('.reported li')).toHaveCount(0);
  // The widget keeps measuring its own TinyGPT beside them.
  await expect(ablation.locator('.bars .bar')).toHaveCount(2);

  const stream = page.locator('tb-stream').nth(2);
  await expect(stream.locator('.measured figcaption')).toHaveText(caption);
  const s = files.stream;
  const percent = (x) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 }).format(x);
  await expect(stream.locator('.measured tbody tr').nth(1)).toHaveText(
    `block 0${two(s.blocks[0].stream_norm)}${percent(s.blocks[0].attention_fraction)}${percent(s.blocks[0].feed_forward_fraction)}${three(s.blocks[0].cosine_in_out)}`,
  );

  // An ablation's file given to the stream, and a file on another site: the quoted figures stay.
  const foreign = page.locator('tb-stream').nth(3);
  await expect(foreign.locator('.comparison [role=alert]')).toHaveText(
    'results-src "results/llama-ablation.json": the results file could not be read: it is what `tblock ablate` prints; this widget shows what `tblock stream` prints. Showing the lesson\'s quoted figures instead.',
  );
  await expect(foreign.locator('.reported li')).toHaveCount(4);
  await expect(foreign.locator('.cards li')).toHaveCount(2);
  const elsewhere = page.locator('tb-ablation').nth(4);
  await expect(elsewhere.locator('.comparison [role=alert]')).toHaveText(
    `results-src "https://example.com/gpt2-ablation.json" is not a results file on this site: give the URL of the .json file tblock printed, on this page's site. Showing the lesson's quoted figures instead.`,
  );
  await expect(elsewhere.locator('.reported li')).toHaveCount(6);
  expect(problems).toEqual([]);
});
