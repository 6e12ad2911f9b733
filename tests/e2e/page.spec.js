// The demo lesson page as a reader gets it: served locally, wasm loaded, every widget rendered, and
// the page itself in order (contents, headings, skip link, the presets table, narrow and dark screens).
import { test, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { openPage, pageOverflow, waitForWidgets, widgetMessages } from './helpers.js';

/** Every page of www/gallery/ but its index. */
const GALLERY_PAGES = readdirSync(new URL('../../www/gallery/', import.meta.url)).filter((f) => f.endsWith('.html') && f !== 'index.html');

const PRESETS = [
  'tiny-gpt',
  'gpt2-small',
  'gpt2-medium',
  'gpt2-large',
  'gpt2-xl',
  'llama3-8b',
  'llama3-70b',
  'mixtral-8x7b',
];

test('loads with every widget, no console error, and no request beyond this site', async ({ page }) => {
  const problems = await openPage(page);
  await expect(page).toHaveTitle(/Inside the transformer block/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inside the transformer block');
  await waitForWidgets(page);
  expect(await widgetMessages(page)).toEqual([]);
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});

test('every widget says when it first shows its content: one tb-ready event each and its rendered promise', async ({ page }) => {
  await page.addInitScript(() => {
    window.__ready = [];
    document.addEventListener('tb-ready', (e) => window.__ready.push({ tag: e.target.localName, time: e.detail.time }));
  });
  await openPage(page);
  const seen = await page.evaluate(async () => {
    const all = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
    await Promise.all([...new Set(all.map((el) => el.localName))].map((tag) => customElements.whenDefined(tag)));
    const times = await Promise.all(all.map((el) => el.rendered));
    // What each shows when its promise resolves: content, not an empty shadow root.
    const empty = all.filter((el) => el.shadowRoot.textContent.trim() === '').map((el) => el.localName);
    return { count: all.length, events: window.__ready.length, last: Math.max(...times), empty };
  });
  expect(seen.count).toBeGreaterThan(100);
  expect(seen.events).toBe(seen.count);
  expect(seen.empty).toEqual([]);
  expect(seen.last).toBeGreaterThan(0);
  await waitForWidgets(page);
});

test('works under a strict Content-Security-Policy (no inline style or script, no eval)', async ({ page, baseURL }) => {
  // Sent as a header here rather than a <meta> in the page, so the offline build, which inlines its
  // CSS and script, is not bound by it.
  const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";
  await page.route(`${baseURL}/`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': CSP } });
  });
  const problems = await openPage(page);
  await waitForWidgets(page);
  expect(await widgetMessages(page)).toEqual([]);
  // Everything so far ran under the policy; a violation would have been a console error.
  expect(problems).toEqual([]);
  // Prove the policy is in force: an inline <style> is refused.
  const applied = await page.evaluate(() => {
    const style = document.createElement('style');
    style.textContent = 'body { --csp-probe: yes; }';
    document.head.append(style);
    return getComputedStyle(document.body).getPropertyValue('--csp-probe').trim();
  });
  expect(applied).toBe('');
});

test('headings go in order, and the contents link to every section', async ({ page }) => {
  const problems = await openPage(page);
  const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.localName[1])));
  expect(levels[0]).toBe(1);
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  for (let i = 1; i < levels.length; i++) {
    expect(levels[i], `heading ${i} jumps from h${levels[i - 1]}`).toBeLessThanOrEqual(levels[i - 1] + 1);
  }

  const toc = page.getByRole('navigation', { name: 'Contents' });
  const links = toc.getByRole('link');
  await expect(links).toHaveCount(13);
  const targets = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  for (const href of targets) {
    const section = page.locator(`section${href}`);
    await expect(section, href).toHaveCount(1);
  }
  // Each link names its section's heading.
  for (const link of await links.all()) {
    const href = await link.getAttribute('href');
    const heading = await page.locator(`${href} > h2`).textContent();
    expect(heading).toContain((await link.textContent()).trim());
  }
  await links.filter({ hasText: 'Check yourself' }).click();
  await expect(page).toHaveURL(/#self-check$/);
  expect(problems).toEqual([]);
});

test('the skip link is the first Tab stop and moves focus to the lesson', async ({ page }) => {
  const problems = await openPage(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the lesson' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  expect(problems).toEqual([]);
});

test('lists the eight presets with their shapes, computed by the wasm', async ({ page }) => {
  const problems = await openPage(page);
  const table = page.getByRole('table', { name: /presets/i });
  await expect(table).toBeVisible();
  await expect(page.locator('#models-status')).toContainText('8 models');

  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(8);
  await expect(rows.locator('th code')).toHaveText(PRESETS);

  // GPT-2 small: 12 layers, width 768, 12 heads, 12 KV heads, and its exact parameter count.
  const gpt2 = table.locator('tbody tr[data-model="gpt2-small"]');
  await expect(gpt2.locator('th')).toContainText('GPT-2 small');
  await expect(gpt2.locator('td')).toHaveText(['12', '768', '12', '12', /^124,439,808\b/]);

  // Llama 3 8B uses grouped-query attention: 32 query heads share 8 key/value heads.
  const llama = table.locator('tbody tr[data-model="llama3-8b"]');
  await expect(llama.locator('td').nth(2)).toHaveText('32');
  await expect(llama.locator('td').nth(3)).toHaveText('8');

  expect(problems).toEqual([]);
});

test('fits a 360px-wide phone without sideways scrolling of the page', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await openPage(page);
  await waitForWidgets(page);
  await expect(page.locator('#models tbody tr')).toHaveCount(8);
  const overflow = await pageOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  // Nothing sticks out past the right edge, inside a scrolling container or not.
  const sticking = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX) && p !== document.body) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !scrolls(el))
      .map((el) => `${el.localName}${el.id ? `#${el.id}` : ''}`);
  });
  expect(sticking).toEqual([]);
  expect(problems).toEqual([]);
});

test('renders in dark mode with the page palette passed on to the widgets', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await openPage(page);
  await waitForWidgets(page);
  const colours = await page.evaluate(() => {
    const body = getComputedStyle(document.body);
    const widget = document.querySelector('tb-param-table');
    return {
      bodyBg: body.backgroundColor,
      bodyFg: body.color,
      widgetBg: getComputedStyle(widget).backgroundColor,
    };
  });
  expect(colours.bodyBg).toBe('rgb(21, 23, 27)');
  expect(colours.bodyFg).toBe('rgb(230, 232, 236)');
  expect(colours.widgetBg).toBe('rgb(27, 30, 35)');
  const shot = await page.screenshot({ fullPage: false });
  expect(shot.length).toBeGreaterThan(10_000);
  await testInfo.attach('dark-360', { body: shot, contentType: 'image/png' });

  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(253, 253, 252)');
  expect(problems).toEqual([]);
});

test('says so clearly when the wasm cannot be loaded', async ({ page }) => {
  await page.route('**/pkg/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
  // The page as www/ has it: no table to show.
  await page.goto('/?live');
  const status = page.locator('#models-status');
  await expect(status).toHaveRole('status');
  await expect(status).toContainText('could not be loaded, so this page cannot show its numbers');
  await expect(status).toHaveClass(/error/);
  await expect(page.locator('#models')).toBeHidden();
  // As make dist prerendered it: the table it was built with stays, and the status says so.
  await page.goto('/');
  await expect(status).toContainText('could not be loaded, so the figures are the ones this page was built with');
  await expect(status).toHaveClass(/error/);
  await expect(page.locator('#models tr[data-model="llama3-70b"]')).toContainText('70,553,706,496');
});

test('the gallery lists every widget page, and each one loads', async ({ page, baseURL }) => {
  const problems = await openPage(page, '/gallery/');
  const links = page.getByRole('main').getByRole('link');
  const hrefs = (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).filter((h) => h.endsWith('.html'));
  expect([...hrefs].sort()).toEqual([...GALLERY_PAGES].sort());
  for (const href of hrefs) {
    const res = await page.request.get(new URL(href, `${baseURL}/gallery/`).href);
    expect(res.status(), href).toBe(200);
  }
  expect(problems).toEqual([]);
});

test('at 360px the presets table is a card per model, every count in view', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const problems = await openPage(page);
  const table = page.locator('#models');
  await expect(table).toBeVisible();
  expect(await table.evaluate((el) => el.parentElement.scrollWidth - el.parentElement.clientWidth)).toBeLessThanOrEqual(0);
  const params = table.locator('tr[data-model="llama3-70b"] td').last();
  await expect(params).toHaveAttribute('data-label', 'Parameters');
  await expect(params).toContainText('70,553,706,496');
  for (const box of await table.locator('td').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(360);
  }
  expect(problems).toEqual([]);
});
