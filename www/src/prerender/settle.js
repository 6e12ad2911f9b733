// When a page of widgets has settled: no widget busy (the experiments measure after their first
// render), then what `read()` returns the same twice in a row, `settleMs` apart. The one loop the
// build's prerender in Chromium (scripts/prerender-settle.mjs) and the renderer in Node
// (www/src/render/page-worker.js) both read a page with before they write it down.
//
//   const { value, settled } = await untilSettled({ idle, read, settleMs, timeoutMs });
//
// idle(): resolves when no widget is busy; read(): what is compared (JSON-equal counts as the same).
// After timeoutMs without two equal reads: { value: the last read, settled: false }.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function untilSettled({ idle, read, settleMs, timeoutMs }) {
  const started = Date.now();
  let last = null;
  for (;;) {
    await idle();
    await sleep(settleMs);
    const now = await read();
    if (last !== null && JSON.stringify(now) === JSON.stringify(last)) return { value: now, settled: true };
    if (Date.now() - started > timeoutMs) return { value: now, settled: false };
    last = now;
  }
}
