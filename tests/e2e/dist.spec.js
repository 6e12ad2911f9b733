// What `make dist` ships, tested as a learner and a course site would use it, with the network closed:
// the offline lesson opened from disk, dist/transformer-block.js on a hostile page under a strict
// Content-Security-Policy, several widgets and late ones sharing one wasm instance, the npm module,
// the size budget, and the lesson inliner's refusals. Needs dist/ (`make dist`; `make test` builds it).
import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { inlineLessonPage, scanElements } from '../../scripts/build-dist.mjs';
import { recordProblems } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = `${ROOT}dist/`;
const LESSON = `${DIST}transformer-block-lesson.html`;
const BUNDLE = `${DIST}transformer-block.js`;
// Gzipped (level 6), KB = 1,024 bytes. 300 KB until the lesson shipped a second trained model;
// raised to 350 KB for it (issue 9); brought back to 312 KB by building all but the kernels for size
// and storing the weights in fewer levels (issue 10); 314 KB with the first hardening slice (issue 11:
// short messages, scientific notation, names that carry the figures, tables as cards on phones);
// 324 KB with the rest of it and the reader's own model (issues 11 and 12: focus kept, widgets
// released, the config and checkpoint panels; 320.3 KB then). The wasm: 255 KB, 258 KB with the
// checkpoint loader and the fuzzing's fixes (256.2 KB then). Issue 17 (inside TinyGPT: every tensor of
// a pass, where each head looks, one sampler with top-k and top-p, and the attention maps, the
// anatomy's live tensors and the sampler's view that show them) took the lesson to 343.7 KB and the
// wasm to 269.4 KB: 348 and 272 KB. The experiments measured in a worker, in slices (issue 18: the
// stepwise measurement in the wasm, CharModel in the worker's bundle): 349.8 and 272.7 KB, so 352
// and 276 KB; a checkpoint's results files checked by the library (issue 19): 276.1 KB, so 277 KB
// for the wasm. The aim is 300 KB for the lesson and 150 KB for the wasm: what
// stands in the way is in BENCHMARKS.md ("What is in the wasm"); issue 18 gives TinyGPT its own
// module, loaded on need.
// The widgets' languages (issue 20): the one-tag script carries the English, French and Chinese
// catalogs: 351.5 KB with six widgets translated, 358.2 KB with ten, so 362 KB. (Fetching the
// French and Chinese catalogs from beside the script, on need, would take them out again.) Every
// widget translated, and the library's messages as data: 397.3 KB, so 400 KB. The inlined wasm packed
// with xz instead of zopfli's gzip (issue 18): 367.6 KB, so 370 KB; results handed to JavaScript as JSON
// text (serde_json and JSON.parse, not serde-wasm-bindgen): 363.6 KB, so 366 KB; with the messages
// of a real checkpoint in every catalog (issue 35: a weights-src folder that names one is refused
// with them; the engine itself stays out of the bundles), 366.1 KB, so 368 KB; 368.4 KB with a
// reader's real checkpoint dropped in the panel and the experiments' messages on a real model (issue
// 35: the bundles refuse the one and never show the other, but carry the panel's code and the
// catalogs whole), so 370 KB; 369.9 KB with a kept copy's words, then 367.4 KB once the bundles'
// checkpoint catalogs hold only the keys they show (scripts/dist/bundle.mjs,
// BUNDLED_CHECKPOINT_KEYS). Issue 36's per-element imports are where the rest comes back.
const BUDGET_GZIP = 370 * 1024;
// The offline lesson carries every widget's first render since issue 18's prerender (declarative
// shadow DOM, each template with its stylesheets: 28 KB of markup and 19 KB of styles in its gzip):
// 396.8 KB, so 400 KB, until the wasm split wins it back. Results files (issue 19) and the widgets'
// languages (issue 20: i18n.js and the English catalog; the file carries only its page's language):
// 402.9 KB, so 404 KB; six widgets' texts in the English catalog: 405.2 KB, ten: 407.5 KB, so 412 KB;
// all sixteen, their panels and the library's messages (each text now a catalog entry, its key
// written twice): 421.7 KB, so 424 KB; 423.1 KB with tb-masks' fixed frame. The inlined wasm packed
// with xz instead of zopfli's gzip (issue 18): 392.7 KB, so 396 KB; results as JSON text: 386.6 KB,
// so 390 KB (388.4 KB once tb-masks' grids are drawn whole at 16 tokens). Charts fitted to the
// width they get (issue 33: the chart frame's stylesheet in each of the six chart widgets' own, 0.6
// KB of the gzip, and the tick labels and wordings a narrow box hides, 0.3 KB): 390.1 KB, so 392 KB;
// 390.3 KB with tb-moe's bars in the frame and the diagrams drawn for a 320 px phone; 391.9 KB with a
// real checkpoint's messages (issue 35), so 394 KB; 394.0 KB with the real model in every widget
// that looks inside one and the reader's own (issue 35: their texts in the catalog, the panel's and
// the switchers' code; the views themselves stay out), so 396 KB.
const LESSON_BUDGET_GZIP = 396 * 1024;
// The French edition (issue 20; French is longer than English, and its file carries the French
// catalog beside the English one it falls back to): 415.8 KB with the xz-packed wasm, so 420 KB;
// results as JSON text: 411.4 KB, so 414 KB; 413.4 KB with the charts fitted to their width (issue 33);
// 415.5 KB with a real checkpoint's messages (issue 35), so 416 KB; 417.0 KB with the reader's own
// real checkpoint dropped in its panel (issue 35; its messages, and the panel's code, which the
// one-file build keeps to refuse it), so 418 KB; 418.1 KB with the real model in every widget that
// looks inside one (issue 35), so 420 KB.
const LESSON_FR = `${DIST}transformer-block-lesson-fr.html`;
const LESSON_FR_BUDGET_GZIP = 420 * 1024;
// The served lesson as make dist prerenders it (dist/site/index.html; its stylesheets are files of
// their own): 39.7 KB, against 14 KB for www/index.html without its widgets' first render.
const SERVED_LESSON = `${DIST}site/index.html`;
// The facade's analytic half, the one module a served page fetches for its first screen and its
// analytic widgets (issue 18: at most 150 KB): 114.0 KB; 119.7 KB with the library's messages as data; 112.5 KB with
// results as JSON text.
const ANALYTIC_WASM = `${ROOT}www/pkg/analytic_bg.wasm`;
const ANALYTIC_BUDGET_GZIP = 150 * 1024;
const SERVED_LESSON_BUDGET_GZIP = 44 * 1024;
// TinyGPT read alone (the character model and its inspection, no analytic model, training or
// experiments), what a page of <tb-attention> or <tb-tiny-gpt> fetches (issue 36): 186.7 KB.
const MODEL_WASM = `${ROOT}www/pkg/model_bg.wasm`;
const MODEL_BUDGET_GZIP = 190 * 1024;
const WASM = `${ROOT}www/pkg/transformer_block_bg.wasm`;
// The library's messages as data (issue 20: each code's English template, and the message's data
// on every thrown error): 280.4 KB, so 282 KB; results as JSON text: 273.0 KB, so 276 KB.
const WASM_BUDGET_GZIP = 276 * 1024;

/** The policy the README recommends: nothing inline, no eval; WebAssembly compiles. */
const STRICT_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";
/** A made-up course site; every request to it is answered by page.route, any other is refused. */
const SITE = 'https://course.example';

const TAGS = [...new Set(scanElements().map((e) => e.tag))];

test.beforeAll(() => {
  for (const f of [LESSON, BUNDLE, `${DIST}npm/index.js`]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`make dist\``);
  }
});

/**
 * Records what a page does wrong (see recordProblems: console errors and warnings, uncaught
 * exceptions, failed requests and requests beyond `origin`), CSP violations (an init script listens
 * for securitypolicyviolation), and counts WebAssembly instantiations by wrapping
 * WebAssembly.instantiate, instantiateStreaming and the Instance constructor.
 */
async function watch(page, origin = SITE) {
  const problems = recordProblems(page, { origin });
  await page.addInitScript(() => {
    const tb = (window.__tb = { violations: [], instances: 0 });
    document.addEventListener('securitypolicyviolation', (e) => {
      tb.violations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
    // The facade's instances: a module given imports (wasm-bindgen's). The xz decoder that unpacks
    // the inlined wasm is instantiated with none, and is not counted.
    const facade = (imports) => imports !== undefined && Object.keys(imports).length > 0;
    for (const name of ['instantiate', 'instantiateStreaming']) {
      const original = WebAssembly[name];
      WebAssembly[name] = function (...args) {
        if (facade(args[1])) tb.instances++;
        return original.apply(this, args);
      };
    }
    WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
      construct(target, args, newTarget) {
        if (facade(args[1])) tb.instances++;
        return Reflect.construct(target, args, newTarget);
      },
    });
  });
  return problems;
}

/**
 * Serves `files` ({ path: { body, type, headers } }) at SITE and refuses every other request;
 * returns the list of every URL requested.
 */
async function serveSite(context, files) {
  const requested = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    const file = url.startsWith(`${SITE}/`) ? files[new URL(url).pathname] : undefined;
    if (!file) return route.abort('blockedbyclient');
    return route.fulfill({
      status: 200,
      headers: { 'Content-Type': file.type, ...(file.headers ?? {}) },
      body: file.body,
    });
  });
  return requested;
}

const bundleFile = () => ({ body: readFileSync(BUNDLE), type: 'text/javascript; charset=utf-8' });
const htmlFile = (body, csp = STRICT_CSP) => ({
  body,
  type: 'text/html; charset=utf-8',
  headers: csp ? { 'Content-Security-Policy': csp } : {},
});

/**
 * Every <tb-…> in the document and in shadow roots: its tag, whether its shadow root has content,
 * and the messages (.error[data-message]) it shows.
 */
function widgetReport(page) {
  return page.evaluate(() => {
    const out = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.localName.startsWith('tb-')) {
          out.push({
            tag: el.localName,
            defined: customElements.get(el.localName) !== undefined,
            rendered: Boolean(el.shadowRoot && el.shadowRoot.childElementCount > 0),
            messages: el.shadowRoot ? [...el.shadowRoot.querySelectorAll('.error[data-message]')].map((m) => m.textContent) : [],
          });
        }
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return out;
  });
}

/** Waits until every widget has rendered, then returns the report. */
async function allRendered(page) {
  await expect
    .poll(async () => (await widgetReport(page)).filter((w) => !w.rendered).map((w) => w.tag), {
      message: 'widgets without content in their shadow root',
      timeout: 15_000,
    })
    .toEqual([]);
  return widgetReport(page);
}

const shadowText = (locator) => locator.evaluate((el) => el.shadowRoot.textContent);

/**
 * Opens the offline lesson from disk with every other request refused and recorded; returns
 * { fileUrl, problems (see watch), requested (every URL asked for) } once every widget rendered.
 */
async function openLessonFile(page, context) {
  const fileUrl = pathToFileURL(LESSON).href;
  const requested = [];
  page.on('request', (req) => requested.push(req.url()));
  await context.route('**/*', (route) => (route.request().url() === fileUrl ? route.continue() : route.abort('blockedbyclient')));
  const problems = await watch(page, new URL(fileUrl).origin);
  await page.goto(fileUrl);
  const widgets = await allRendered(page);
  return { fileUrl, problems, requested, widgets };
}

// ------------------------------------------------------------------------------------------------

test.describe('the offline lesson, opened from disk', () => {
  test('renders every widget, answers interactions, and requests nothing but itself', async ({ page, context }, testInfo) => {
    const { fileUrl, problems, requested, widgets } = await openLessonFile(page, context);
    await page.screenshot({ path: testInfo.outputPath('lesson-file-top.png') });

    // Every element the project defines is defined here, and the page uses a good number of them.
    expect(await page.evaluate((tags) => tags.filter((t) => !customElements.get(t)), TAGS)).toEqual([]);
    expect(new Set(widgets.map((w) => w.tag)).size).toBeGreaterThanOrEqual(5);
    expect(widgets.filter((w) => w.messages.length)).toEqual([]);

    // The page's own script ran too: the presets table, from the same wasm instance.
    await expect(page.locator('#models tbody tr')).toHaveCount(8);
    await expect(page.locator('#models tbody tr[data-model="gpt2-small"] td').last()).toContainText('124,439,808');

    // The anatomy's model switcher.
    const anatomy = page.locator('tb-anatomy').first();
    await expect.poll(() => shadowText(anatomy)).toContain('124,439,808');
    await anatomy.getByLabel('Model', { exact: true }).selectOption('llama3-8b');
    await expect.poll(() => shadowText(anatomy)).toContain('8,030,261,248');

    // The reader's own config.json, pasted, and a checkpoint picked: read in the page, nothing fetched.
    await anatomy.getByLabel('Model', { exact: true }).selectOption({ label: 'Your model…' });
    await anatomy.getByLabel('config.json text').fill(readFileSync(`${ROOT}crate/tests/fixtures/hf/qwen2-0.5b.json`, 'utf8'));
    await anatomy.getByRole('button', { name: 'Show this model' }).click();
    await expect.poll(() => shadowText(anatomy)).toContain('494,032,768');
    const gpt = page.locator('tb-tiny-gpt').first();
    await gpt.getByLabel('Model', { exact: true }).selectOption({ label: 'Your checkpoint…' });
    await gpt.getByLabel('Checkpoint files').setInputFiles(['model.safetensors', 'config.json', 'vocab.json'].map((f) => `${ROOT}tests/e2e/fixtures/checkpoint/${f}`));
    await expect(gpt.locator('.model-note')).toContainText('from your checkpoint (model.safetensors)');

    // A worked example's input: LayerNorm of 2, 4, 6, 9 has mean 5.25.
    const layernorm = page.locator('tb-example[name="layernorm"]');
    await expect.poll(() => shadowText(layernorm)).toContain('-1.342');
    await layernorm.getByLabel('Vector x').fill('2, 4, 6, 9');
    await expect.poll(() => shadowText(layernorm)).toContain('5.25');

    expect(await page.evaluate(() => window.__tb.instances)).toBe(1);
    expect(await page.evaluate(() => window.__tb.violations)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('lesson-file.png'), fullPage: false });
    expect(problems).toEqual([]);
    expect(requested.filter((url) => url !== fileUrl && !url.startsWith('data:'))).toEqual([]);
  });
});

/** Train a <tb-train> for `steps` steps and return where it ran and what it said. */
async function trainBriefly(train, steps) {
  await train.getByLabel('Steps', { exact: true }).fill(String(steps));
  await train.getByRole('button', { name: 'Train' }).click();
  await expect(train.locator('.outcome')).toContainText(`After ${steps} steps the held-out loss is`, { timeout: 30_000 });
  return { where: await train.locator('.where').textContent(), outcome: await train.locator('.outcome').textContent() };
}

test.describe('training in what dist/ ships', () => {
  test('the offline lesson trains TinyGPT in a worker started from itself, and its reader uses the model', async ({ page, context }) => {
    const { fileUrl, problems, requested } = await openLessonFile(page, context);
    const train = page.locator('tb-train');
    await train.scrollIntoViewIfNeeded();
    const { where } = await trainBriefly(train, 50);
    expect(where).toBe('Training runs in a background worker: the page stays responsive.');
    const gpt = page.locator('tb-tiny-gpt');
    await gpt.getByLabel('Model').selectOption('trained');
    await expect(gpt.locator('.model-note')).toContainText('trained on this page for 50 steps');
    expect(await page.evaluate(() => window.__tb.violations)).toEqual([]);
    expect(problems).toEqual([]);
    expect(requested.filter((url) => url !== fileUrl && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
  });

  const trainPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Training</title>
<script src="/transformer-block.js"></script></head><body><tb-train></tb-train></body></html>`;

  test("with the README's policy plus worker-src blob:, the one-script embedding trains in a worker", async ({ page, context }) => {
    await serveSite(context, {
      '/train.html': htmlFile(trainPage, `${STRICT_CSP}; worker-src blob:`),
      '/transformer-block.js': bundleFile(),
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/train.html`);
    await allRendered(page);
    const { where } = await trainBriefly(page.locator('tb-train'), 40);
    expect(where).toBe('Training runs in a background worker: the page stays responsive.');
    expect(await page.evaluate(() => window.__tb.violations)).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('where the policy refuses a worker, it trains on the main thread in short slices instead', async ({ page, context }) => {
    await serveSite(context, {
      '/train.html': htmlFile(trainPage, STRICT_CSP),
      '/transformer-block.js': bundleFile(),
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/train.html`);
    await allRendered(page);
    const { where } = await trainBriefly(page.locator('tb-train'), 60);
    expect(where).toMatch(/^Training runs on the page itself, in slices of a few milliseconds \(the page does not allow a training worker\)\.$/);
    // The refusal is the browser's report of the policy doing its job, and nothing else went wrong.
    const violations = await page.evaluate(() => window.__tb.violations);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.startsWith('worker-src blocked blob'))).toBe(true);
    expect(problems.filter((p) => !/Content Security Policy|Refused to create a worker/i.test(p))).toEqual([]);
    // (How long the main thread is held is measured, not asserted here: BENCHMARKS.md.)
  });
});

test.describe('the experiments in what dist/ ships', () => {
  const experimentsPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Experiments</title>
<script src="/transformer-block.js"></script></head><body><tb-ablation></tb-ablation><tb-stream></tb-stream></body></html>`;

  for (const [policy, where] of [
    [`${STRICT_CSP}; worker-src blob:`, /^Measured in a background worker: the page stays responsive\.$/],
    [STRICT_CSP, /^Measured on the page itself, in slices of a few milliseconds \(the page does not allow a worker\)\.$/],
  ]) {
    test(`the ablation and the stream measure ${policy.includes('worker-src') ? 'in a worker' : 'on the main thread in slices where the policy refuses a worker'}`, async ({ page, context }) => {
      await serveSite(context, { '/experiments.html': htmlFile(experimentsPage, policy), '/transformer-block.js': bundleFile() });
      const problems = await watch(page);
      await page.goto(`${SITE}/experiments.html`);
      await allRendered(page);
      const ablation = page.locator('tb-ablation');
      await expect(ablation.locator('.status')).toContainText('Each loss scores 1,776 held-out positions', { timeout: 30_000 });
      await expect(ablation.locator('.where')).toHaveText(where);
      await expect(ablation.locator('.bars .bar')).toHaveCount(6);
      const stream = page.locator('tb-stream');
      await expect(stream.locator('.cards li')).toHaveCount(6);
      await expect(stream.locator('.where')).toHaveText(where);
      const violations = await page.evaluate(() => window.__tb.violations);
      expect(violations.every((v) => v.startsWith('worker-src blocked blob'))).toBe(true);
      expect(problems.filter((p) => !/Content Security Policy|Refused to create a worker/i.test(p))).toEqual([]);
    });
  }
});

test.describe('dist/transformer-block.js embedded in a course page', () => {
  const HOSTILE_CSS = `
    * { all: unset !important; }
    svg { display: none !important; }
    div { color: red !important; font-size: 40px !important; }
    p, span, table, td, th, section, button, select, input, label { visibility: hidden !important; display: none !important; }
    tb-anatomy, tb-example { font-family: "Comic Sans MS", cursive !important; }
  `;
  // One of every element (a worked example needs a name), inside a div the hostile CSS paints red,
  // plus two controls that show the hostile CSS did load and apply outside the widgets.
  const hostPage = (tags) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<link rel="stylesheet" href="/hostile.css">
<script src="/transformer-block.js"></script>
</head><body>
<p id="control-p">Course text the hostile CSS hides.</p>
<svg id="control-svg" width="10" height="10"><rect width="10" height="10"></rect></svg>
<div id="widgets">
${tags.map((t) => (t === 'tb-example' ? '<tb-example name="layernorm"></tb-example>' : `<${t}></${t}>`)).join('\n')}
</div>
</body></html>`;

  test('renders every widget under hostile CSS and a strict CSP, with no violation', async ({ page, context }, testInfo) => {
    const requested = await serveSite(context, {
      // The README's policy with worker-src blob:, which the experiments' worker (like training's) needs.
      '/lesson.html': htmlFile(hostPage(TAGS), `${STRICT_CSP}; worker-src blob:`),
      '/transformer-block.js': bundleFile(),
      '/hostile.css': { body: HOSTILE_CSS, type: 'text/css' },
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/lesson.html`);

    const widgets = await allRendered(page);
    expect(widgets.filter((w) => !w.defined)).toEqual([]);
    expect(widgets.filter((w) => w.messages.length)).toEqual([]);
    expect(new Set(widgets.map((w) => w.tag))).toEqual(new Set(TAGS));

    // The hostile CSS is there: outside the widgets, paragraphs and SVG are gone.
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('control-svg')).display)).toBe('none');
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('control-p')).display)).toBe('none');

    // Inside, it is not: each widget's content takes space, and its SVG is displayed with a size.
    const inside = await page.evaluate(() =>
      [...document.querySelectorAll('#widgets > *')].map((el) => {
        const box = (n) => n.getBoundingClientRect();
        const shown = [...el.shadowRoot.children].filter((c) => getComputedStyle(c).display !== 'none' && box(c).width > 0 && box(c).height > 0);
        const svgs = [...el.shadowRoot.querySelectorAll('svg')];
        return {
          tag: el.localName,
          shown: shown.length,
          svgs: svgs.length,
          hiddenSvgs: svgs.filter((s) => getComputedStyle(s).display === 'none' || box(s).width === 0 || box(s).height === 0).length,
        };
      }),
    );
    for (const w of inside) {
      expect(w.shown, `${w.tag}: visible children of its shadow root`).toBeGreaterThan(0);
      expect(w.hiddenSvgs, `${w.tag}: SVG hidden by the host's CSS`).toBe(0);
    }
    for (const tag of ['tb-anatomy', 'tb-cost-chart']) {
      expect(inside.find((w) => w.tag === tag)?.svgs, `${tag} draws SVG`).toBeGreaterThan(0);
    }
    // The widgets' own controls keep their styles (the host's `select { display: none }` stops at the shadow root).
    const select = page.locator('tb-anatomy').getByLabel('Model', { exact: true });
    await expect(select).toBeVisible();
    await select.selectOption('gpt2-medium');
    await expect.poll(() => shadowText(page.locator('tb-anatomy'))).toContain('Where GPT-2 medium');

    await page.screenshot({ path: testInfo.outputPath('hostile-host.png'), fullPage: false });
    expect(await page.evaluate(() => window.__tb.violations)).toEqual([]);
    expect(await page.evaluate(() => window.__tb.instances)).toBe(1);
    expect(problems).toEqual([]);
    expect(new Set(requested)).toEqual(new Set([`${SITE}/lesson.html`, `${SITE}/hostile.css`, `${SITE}/transformer-block.js`]));
  });

  test("the host's inherited styles (colour, font size) do not reach the widgets' text", async ({ page, context }) => {
    await serveSite(context, {
      // The README's policy with worker-src blob:, which the experiments' worker (like training's) needs.
      '/lesson.html': htmlFile(hostPage(TAGS), `${STRICT_CSP}; worker-src blob:`),
      '/transformer-block.js': bundleFile(),
      '/hostile.css': { body: HOSTILE_CSS, type: 'text/css' },
    });
    await page.goto(`${SITE}/lesson.html`);
    await allRendered(page);
    // Text directly in each widget's shadow tree: the first element child with text of its own.
    const leaks = await page.evaluate(() =>
      [...document.querySelectorAll('#widgets > *')].flatMap((el) => {
        if (el.localName === 'tb-number') return []; // inline in a sentence: inherits on purpose
        const first = [...el.shadowRoot.querySelectorAll('*')].find((n) => [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()));
        if (!first) return [];
        const style = getComputedStyle(first);
        return style.color === 'rgb(255, 0, 0)' || style.fontSize === '40px' ? [`${el.localName}: ${first.localName} is ${style.color}, ${style.fontSize}`] : [];
      }),
    );
    expect(leaks).toEqual([]);
  });

  test("without 'wasm-unsafe-eval' the widgets say what the policy lacks", async ({ page, context }) => {
    await serveSite(context, {
      '/lesson.html': htmlFile(hostPage(['tb-param-table']), STRICT_CSP.replace(" 'wasm-unsafe-eval'", '')),
      '/transformer-block.js': bundleFile(),
      '/hostile.css': { body: '', type: 'text/css' },
    });
    await page.goto(`${SITE}/lesson.html`);
    await expect.poll(() => shadowText(page.locator('tb-param-table'))).toContain("'wasm-unsafe-eval'");
  });

  test('two anatomies keep their own state; a late element renders; one wasm instance', async ({ page, context }) => {
    await serveSite(context, {
      '/lesson.html': htmlFile(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two</title>
<script src="/transformer-block.js"></script></head><body>
<tb-anatomy id="first"></tb-anatomy><tb-anatomy id="second"></tb-anatomy><tb-param-table></tb-param-table>
</body></html>`),
      '/transformer-block.js': bundleFile(),
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/lesson.html`);
    await allRendered(page);

    const first = page.locator('#first').getByLabel('Model', { exact: true });
    const second = page.locator('#second').getByLabel('Model', { exact: true });
    await expect(first).toHaveValue('gpt2-small');
    await expect(second).toHaveValue('gpt2-small');
    await first.selectOption('llama3-70b');
    await expect.poll(() => shadowText(page.locator('#first'))).toContain('Where Llama 3 70B');
    await expect(first).toHaveValue('llama3-70b');
    await expect(second).toHaveValue('gpt2-small');
    expect(await shadowText(page.locator('#second'))).toContain('Where GPT-2 small’s 124,439,808 parameters');
    expect(await shadowText(page.locator('#second'))).not.toContain('Where Llama 3 70B');

    // Added after load, by script (allowed: page.evaluate is not page script under the CSP).
    await page.evaluate(() => {
      const late = document.createElement('tb-anatomy');
      late.id = 'late';
      late.setAttribute('model', 'mixtral-8x7b');
      document.body.append(late);
    });
    await expect(page.locator('#late').getByLabel('Model', { exact: true })).toHaveValue('mixtral-8x7b');
    await allRendered(page);

    expect(await page.evaluate(() => window.__tb.instances)).toBe(1);
    expect(await page.evaluate(() => window.__tb.violations)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

test.describe('the npm package', () => {
  test('package.json, types and the ES module, which defines and exports every element', async ({ page, context }) => {
    const pkg = JSON.parse(readFileSync(`${DIST}npm/package.json`, 'utf8'));
    const root = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
    expect(pkg).toMatchObject({ name: 'transformer-block', version: root.version, type: 'module' });
    expect(pkg.exports['.']).toEqual({ types: './index.d.ts', default: './index.js' });
    for (const f of pkg.files) expect(existsSync(`${DIST}npm/${f}`), f).toBe(true);
    const dts = readFileSync(`${DIST}npm/index.d.ts`, 'utf8');
    const classes = scanElements().map((e) => e.className);
    for (const c of classes) expect(dts).toContain(`export declare class ${c} `);

    await serveSite(context, {
      '/app.html': htmlFile(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module" src="/app.js"></script></head><body><tb-param-table model="gpt2-small"></tb-param-table></body></html>`),
      '/app.js': {
        type: 'text/javascript',
        body: `import * as tb from './index.js';
window.__module = { names: Object.keys(tb), presets: (await tb.wasm).presets().length,
  same: ${JSON.stringify(scanElements())}.every((e) => customElements.get(e.tag) === tb[e.className]) };`,
      },
      '/index.js': { body: readFileSync(`${DIST}npm/index.js`), type: 'text/javascript' },
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/app.html`);
    await expect.poll(() => page.evaluate(() => window.__module)).toBeTruthy();
    const info = await page.evaluate(() => window.__module);
    expect(info.names).toEqual(expect.arrayContaining([...classes, 'TbElement', 'wasm']));
    expect(info).toMatchObject({ presets: 8, same: true });
    await expect.poll(() => shadowText(page.locator('tb-param-table'))).toContain('124,439,808');
    expect(await page.evaluate(() => window.__tb.violations)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

test.describe('the elements\u2019 manifest', () => {
  test('custom-elements.json lists every element, package.json points to it, the VS Code data names every tag', () => {
    const pkg = JSON.parse(readFileSync(`${DIST}npm/package.json`, 'utf8'));
    expect(pkg.customElements).toBe('custom-elements.json');
    expect(pkg.files).toEqual(expect.arrayContaining(['custom-elements.json', 'vscode.html-custom-data.json']));
    const text = readFileSync(`${DIST}npm/${pkg.customElements}`, 'utf8');
    expect(readFileSync(`${DIST}transformer-block/custom-elements.json`, 'utf8')).toBe(text);
    const manifest = JSON.parse(text);
    const elements = manifest.modules.flatMap((m) => m.declarations.filter((d) => d.tagName).map((d) => [d.tagName, d.name, m.path]));
    expect(elements).toHaveLength(16);
    expect(elements.sort()).toEqual(scanElements().map((e) => [e.tag, e.className, `elements/${e.file.split('/elements/')[1]}`]).sort());
    for (const [, , path] of elements) expect(existsSync(`${DIST}npm/${path}`), path).toBe(true);
    const data = JSON.parse(readFileSync(`${DIST}npm/vscode.html-custom-data.json`, 'utf8'));
    expect(data.tags.map((t) => t.name).sort()).toEqual([...TAGS].sort());
  });
});

test.describe('the npm package, one element at a time', () => {
  test('a bundler given one element\u2019s module defines that element alone', async ({ page, context }) => {
    // A site's source importing one element from the package, bundled by esbuild as a site would.
    const site = mkdtempSync(join(tmpdir(), 'tb-npm-'));
    mkdirSync(join(site, 'node_modules'));
    symlinkSync(`${DIST}npm`, join(site, 'node_modules', 'transformer-block'), 'dir');
    const bundled = await esbuild.build({
      stdin: { contents: "import 'transformer-block/elements/param-table.js';", resolveDir: site },
      bundle: true,
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    rmSync(site, { recursive: true, force: true });
    const js = bundled.outputFiles[0].text;
    await serveSite(context, {
      '/app.html': htmlFile(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module" src="/app.js"></script></head><body><tb-param-table model="gpt2-small"></tb-param-table></body></html>`),
      '/app.js': { type: 'text/javascript', body: js },
    });
    const problems = await watch(page);
    await page.goto(`${SITE}/app.html`);
    await expect.poll(() => shadowText(page.locator('tb-param-table'))).toContain('124,439,808');
    const defined = await page.evaluate((tags) => tags.filter((t) => customElements.get(t)), TAGS);
    expect(defined).toEqual(['tb-param-table']);
    expect(problems).toEqual([]);
  });
});

test.describe('size budget', () => {
  const budgets = [
    [`${DIST}transformer-block.js`, BUDGET_GZIP],
    [LESSON, LESSON_BUDGET_GZIP],
    [LESSON_FR, LESSON_FR_BUDGET_GZIP],
    [WASM, WASM_BUDGET_GZIP],
    [SERVED_LESSON, SERVED_LESSON_BUDGET_GZIP],
    [ANALYTIC_WASM, ANALYTIC_BUDGET_GZIP],
    [MODEL_WASM, MODEL_BUDGET_GZIP],
  ];
  for (const [file, budget] of budgets) {
    const name = file.replace(DIST, 'dist/').split('/').slice(-2).join('/').replace(/^(dist|pkg)\//, '');
    test(`${name} is at most ${budget / 1024} KB gzipped`, () => {
      const bytes = readFileSync(file);
      const gzip = gzipSync(bytes).length;
      console.log(`${name}: ${(bytes.length / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip`);
      expect(gzip).toBeLessThanOrEqual(budget);
    });
  }
});

test.describe('the lesson inliner', () => {
  const readLocal = (href) => ({ 'styles.css': 'body { color: black; }', 'bad.css': 'body { background: url(bg.png); }' })[href];
  const bundle = async (modules) => `/* ${modules.map((m) => m.path ?? 'inline').join(' ')} */`;
  const page = (head, body = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

  test('inlines the stylesheet, replaces module scripts with one classic script, drops online-only parts', async () => {
    const html = await inlineLessonPage(
      page(
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="styles.css"><script type="module" src="src/main.js"></script>',
        '<a href="#top">top</a> <a href="https://example.org/paper">paper</a> <p data-online-only><a href="transformer-block-lesson.html" download>Download this lesson</a></p><!-- <img src="x.png"> -->',
      ),
      { readLocal, bundle },
    );
    expect(html).toContain('<style>\nbody { color: black; }\n</style>');
    expect(html).toContain('<script>\n/* src/main.js */\n</script>\n</body>');
    expect(html).not.toMatch(/type="module"|styles\.css|Download this lesson|x\.png/);
    expect(html).toContain('<a href="https://example.org/paper">');
  });

  const refusals = {
    'an image file': page('<script type="module" src="a.js"></script>', '<img src="figure.png">'),
    'a classic script file': page('<script src="other.js"></script><script type="module" src="a.js"></script>'),
    'a stylesheet with url()': page('<link rel="stylesheet" href="bad.css"><script type="module" src="a.js"></script>'),
    'a link to another page': page('<script type="module" src="a.js"></script>', '<a href="gallery/">gallery</a>'),
    'an srcset': page('<script type="module" src="a.js"></script>', '<img src="data:," srcset="big.png 2x">'),
    'an inline style url()': page('<script type="module" src="a.js"></script>', '<div style="background:url(x.png)"></div>'),
  };
  for (const [what, html] of Object.entries(refusals)) {
    test(`fails loudly on ${what}`, async () => {
      await expect(inlineLessonPage(html, { readLocal, bundle })).rejects.toThrow(/cannot become one self-contained file/);
    });
  }

  test("keeps the page's Content-Security-Policy, adding the hashes of the inline script and style", async () => {
    const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
    const html = await inlineLessonPage(
      page(`<meta http-equiv="Content-Security-Policy" content="${policy}"><link rel="stylesheet" href="styles.css"><script type="module" src="a.js"></script>`),
      { readLocal, bundle },
    );
    const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const script = html.match(/<script>([\s\S]*?)<\/script>/)[1];
    const style = html.match(/<style>([\s\S]*?)<\/style>/)[1];
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval' ${hash(script)}; style-src 'self' ${hash(style)}">`,
    );
  });

  test('refuses a bundle that would end its inline <script> early', async () => {
    await expect(
      inlineLessonPage(page('<script type="module" src="a.js"></script>'), { readLocal, bundle: async () => 'let s = "</script>";' }),
    ).rejects.toThrow(/<\/script/);
  });
});
