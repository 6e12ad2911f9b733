// Every gallery page in French and in Simplified Chinese, at a phone's 360 px: the page's lang
// switched once its widgets have rendered (as a course site's language would have it from the
// start), then axe-core finds no violation and nothing widens the page: long French words and
// Chinese labels fit, and every name axe checks is still there in the other language.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openPage, pageOverflow, waitForWidgets } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const AXE = readFileSync(`${ROOT}node_modules/axe-core/axe.min.js`, 'utf8');
const PAGES = readdirSync(`${ROOT}www/gallery`).filter((f) => f.endsWith('.html')).sort().map((f) => `/gallery/${f}`);

test.use({ bypassCSP: true, viewport: { width: 360, height: 800 } });

for (const lang of ['fr', 'zh-CN']) {
  test(`every gallery page in ${lang} at 360 px: no axe violation, nothing wider than the screen`, async ({ page }) => {
    test.setTimeout(240_000);
    const found = [];
    for (const path of PAGES) {
      const problems = await openPage(page, path);
      await waitForWidgets(page);
      await page.evaluate(async (l) => {
        await (await import('/src/i18n.js')).loadLanguage(l);
        document.documentElement.setAttribute('lang', l);
        // The widgets render again in the new language; then wait until none is busy.
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
        for (let i = 0; i < 200; i += 1) {
          await frame();
          if (i > 3 && widgets.every((el) => !el.busy)) break;
        }
      }, lang);
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await window.axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(' > ')}`);
      });
      found.push(...violations.map((v) => `${path}: ${v}`));
      const overflow = await pageOverflow(page);
      if (overflow > 0) found.push(`${path}: the page scrolls ${overflow} px sideways`);
      found.push(...problems.map((p) => `${path}: ${p.slice(0, 200)}`));
    }
    expect(found).toEqual([]);
  });
}
