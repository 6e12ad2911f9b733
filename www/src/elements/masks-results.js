// The results of example_masks that one <tb-masks> view shows, each asked of the wasm once. After
// the first render the others its slider can reach are asked for while the page is idle, one call
// (~0.3 ms) at a time, so a step of the slider reads a kept result instead of running both blocks
// (docs/benchmarks-history.md, "tb-masks' results asked for in idle time"). The numbers are the wasm's: this
// only keeps them.

/** Runs `work` when the page is idle (a task of its own where requestIdleCallback is missing). */
const whenIdle = globalThis.requestIdleCallback
  ? (work) => globalThis.requestIdleCallback(work, { timeout: 2000 })
  : (work) => setTimeout(() => work({ timeRemaining: () => 4 }), 16);

/**
 * `get(count, position)`: example_masks(count, position, seed), asked once (an error is thrown each
 * time, as the call throws it, and not kept). `prefetch(pairs)`: asks for the results of those
 * [count, position] pairs in idle time; a later prefetch replaces the rest of an earlier one.
 */
export function masksResults(lib, seed) {
  const kept = new Map(); // "count:position" -> result
  const get = (count, position) => {
    const key = `${count}:${position}`;
    if (!kept.has(key)) kept.set(key, lib.example_masks(count, position, seed));
    return kept.get(key);
  };
  let queue = [];
  let scheduled = false;
  const step = (deadline) => {
    scheduled = false;
    while (queue.length && deadline.timeRemaining() > 1) {
      const [count, position] = queue.shift();
      try {
        get(count, position);
      } catch {
        // The live call for this count shows the library's message; nothing more to ask ahead.
        queue = [];
      }
    }
    if (queue.length) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    whenIdle(step);
  };
  const prefetch = (pairs) => {
    queue = pairs.filter(([count, position]) => !kept.has(`${count}:${position}`));
    if (queue.length) schedule();
  };
  return { get, prefetch };
}
