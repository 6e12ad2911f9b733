// The gallery's page per element (www/gallery/tb-NAME.html, written by make dist from the manifest:
// scripts/dist/element-docs.mjs): each holds every attribute, event and CSS custom property the
// manifest names, its live example renders without a message, the gallery's index links it, and a
// copy button puts its snippet on the clipboard (keyboard, and said in the status line).
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { manifestElements } from '../../scripts/dist/manifest.mjs';
import { recordProblems } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}dist/npm/custom-elements.json`, 'utf8'));
const ELEMENTS = manifestElements(manifest).map(({ decl }) => decl);

test.describe.configure({ mode: 'parallel' });

test('the gallery links a page for every element of the manifest', async ({ page }) => {
  await page.goto('/gallery/index.html');
  const links = await page.locator('a[href^="tb-"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(links.sort()).toEqual(ELEMENTS.map((d) => `${d.tagName}.html`).sort());
});

for (const decl of ELEMENTS) {
  test(`gallery/${decl.tagName}.html: every attribute, event and CSS property the manifest names, a live example without a message`, async ({ page }) => {
    const problems = recordProblems(page);
    await page.goto(`/gallery/${decl.tagName}.html`);
    const rows = (attr) => page.locator(`tr[${attr}]`).evaluateAll((trs, a) => trs.map((tr) => tr.getAttribute(a)), attr);
    expect(await rows('data-attribute')).toEqual((decl.attributes ?? []).map((a) => a.name));
    expect(await rows('data-event')).toEqual((decl.events ?? []).map((e) => e.name));
    expect(await rows('data-css-property')).toEqual((decl.cssProperties ?? []).map((p) => p.name));
    // Each attribute's default, where it has one, is in its row.
    for (const a of decl.attributes ?? []) {
      if (a.default !== undefined) await expect(page.locator(`tr[data-attribute="${a.name}"]`)).toContainText(a.default);
    }
    await expect(page.locator('main > h3')).toHaveText(['One file', 'The folder, with its autoloader', 'npm', 'React 19', 'Vue', 'Svelte']);
    const live = page.locator(`main > ${decl.tagName}, main > p > ${decl.tagName}`).first();
    await live.evaluate((el) => el.rendered);
    expect(await live.evaluate((el) => el.shadowRoot.querySelector('[data-message], .error:not([hidden])')?.textContent ?? null)).toBeNull();
    expect(problems).toEqual([]);
  });
}

test('a copy button copies its snippet, from the keyboard, and says so', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/gallery/tb-masks.html');
  const button = page.getByRole('button', { name: 'Copy the React 19 snippet' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("import 'transformer-block/elements/masks.js';");
  expect(copied).toContain('<tb-masks tokens="4" />');
});
