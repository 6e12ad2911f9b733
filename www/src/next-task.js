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
