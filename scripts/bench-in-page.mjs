// Functions scripts/bench.mjs runs inside the lesson page (page.evaluate): each is self-contained,
// since Playwright sends its source to the page.

/**
 * Waits for every <tb-…> element to show its content; returns when (ms after navigation start) the
 * last one's own render did, when the last of those on the first screen (the viewport before any
 * scrolling) showed its figures (a prerendered one: the page parsed and painted), the lesson's
 * presets table included when it is there, how many there are of each and how many came
 * prerendered, and the first contentful paint.
 */
export async function widgetsRendered() {
  // Parsed, before the deferred module scripts run: a widget with a shadow root now came with its
  // first render in the HTML (make dist's prerender), shown once the parsed page is painted.
  if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('readystatechange', resolve, { once: true }));
  const parsed = performance.getEntriesByType('navigation')[0]?.domInteractive ?? performance.now();
  const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
  const inHtml = widgets.map((el) => Boolean(el.shadowRoot?.childNodes.length));
  const tableInHtml = Boolean(document.getElementById('models')?.tBodies[0]?.rows.length);
  await Promise.all([...new Set(widgets.map((el) => el.localName))].map((tag) => customElements.whenDefined(tag)));
  const times = await Promise.all(widgets.map((el) => el.rendered));
  const shown = times.map((t, i) => (inHtml[i] ? parsed : t));
  const onScreen = (el) => el.getBoundingClientRect().top + window.scrollY < window.innerHeight;
  const firstScreen = shown.filter((_, i) => onScreen(widgets[i]));
  // The lesson page's presets table is filled by its own script (src/main.js), which marks the
  // time, unless it came filled in the HTML.
  const table = document.getElementById('models');
  if (table && onScreen(table)) {
    if (tableInHtml) firstScreen.push(parsed);
    else {
      while (!performance.getEntriesByName('tb-presets-table').length) await new Promise((resolve) => setTimeout(resolve, 5));
      firstScreen.push(performance.getEntriesByName('tb-presets-table')[0].startTime);
    }
  }
  // The first contentful paint, once there has been one (buffered: it may be long past); none in 2 s: null.
  const fcp = await new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      const entry = list.getEntriesByName('first-contentful-paint')[0];
      if (entry) {
        observer.disconnect();
        resolve(entry.startTime);
      }
    });
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(() => {
      observer.disconnect();
      resolve(null);
    }, 2000);
  });
  return {
    prerendered: inHtml.filter(Boolean).length,
    rendered_ms: Math.max(...times),
    // A first screen of prose alone is complete when it is painted.
    first_screen_ms: Math.max(fcp ?? 0, ...firstScreen),
    widgets: widgets.length,
    first_screen_widgets: firstScreen.length,
    first_paint_ms: fcp,
  };
}

/**
 * Moves every range slider inside a widget through `perSlider` values spread over its range, one
 * `input` event each (what a drag sends). Per event, the main-thread time from setting the value to
 * the widget's redraw done and laid out: the event's handlers, the microtasks a widget renders in
 * (waited for by a chain of microtasks, so no other task's work is counted), then a forced style
 * and layout (not paint). It starts once the page is idle. Long tasks (over 50 ms) are counted
 * while it runs.
 * `filter`: a tag name to sweep only that widget's sliders (null: all); `settle`: false to start at
 * once (while a training run goes on, the page is never idle).
 */
export async function sweepSliders({ perSlider, filter, settle = true }) {
  const microtasks = async () => {
    for (let i = 0; i < 20; i++) await null;
  };
  const idle = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  // Start once the page's own background work is done (the experiments measure their losses a task
  // at a time after load), so each event's time is the slider's: up to 5 s for an idle period of
  // nearly the browser's maximum (50 ms).
  const settleUntil = performance.now() + (settle ? 5000 : 0);
  while (performance.now() < settleUntil) {
    const remaining = await new Promise((resolve) => requestIdleCallback((deadline) => resolve(deadline.timeRemaining()), { timeout: 1000 }));
    if (remaining >= 45) break;
  }
  const hosts = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-') && el.shadowRoot && (!filter || el.localName === filter));
  const longTasks = [];
  const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'longtask' });
  const sliders = [];
  for (const host of hosts) {
    const count = host.shadowRoot.querySelectorAll('input[type=range]').length;
    for (let i = 0; i < count; i++) {
      const find = () => host.shadowRoot.querySelectorAll('input[type=range]')[i];
      const first = find();
      const label = first.getAttribute('aria-label') ?? first.labels?.[0]?.textContent?.trim() ?? `slider ${i + 1}`;
      const [min, max, step] = [Number(first.min), Number(first.max), Number(first.step) || 1];
      const n = Math.min(perSlider, Math.round((max - min) / step) + 1);
      const values = Array.from({ length: n }, (_, k) => min + Math.round(((max - min) / step) * (k / Math.max(1, n - 1))) * step);
      first.scrollIntoView({ block: 'center' });
      const times = [];
      for (const v of values) {
        await idle();
        const slider = find();
        if (!slider) break;
        const t0 = performance.now();
        slider.value = String(v);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        await microtasks();
        void document.body.offsetHeight; // style and layout, shadow roots included
        times.push(performance.now() - t0);
      }
      sliders.push({ widget: host.localName, slider: label, events: times.length, times });
    }
  }
  await idle();
  observer.disconnect();
  return { sliders, long_tasks: longTasks.length, longest_task_ms: Math.max(0, ...longTasks) };
}

/**
 * Types into a widget's text field the way a reader does, a character at a time (then deletes back),
 * one `input` event each, timing each as sweepSliders does (handlers, the microtasks a widget renders
 * in, then a forced style and layout). Before typing, the widget's model switch is set to `model`
 * (tb-attention's six-block model: 24 maps redrawn per event). Returns { widget, field, events, times }.
 */
export async function typeInto({ tag, field, model, text, rounds }) {
  const microtasks = async () => {
    for (let i = 0; i < 20; i++) await null;
  };
  const idle = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const host = document.querySelector(tag);
  host.scrollIntoView({ block: 'start' });
  const control = (name) => [...host.shadowRoot.querySelectorAll('input, select')].find((c) => [...(c.labels ?? [])].some((l) => l.textContent.trim() === name));
  if (model) {
    const select = control('Model');
    select.value = model;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    for (let i = 0; i < 50 && !host.shadowRoot.textContent.includes('6 blocks of'); i++) await idle();
  }
  const input = control(field);
  input.focus();
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const steps = [...Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1)), ...Array.from({ length: text.length - 1 }, (_, i) => text.slice(0, text.length - 1 - i))];
    for (const value of steps) {
      await idle();
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await microtasks();
      void document.body.offsetHeight;
      times.push(performance.now() - t0);
    }
  }
  const maps = host.shadowRoot.querySelectorAll('figure.head-map').length;
  return { widget: tag, field, model, maps, events: times.length, times };
}
