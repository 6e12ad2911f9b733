// How the deployed lesson (dist/site/, served as a static host serves it) goes live on a phone: the
// widgets near the viewport first, the others as they come near it or in the page's idle time
// (render-queue.js); until then their prerendered figures stay, and a reader's input on one is
// applied once it is live. Without IntersectionObserver or requestIdleCallback every widget still
// goes live. The lesson's elements at load are held to a budget.
import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/browser.mjs';
import { recordProblems } from './helpers.js';

const SITE = fileURLToPath(new URL('../../dist/site/index.html', import.meta.url));
const PHONE = { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true };
/**
 * The lesson's elements as it loads, shadow roots included (what Lighthouse's DOM size counts, near
 * enough): 3,609 before tb-number's shadow root held its text alone (2026-12-07), 3,283 after.
 * Held here; the goal is 1,500 (issue 47), which needs fewer nodes in the charts and tables.
 */
const LESSON_ELEMENTS = 3300;

let server;
test.beforeAll(async () => {
  expect(existsSync(SITE), 'dist/site/ is built by make site').toBe(true);
  server = await startServer({ site: true });
});
test.afterAll(() => server?.stop());
test.use(PHONE);

/** In the page: the page never idle, so that only the viewport (and the reader) bring widgets live. */
const NEVER_IDLE = () => {
  window.requestIdleCallback = () => 0;
};

const isLive = (el) => el.prerendered === false;

/**
 * The lesson, never idle, once its first screen is live and <tb-memory>'s module is here: its
 * problems and the <tb-memory> far below, still as prerendered.
 */
async function lessonWithMemoryNotLive(page) {
  await page.addInitScript(NEVER_IDLE);
  const problems = recordProblems(page, { origin: server.origin });
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => customElements.get('tb-memory') && document.querySelector('tb-number').prerendered === false);
  const memory = page.locator('tb-memory');
  expect(await memory.evaluate(isLive)).toBe(false);
  return { problems, memory };
}

test('a widget below the fold stays as prerendered until it comes near the viewport, then goes live', async ({ page }) => {
  await page.addInitScript(NEVER_IDLE);
  const problems = recordProblems(page, { origin: server.origin });
  await page.goto(`${server.origin}/`);
  const memory = page.locator('tb-memory');
  // The first screen goes live (on a phone: two numbers in its prose); the widget far below does
  // not, though its module is here.
  await expect.poll(() => page.evaluate(() => document.querySelector('tb-number').prerendered)).toBe(false);
  await page.waitForFunction(() => customElements.get('tb-memory'));
  await page.waitForTimeout(1000);
  expect(await memory.evaluate(isLive)).toBe(false);
  expect(await memory.evaluate((el) => /\d/.test(el.shadowRoot.textContent)), 'its figures, prerendered').toBe(true);
  await memory.scrollIntoViewIfNeeded();
  await expect.poll(() => memory.evaluate(isLive)).toBe(true);
  expect(problems).toEqual([]);
});

test('a widget that goes live far from the screen paints its maps once it comes near, not before', async ({ page }) => {
  const problems = recordProblems(page, { origin: server.origin });
  await page.goto(`${server.origin}/`);
  const attention = page.locator('tb-attention');
  // Live in the background (idle time), far below the first screen.
  await expect.poll(() => attention.evaluate(isLive), { timeout: 30_000 }).toBe(true);
  await expect(attention.locator('figure.head-map')).toHaveCount(8);
  const map = attention.locator('figure.head-map canvas').first();
  // The first query's one weight, in the darkest shade once painted (attention.spec.js).
  const firstCell = (canvas) => {
    const r = devicePixelRatio;
    return canvas.getContext('2d').getImageData(Math.round((16 + 6) * r), Math.round((14 + 6) * r), 1, 1).data[3];
  };
  expect(problems).toEqual([]); // (before the test reads pixels again and again, which Chromium warns of)
  expect(await map.evaluate(firstCell), 'not painted while far').toBe(0);
  await map.scrollIntoViewIfNeeded();
  await expect.poll(() => map.evaluate(firstCell)).toBe(255);
});

test('an inline number that took its prerender as its first render speaks a language set later', async ({ page }) => {
  const problems = recordProblems(page, { origin: server.origin });
  await page.goto(`${server.origin}/`);
  const number = page.locator('tb-number[value="total_params"]:not([model]):not([seq-len])').first();
  await expect.poll(() => number.evaluate(isLive)).toBe(true);
  expect(await number.evaluate((el) => el.shadowRoot.textContent)).toBe('124,439,808');
  await page.evaluate(() => (document.documentElement.lang = 'fr'));
  await expect.poll(() => number.evaluate((el) => el.shadowRoot.textContent)).toBe('124\u202f439\u202f808');
  expect(problems).toEqual([]);
});

test('an input on a widget that is not live yet is applied once it is', async ({ page }) => {
  const { problems, memory } = await lessonWithMemoryNotLive(page);
  const before = await memory.locator('[aria-live]').first().textContent();
  // As a reader does it: a tap on the field, its text selected, a figure typed.
  const batch = memory.getByLabel('Batch', { exact: false }).first();
  await batch.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('4');
  await expect.poll(() => memory.evaluate(isLive)).toBe(true);
  await expect(batch).toHaveValue('4');
  // What the widget shows now is what one made with a batch of 4 shows.
  const shown = await memory.locator('[aria-live]').first().textContent();
  expect(shown).not.toEqual(before);
  await memory.evaluate((el) => {
    const twin = document.createElement('tb-memory');
    twin.setAttribute('batch', '4');
    twin.id = 'twin';
    el.before(twin);
  });
  const twin = page.locator('#twin');
  await expect.poll(() => twin.evaluate((el) => el.rendered.then(() => true))).toBe(true);
  expect(await twin.locator('[aria-live]').first().textContent()).toEqual(shown);
  expect(problems).toEqual([]);
});

test('a tap on a button of a widget that is not live yet is not lost: it acts once the widget is live', async ({ page }) => {
  // The library held back until after the tap: the tap lands on the prerendered button, and the
  // live render replays it (at the same place, the prerender's stylesheet links not counted).
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  const { problems, memory } = await lessonWithMemoryNotLive(page);
  const seqLen = memory.locator('input[type=number]').nth(1);
  const before = await seqLen.inputValue();
  // The button that sets T to the model's whole context (GPT-2 small: 1,024).
  await memory.getByRole('button', { name: /1,024/ }).tap();
  expect(await memory.evaluate(isLive), 'not live while its library loads').toBe(false);
  release();
  await expect.poll(() => memory.evaluate(isLive)).toBe(true);
  await expect(seqLen).toHaveValue('1024');
  expect(before).not.toEqual('1024');
  expect(problems).toEqual([]);
});

test('without IntersectionObserver or requestIdleCallback every widget still goes live', async ({ page }) => {
  await page.addInitScript(() => {
    delete window.IntersectionObserver;
    delete window.requestIdleCallback;
  });
  const problems = recordProblems(page, { origin: server.origin });
  await page.goto(`${server.origin}/`);
  const notLive = await page.evaluate(async () => {
    const all = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
    await Promise.all(all.map((el) => customElements.whenDefined(el.localName).then(() => el.rendered)));
    return all.filter((el) => el.prerendered !== false).map((el) => el.localName);
  });
  expect(notLive).toEqual([]);
  expect(problems).toEqual([]);
});

test(`the lesson loads with at most ${LESSON_ELEMENTS} elements, shadow roots included, every widget prerendered`, async ({ page }) => {
  await page.goto(`${server.origin}/`, { waitUntil: 'domcontentloaded' });
  const { elements, widgets, prerendered } = await page.evaluate(() => {
    const count = (root) => [...root.querySelectorAll('*')].reduce((n, el) => n + 1 + (el.shadowRoot ? count(el.shadowRoot) : 0), 0);
    const all = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
    return { elements: count(document), widgets: all.length, prerendered: all.filter((el) => el.shadowRoot?.childNodes.length).length };
  });
  expect(prerendered).toBe(widgets);
  expect(elements).toBeLessThanOrEqual(LESSON_ELEMENTS);
});
