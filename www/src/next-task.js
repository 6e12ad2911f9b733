// A promise that settles in a task of its own (a message: no timer's clamp), so what waits in the
// event loop (a click, a worker's message) is handled first. On the page (render-queue.js) and in
// the checkpoint worker (checkpoint/worker.js), between two slices of work.

export function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * A promise that settles in a task after the page's next paint: what a reader's input changed on
 * screen (a select's new value) is shown before the work it asks for runs, so the input's next paint
 * (INP) is not the work's. A hidden page paints nothing: there, the next task.
 */
export function afterPaint() {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') return nextTask();
  return new Promise((resolve) => requestAnimationFrame(() => nextTask().then(resolve)));
}
