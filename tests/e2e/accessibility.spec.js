// axe-core (the npm package, run inside the page) on the lesson page and on every gallery page, in
// light and dark mode: zero violations of any rule it checks (WCAG 2 A and AA among them: contrast,
// names, heading order, landmarks). The gallery pages carry a strict Content-Security-Policy, which
// would refuse the injected script, so the test context bypasses it.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openPage, waitForWidgets } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const AXE = readFileSync(`${ROOT}node_modules/axe-core/axe.min.js`, 'utf8');
const PAGES = ['/', '/fr/', ...readdirSync(`${ROOT}www/gallery`).filter((f) => f.endsWith('.html')).sort().map((f) => `/gallery/${f}`)];

test.use({ bypassCSP: true });

for (const scheme of ['light', 'dark']) {
  test(`no axe violations on the lesson and every gallery page, ${scheme} mode`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    const found = [];
    for (const path of PAGES) {
      await openPage(page, path);
      await waitForWidgets(page);
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await window.axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(' > ')}`);
      });
      found.push(...violations.map((v) => `${path}: ${v}`));
    }
    expect(found).toEqual([]);
  });
}
