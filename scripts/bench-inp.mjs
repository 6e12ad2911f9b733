// Input to next paint on the deployable lesson, INP's own measure (the Event Timing API), with
// Chromium's CPU throttled 4x as Lighthouse's phone is: for every slider and input of the lesson,
// real key presses (trusted events, which Event Timing records), once while the page goes live (from
// its first parse, before any widget has taken over) and once with every widget live.
//
//   const { going_live, live } = await inputToNextPaint(browser, origin, { presses: 6 });
//
// Each condition gives the interactions' count, p50, p95 and max (ms), the slowest controls, and
// the page's long tasks meanwhile. An interaction's time is the longest entry of its interactionId
// (keydown, keyup, the input they cause), as INP takes it. Timings: recorded in BENCHMARKS.md,
// never asserted.

const THROTTLE = 4;

/** The controls pressed: what a reader can change with keys (not buttons, files or hidden fields). */
const CONTROLS = 'input:not([type=hidden]):not([type=file]):not([type=button]):not([type=submit]):not([disabled]), select, textarea';

/**
 * In the page (evaluate): every control inside a widget, as { tag, widget (its index among its
 * tag's), control (its index among the widget's controls, shadow roots pierced, in document order),
 * kind }: the same in the prerendered DOM and the live one, which the widget renders alike. Only
 * those shown (not in a closed <details>, say).
 */
function controlsIn(selector, only = null) {
  const deep = (root) => [...root.querySelectorAll('*')].flatMap((el) => [el, ...(el.shadowRoot ? deep(el.shadowRoot) : [])]);
  const out = [];
  const seen = new Map();
  for (const host of [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'))) {
    const widget = seen.get(host.localName) ?? 0;
    seen.set(host.localName, widget + 1);
    if (!host.shadowRoot || (only && (only.tag !== host.localName || only.widget !== widget))) continue;
    deep(host.shadowRoot)
      .filter((el) => el.matches(selector) && el.checkVisibility())
      .forEach((el, control) => out.push(only ? el : { tag: host.localName, widget, control, kind: el.localName === 'input' ? el.type : el.localName }));
  }
  return only ? (out[only.control] ?? null) : out;
}

/** In the page: starts recording event timings and long tasks into window.__inp. */
function record() {
  window.__inp = { events: [], longTasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__inp.events.push({ id: e.interactionId, name: e.name, duration: e.duration, start: e.startTime });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__inp.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : 0;
};

/** The key presses that change a control of `kind` and then change it back. */
function keysFor(kind, presses) {
  if (kind === 'range' || kind === 'number') return Array.from({ length: presses }, (_, i) => (i < presses / 2 ? 'ArrowRight' : 'ArrowLeft'));
  if (kind === 'select') return Array.from({ length: presses }, (_, i) => (i < presses / 2 ? 'ArrowDown' : 'ArrowUp'));
  if (kind === 'checkbox' || kind === 'radio') return Array.from({ length: presses }, () => 'Space');
  return Array.from({ length: presses }, (_, i) => (i % 2 ? 'Backspace' : '1'));
}

/** Presses `keys` on each control in `controls` (a locator by its data-inp-bench index); returns the interactions' figures. */
async function pressAll(page, controls, presses) {
  let skipped = 0;
  for (const c of controls) {
    // Found afresh, and again if it went: a widget going live (scrolled near, focused) replaces
    // its prerendered controls with its own, focus kept.
    let found = false;
    for (let attempt = 0; attempt < 3 && !found; attempt++) {
      const control = (await page.evaluateHandle(([selector, only]) => window.__controlsIn(selector, only), [CONTROLS, c])).asElement();
      if (!control) break;
      found = await control
        .scrollIntoViewIfNeeded()
        .then(() => control.focus())
        .then(() => true, () => false);
    }
    if (!found) {
      skipped++;
      continue;
    }
    for (const key of keysFor(c.kind, presses)) await page.keyboard.press(key);
    // The entries of this control's interactions (they arrive after the paint): named for it.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    await page.evaluate((name) => window.__inp.events.forEach((e) => (e.control ??= name)), `${c.tag}[${c.widget}] ${c.kind} ${c.control}`);
  }
  const { events, longTasks } = await page.evaluate(() => window.__inp);
  const byInteraction = new Map();
  for (const e of events) {
    const was = byInteraction.get(e.id);
    if (!was || e.duration > was.duration) byInteraction.set(e.id, e);
  }
  const times = [...byInteraction.values()].map((e) => e.duration);
  const slowest = [...byInteraction.values()].sort((a, b) => b.duration - a.duration).slice(0, 5);
  return {
    slowest: slowest.map((e) => `${e.control}: ${Math.round(e.duration)} ms`),
    controls: controls.length - skipped,
    interactions: times.length,
    p50_ms: quantile(times, 0.5),
    p95_ms: quantile(times, 0.95),
    max_ms: times.length ? Math.max(...times) : 0,
    long_tasks: longTasks.length,
    longest_task_ms: longTasks.length ? Math.max(...longTasks) : 0,
  };
}

/**
 * The lesson at `origin` (the deployable site), phone-sized, CPU throttled 4x. `presses`: key presses
 * per control. Returns { going_live, live, controls }.
 */
export async function inputToNextPaint(browser, origin, { presses = 6 } = {}) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
  try {
    const page = await context.newPage();
    await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await page.addInitScript(record);
    await page.addInitScript(`window.__controlsIn = ${controlsIn.toString()};`);
    // While the page goes live: the first screen's controls, pressed as soon as they are parsed.
    await page.goto(`${origin}/`, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.readyState !== 'loading');
    const early = (await page.evaluate(controlsIn, CONTROLS)).slice(0, 3);
    const goingLive = await pressAll(page, early, presses);
    const stillPrerendered = await page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-') && el.prerendered !== false).length);
    // Every widget live, then every control.
    await page.evaluate(async () => {
      const all = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
      await Promise.all(all.map((el) => customElements.whenDefined(el.localName).then(() => el.rendered)));
      window.__inp.events.length = 0;
      window.__inp.longTasks.length = 0;
    });
    const controls = await page.evaluate(controlsIn, CONTROLS);
    const live = await pressAll(page, controls, presses);
    return { throttle: THROTTLE, presses, going_live: { ...goingLive, widgets_not_live_yet: stillPrerendered }, live, kinds: [...new Set(controls.map((c) => `${c.tag} ${c.kind}`))] };
  } finally {
    await context.close();
  }
}
