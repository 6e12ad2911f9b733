// Firefox smoke test of the lesson, deployed (dist/site/, make site: its minified modules through the
// folder's autoloader, served with brotli by scripts/serve.mjs --site) and as the offline file (dist/transformer-block-lesson.html from file://), in headless Firefox ESR driven by
// geckodriver: every widget renders with the wasm's numbers, one interaction per kind of widget
// gives the figure it should (widgets.mjs), and the page throws nothing and logs no error or warning.
//
//   make test-e2e-firefox                       (builds dist/site/ first; part of make test)
//   node --test tests/firefox/                  (with www/pkg and dist/ built, geckodriver on PATH
//                                                or in ~/.cargo/bin; GECKODRIVER / FIREFOX override)

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFirefox, startServer, unrenderedWidgets, Widget, widgetMessages } from './firefox.mjs';
import { CHECKS } from './widgets.mjs';

const LESSON_FILE = fileURLToPath(new URL('../../dist/transformer-block-lesson.html', import.meta.url));
const TIMEOUT = { timeout: 60_000 };

let browser;
let server;

const PAGES = [
  ['the deployed lesson (dist/site/)', () => `${server.origin}/`],
  ['the offline lesson file', () => {
    assert.ok(existsSync(LESSON_FILE), `${LESSON_FILE} is missing: run make dist`);
    return pathToFileURL(LESSON_FILE).href;
  }],
];

// One suite around everything, so that a failure to start (no geckodriver, say) is reported with
// its message rather than as cancelled tests.
describe('the lesson in Firefox', () => {
  before(async () => {
    browser = await startFirefox();
    server = await startServer('--site');
  }, TIMEOUT);

  after(async () => {
    await browser?.quit();
    await server?.stop();
  }, TIMEOUT);

  for (const [name, url] of PAGES) {
    describe(name, () => {
      let rendered = false;
      const page = { widget: (host) => new Widget(browser.driver, host) };

      before(async () => {
        browser.problems.length = 0;
        await browser.driver.get(url());
      }, TIMEOUT);

      test('every widget renders, every tb-number shows a number, no widget shows a message', TIMEOUT, async () => {
        const { driver } = browser;
        assert.deepEqual(await unrenderedWidgets(driver), [], 'widgets that did not render within 20 s');
        const tags = await driver.executeScript(() => [...new Set([...document.querySelectorAll('*')].map((el) => el.localName).filter((t) => t.startsWith('tb-')))]);
        assert.deepEqual([...tags].sort(), [...new Set(CHECKS.map(([tag]) => tag))].sort(), 'the kinds of widget on the page, each with its check');
        const numbers = await driver.executeScript(() => [...document.querySelectorAll('tb-number')].map((el) => ({ value: el.getAttribute('value'), text: el.shadowRoot.textContent, error: el.hasAttribute('data-error') })));
        assert.ok(numbers.length > 100, `only ${numbers.length} tb-number elements`);
        assert.deepEqual(numbers.filter((n) => n.error || !/\d/.test(n.text) || n.text.startsWith('[')), [], 'tb-number elements without a number');
        assert.deepEqual(await widgetMessages(driver), []);
        rendered = true;
      });

      for (const [tag, host, check] of CHECKS) {
        test(`${tag} (${host}): its numbers, and one interaction`, TIMEOUT, async () => {
          assert.ok(rendered, 'the page did not render (see the first test)');
          await check(page.widget(host), page);
        });
      }

      test('no uncaught exception, no console error or warning', () => {
        assert.deepEqual(browser.problems, []);
      });
    });
  }
});
