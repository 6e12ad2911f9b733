// Every chart's text readable at every width: at 320, 360, 768 and 1280 px, the lesson (English and
// French) and the gallery as first shown (the prerendered markup, JavaScript off) and once live, and
// the charts and diagrams in Chinese live: each SVG text of every widget set at 11 CSS px or more
// (its font size times the scale it is drawn at), its box at least 9 px high on screen, and no two
// texts of one chart overlapping.

import { expect, test } from '@playwright/test';
import { openInLanguage, openPage, waitForWidgets } from './helpers.js';

const WIDTHS = [320, 360, 768, 1280];
const SMALLEST_BOX = 9; // px: the height of a text's box on screen
const SMALLEST_TEXT = 11; // CSS px: a text's font size on screen (the page's smallest)
const GALLERY = ['anatomy', 'attention', 'cost-chart', 'examples', 'experiments', 'masks', 'memory', 'moe', 'param-table', 'tiny-gpt', 'train', 'training-cost'];

/** In the page: the problems of every chart (a top-level <svg> in a widget's shadow root). */
function chartProblems({ smallest, smallestText = 11 }) {
  const found = [];
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && el.textContent.trim() !== '';
  for (const host of document.querySelectorAll('*')) {
    if (!host.localName.startsWith('tb-') || !host.shadowRoot) continue;
    const where = `${host.localName}${host.id ? `#${host.id}` : ''}`;
    for (const svg of host.shadowRoot.querySelectorAll('svg')) {
      if (svg.parentElement?.closest('svg')) continue; // a nested <svg> belongs to its chart
      const boxes = [...svg.querySelectorAll('text')].filter(shown).map((text) => ({ text: text.textContent.trim().slice(0, 24), r: text.getBoundingClientRect() }));
      for (const b of boxes) if (b.r.height < smallest) found.push(`${where}: "${b.text}" ${b.r.height.toFixed(1)} px high`);
      // The size it is set at, times the scale of a drawing that fits its box by its viewBox.
      for (const text of [...svg.querySelectorAll('text')].filter(shown)) {
        const m = text.getScreenCTM();
        const px = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
        if (px < smallestText - 0.05) found.push(`${where}: "${text.textContent.trim().slice(0, 24)}" set at ${px.toFixed(2)} px`);
      }
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i].r, boxes[j].r];
          const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (across > 1 && down > 1) found.push(`${where}: "${boxes[i].text}" overlaps "${boxes[j].text}"`);
        }
      }
    }
  }
  return found;
}

const pages = ['/', '/fr/', ...GALLERY.map((name) => `/gallery/${name}.html`)];

for (const width of WIDTHS) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('as first shown (prerendered, no JavaScript): every chart text readable, none overlapping', async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
      const page = await context.newPage();
      try {
        const problems = [];
        for (const path of pages) {
          await page.goto(path);
          const charts = await page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => el.shadowRoot?.querySelector('svg')).length);
          if (path === '/' || path === '/fr/') expect(charts, `${path}: prerendered charts`).toBeGreaterThan(5);
          problems.push(...(await page.evaluate(chartProblems, { smallest: SMALLEST_BOX, smallestText: SMALLEST_TEXT })).map((p) => `${path} ${p}`));
        }
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    test('live, the lesson in English and French: every chart text readable, none overlapping', async ({ context }) => {
      test.setTimeout(60_000);
      // A page each: leaving the English one could cut short a module it was still fetching (the
      // background renders import some late), which would count as a failed request of the French one.
      for (const path of ['/', '/fr/']) {
        const page = await context.newPage();
        const problems = await openPage(page, path);
        await waitForWidgets(page);
        await page.waitForLoadState('networkidle'); // the whole facade, fetched once the page is live
        expect(await page.evaluate(chartProblems, { smallest: SMALLEST_BOX, smallestText: SMALLEST_TEXT }), path).toEqual([]);
        expect(problems).toEqual([]);
        await page.close();
      }
    });
  });
}

test('live, the gallery at 320 and 1280 px: every chart text readable, none overlapping', async ({ page }) => {
  test.setTimeout(90_000);
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const name of GALLERY) {
      const problems = await openPage(page, `/gallery/${name}.html`);
      await waitForWidgets(page);
      // What a widget fetches once live (a measuring module, say) arrives before the next page.
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(chartProblems, { smallest: SMALLEST_BOX, smallestText: SMALLEST_TEXT }), `${name} at ${width} px`).toEqual([]);
      expect(problems).toEqual([]);
    }
  }
});

const CHARTS = '<tb-train></tb-train><tb-norm-race></tb-norm-race><tb-cost-chart></tb-cost-chart><tb-ablation></tb-ablation><tb-stream></tb-stream><tb-anatomy></tb-anatomy><tb-moe></tb-moe><tb-masks></tb-masks>';

for (const width of WIDTHS) {
  test(`the charts and diagrams in Chinese at ${width} px: every text readable, none overlapping`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const problems = await openInLanguage(page, { path: '/zh-charts.html', lang: 'zh-CN', body: CHARTS, selector: 'tb-train, tb-norm-race, tb-cost-chart, tb-ablation, tb-stream, tb-anatomy, tb-moe, tb-masks' });
    await expect.poll(() => page.evaluate(() => document.querySelector('tb-stream').shadowRoot.querySelectorAll('svg.adds rect').length), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => document.querySelector('tb-ablation').shadowRoot.querySelectorAll('svg.bars rect').length), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.evaluate(chartProblems, { smallest: SMALLEST_BOX, smallestText: SMALLEST_TEXT })).toEqual([]);
    expect(problems).toEqual([]);
  });
}
