// Functions scripts/bench.mjs runs inside the lesson page (page.evaluate): each is self-contained,
// since Playwright sends its source to the page.

/**
 * Waits for every <tb-…> element to show its content; returns when (ms after navigation start)
 * the last one did, how many there are, and the first contentful paint.
 */
export async function widgetsRendered() {
  const widgets = [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('tb-'));
  await Promise.all([...new Set(widgets.map((el) => el.localName))].map((tag) => customElements.whenDefined(tag)));
  const times = await Promise.all(widgets.map((el) => el.rendered));
  const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
  return { rendered_ms: Math.max(...times), widgets: widgets.length, first_paint_ms: fcp };
}

/**
 * Moves every range slider inside a widget through `perSlider` values spread over its range, one
 * `input` event each (what a drag sends). Per event, the main-thread time from setting the value to
 * the widget's redraw done and laid out: the event, the microtasks its render runs in, a forced
 * style and layout (not paint). Long tasks (over 50 ms) are counted while it runs.
 * `filter`: a tag name to sweep only that widget's sliders (null: all).
 */
export async function sweepSliders({ perSlider, filter }) {
  const macrotask = () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
  const idle = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
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
        await macrotask();
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
