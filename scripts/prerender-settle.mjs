// When a page of widgets has settled: no widget busy (the experiments measure after their first
// render), and what `read()` returns the same twice in a row, SETTLE_MS apart. The prerender
// (scripts/prerender.mjs) reads a page this way before it writes it down, and its tests
// (tests/e2e/prerender.spec.js) read the live page the same way before they compare.
//
//   const markup = await settled(page, () => page.evaluate(widgetMarkup), url);   // page: Playwright's

export const SETTLE_MS = 300;
export const TIMEOUT_MS = 60_000;

export async function settled(page, read, what) {
  const started = Date.now();
  let last = null;
  for (;;) {
    await page.waitForFunction(() => [...document.querySelectorAll('*')].every((el) => !el.busy), null, { timeout: TIMEOUT_MS });
    await page.waitForTimeout(SETTLE_MS);
    const now = await read();
    if (last !== null && JSON.stringify(now) === JSON.stringify(last)) return now;
    if (Date.now() - started > TIMEOUT_MS) throw new Error(`${what}: did not settle in ${TIMEOUT_MS / 1000} s`);
    last = now;
  }
}
