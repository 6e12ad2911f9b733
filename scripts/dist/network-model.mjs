// A reader's network, modelled, for timing how soon a page shows its figures when every file takes
// its time to arrive (scripts/bench-embed.mjs). Playwright's route.fulfill answers at once and
// Chromium's own throttling does not reach answers given by the harness, so the harness delays each
// answer itself: a request reaches the server after half a round trip, the bodies being sent share
// the link's bandwidth equally (as HTTP/2 streams on one connection do), and a body is in the page
// half a round trip after its last byte left.
//
//   const link = networkModel(MOBILE);
//   await link.deliver(gzipBytes);            // resolves when the body would have arrived
//
// MOBILE is Lighthouse's mobile throttling (150 ms round trip, 1.6 Mbit/s down), the figure most
// published page-load numbers use; the handshake (the same for every way to embed) is left out.

import { setTimeout as sleep } from 'node:timers/promises';

/** Lighthouse's "Slow 4G" mobile preset: round trip in ms, bandwidth in bytes per ms. */
export const MOBILE = { name: 'mobile (150 ms round trip, 1.6 Mbit/s)', rttMs: 150, bytesPerMs: 1.6e6 / 8 / 1000 };

/**
 * A link whose `deliver(bytes)` resolves when a body of `bytes` asked for now would have arrived.
 * Processor sharing: while n bodies are being sent, each gets bandwidth / n.
 */
export function networkModel({ rttMs, bytesPerMs }) {
  /** Bodies being sent: { left (bytes), done (resolve) }. */
  const sending = new Set();
  let last = performance.now();
  let timer = null;

  // Takes off what each body sent since `last`, finishes those with nothing left, and sets a timer
  // for the next to finish at the shared rate.
  const advance = () => {
    const now = performance.now();
    if (sending.size > 0) {
      const sent = ((now - last) * bytesPerMs) / sending.size;
      for (const body of sending) body.left -= sent;
    }
    last = now;
    for (const body of sending) {
      if (body.left <= 1e-6) {
        sending.delete(body);
        body.done();
      }
    }
    clearTimeout(timer);
    timer = null;
    if (sending.size > 0) {
      const least = Math.min(...[...sending].map((b) => b.left));
      timer = setTimeout(advance, Math.max(0, (least * sending.size) / bytesPerMs));
    }
  };

  return {
    async deliver(bytes) {
      await sleep(rttMs / 2);
      await new Promise((done) => {
        advance();
        sending.add({ left: Math.max(bytes, 1), done });
        advance();
      });
      await sleep(rttMs / 2);
    },
  };
}
