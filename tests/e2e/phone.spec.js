// The lesson on a 360 px phone, light and dark: a screenshot of every widget (attached to the test
// report), and measurements of what a reader could not read there: text set below 11 px (SVG text at
// its effective size, after the drawing is scaled to its box), text outside the screen or cut off
// by a box that scrolls sideways, and the cost chart's T marker crossing a title.

import { expect, test } from '@playwright/test';
import { openPage, pageOverflow, waitForWidgets } from './helpers.js';

const PHONE = { width: 360, height: 740 };
const SMALLEST_TEXT = 11; // px

/**
 * In the page: for every widget (tb-number aside: it is text in a sentence), the problems found:
 * text under `smallest` px, text beyond the screen's edges, boxes that scroll sideways.
 */
function measureWidgets({ smallest }) {
  const found = [];
  const screen = document.documentElement.clientWidth;
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const name = (host) => `${host.localName}${host.getAttribute('name') ? ` ${host.getAttribute('name')}` : ''}`;
  for (const host of document.querySelectorAll('*')) {
    if (!host.localName.startsWith('tb-') || host.localName === 'tb-number' || !host.shadowRoot) continue;
    const where = name(host);
    const root = host.shadowRoot;
    // SVG text: the computed size times the scale the drawing is shown at.
    for (const t of root.querySelectorAll('svg text')) {
      if (!shown(t) || t.textContent.trim() === '') continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < smallest - 0.05) found.push(`${where}: SVG text "${t.textContent.slice(0, 24)}" at ${px.toFixed(1)} px`);
    }
    // Every other text: its size, and where its lines fall.
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || node.textContent.trim() === '' || el.closest('svg, style, .visually-hidden') || !shown(el)) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < smallest - 0.05) found.push(`${where}: text "${node.textContent.trim().slice(0, 24)}" at ${px} px`);
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width > 0 && (r.left < -0.5 || r.right > screen + 0.5)) {
          found.push(`${where}: text "${node.textContent.trim().slice(0, 24)}" from ${Math.round(r.left)} to ${Math.round(r.right)} px`);
          break;
        }
      }
    }
    // Nothing scrolls sideways: a figure in a scroll box is one a phone reader may never see.
    for (const el of root.querySelectorAll('*')) {
      if (shown(el) && el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX)) {
        found.push(`${where}: ${el.localName}.${el.className?.baseVal ?? el.className} scrolls sideways (${el.scrollWidth} in ${el.clientWidth} px)`);
      }
    }
    const box = host.getBoundingClientRect();
    if (box.left < -0.5 || box.right > screen + 0.5) found.push(`${where}: the widget spans ${Math.round(box.left)} to ${Math.round(box.right)} px`);
  }
  return found;
}

for (const scheme of ['light', 'dark']) {
  test(`every widget at 360 px (${scheme}): text 11 px or more, all of it on screen, nothing scrolling sideways`, async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(PHONE);
    const problems = await openPage(page, '/');
    await waitForWidgets(page);
    const tags = await page.evaluate(() =>
      [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-') && el.localName !== 'tb-number').map((el, i) => {
        el.dataset.phoneShot = String(i);
        return `${el.localName}${el.getAttribute('name') ? `-${el.getAttribute('name')}` : ''}`;
      }),
    );
    expect(tags.length).toBeGreaterThan(20);
    for (const [i, tag] of tags.entries()) {
      const shot = await page.locator(`[data-phone-shot="${i}"]`).screenshot();
      await testInfo.attach(`${scheme}-360-${tag}.png`, { body: shot, contentType: 'image/png' });
    }
    expect(await page.evaluate(measureWidgets, { smallest: SMALLEST_TEXT })).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('at 360 px the cost chart\u2019s T marker crosses no title or axis label, wherever T is', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const problems = await openPage(page, '/');
  await waitForWidgets(page);
  const chart = page.locator('tb-cost-chart').first();
  const field = chart.locator('input[type="number"]');
  for (const t of ['1', '8', '64', '300', '512', '1000', '1024']) {
    await field.fill(t);
    await field.press('Enter');
    await expect(chart.locator('.readout')).toContainText(`At T = ${Number(t).toLocaleString('en-US')}:`);
    const crossings = await chart.evaluate((host) => {
      const root = host.shadowRoot;
      const svg = root.querySelector('svg.cost-chart');
      const box = svg.getBoundingClientRect();
      // The marker's segments (M x,top V bottom …: x in the stretched drawing's 1,000 units across
      // the plot, y in px), on screen.
      const d = root.querySelector('.cursor-line').getAttribute('d');
      const segments = [...d.matchAll(/M([\d.]+),([\d.]+)V([\d.]+)/g)].map(([, x, y1, y2]) => ({
        x: box.left + (x / 1000) * box.width,
        top: box.top + Number(y1),
        bottom: box.top + Number(y2),
      }));
      if (segments.length !== 2) return [`the marker has ${segments.length} segments: ${d}`];
      // Every text but the crossover's own label (drawn over the marker, with a halo).
      return [...root.querySelectorAll('svg text')]
        .filter((text) => !text.closest('.crossover') && text.textContent.trim() !== '')
        .filter((text) => {
          const r = text.getBoundingClientRect();
          return segments.some((sg) => sg.x >= r.left && sg.x <= r.right && sg.top <= r.bottom && sg.bottom >= r.top);
        })
        .map((text) => text.textContent);
    });
    expect(crossings, `T = ${t}`).toEqual([]);
  }
  expect(problems).toEqual([]);
});

test('the French lesson at 360 px: longer French words keep every widget on screen, nothing scrolling sideways', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize(PHONE);
  const problems = await openPage(page, '/fr/');
  await waitForWidgets(page);
  expect(await page.evaluate(measureWidgets, { smallest: SMALLEST_TEXT })).toEqual([]);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});
