// When a page of widgets has settled: no widget busy (the experiments measure after their first
// render), and what `read()` returns the same twice in a row, SETTLE_MS apart. The prerender
// (scripts/prerender.mjs) reads a page this way before it writes it down, and its tests
// (tests/e2e/prerender.spec.js) read the live page the same way before they compare.
//
//   const markup = await settled(page, () => page.evaluate(widgetMarkup), url);   // page: Playwright's
//
// The loop itself is www/src/prerender/settle.js', which the renderer in Node uses too.

import { untilSettled } from '../www/src/prerender/settle.js';

export const SETTLE_MS = 300;
export const TIMEOUT_MS = 60_000;

export async function settled(page, read, what) {
  const idle = () => page.waitForFunction(() => [...document.querySelectorAll('*')].every((el) => !el.busy), null, { timeout: TIMEOUT_MS });
  const { value, settled: same } = await untilSettled({ idle, read, settleMs: SETTLE_MS, timeoutMs: TIMEOUT_MS });
  if (!same) throw new Error(`${what}: did not settle in ${TIMEOUT_MS / 1000} s`);
  return value;
}
