// What `make dist` ships, tested as a learner and a course site would use it, with the network closed:
// the offline lesson opened from disk, dist/transformer-block.js on a hostile page under a strict
// Content-Security-Policy, several widgets and late ones sharing one wasm instance. (The npm package:
// npm.spec.js; the bytes: sizes.spec.js; the inliner: inliner.spec.js.) Needs dist/ (`make dist`;
// `make test` builds it).
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scanElements } from '../../scripts/build-dist.mjs';
import { SITE, STRICT_CSP, htmlFile, serveSite, shadowText, watch } from './course-page.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = `${ROOT}dist/`;
const LESSON = `${DIST}transformer-block-lesson.html`;
const BUNDLE = `${DIST}transformer-block.js`;


const TAGS = [...new Set(scanElements().map((e) => e.tag))];

test.beforeAll(() => {
  for (const f of [LESSON, BUNDLE, `${DIST}npm/index.js`]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`make dist\``);
  }
});

const bundleFile = () => ({ body: readFileSync(BUNDLE), type: 'text/javascript; charset=utf-8' });

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
            rendered: Boolean(el.shadowRoot && el.shadowRoot.childNodes.length > 0),
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
  // Live first: a fill (select all, then insert) that straddles the takeover would type into the
  // live field after its default (going-live.spec.js tests input before the takeover, a reader's way).
  await expect.poll(() => train.evaluate((el) => el.prerendered === false)).toBe(true);
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

  test("with the recommended policy (docs/embedding.md) plus worker-src blob:, the one-script embedding trains in a worker", async ({ page, context }) => {
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
      // The recommended policy (docs/embedding.md) with worker-src blob:, which the experiments' worker (like training's) needs.
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
      // The recommended policy (docs/embedding.md) with worker-src blob:, which the experiments' worker (like training's) needs.
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
