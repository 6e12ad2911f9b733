// What the training widgets (<tb-train>, <tb-norm-race>) share: the loss chart's stylesheet (its
// frame's, axes, grid, dotted reference lines, the legend's swatches, the run buttons), a redraw at
// most once a frame, since a worker's progress messages can come faster than frames, and what a training runner
// reports (why it trains on the page, its errors) in the reader's language.

import { errorText } from './base.js';
import { errorFrom } from '../train/loop.js';
import { FRAME_CSS } from '../charts/frame.js';
import { speakEnglish } from '../i18n.js';
import trainTexts from '../locales/en/train.js';

speakEnglish(trainTexts);

export const LOSS_CHART_CSS = `${FRAME_CSS}
.buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.25rem 0 0.5rem; }
.buttons .primary { background: var(--_accent); color: var(--_bg); border-color: var(--_accent); font-weight: 600; }
button:disabled { opacity: 0.55; cursor: default; }
.chart { margin-top: 0.5rem; }
.loss-chart .axis line { stroke: var(--_muted); }
.loss-chart .axis-title { fill: var(--_muted); }
.loss-chart .grid line { stroke: var(--_rule); }
.loss-chart .reference line { stroke: var(--_muted); stroke-width: 1.5; stroke-dasharray: 2 4; }
.loss-chart .reference text { fill: var(--_muted); }
.loss-chart .train-line { fill: none; stroke-width: 2.25; stroke-linejoin: round; }
.loss-chart .held-out-points circle { fill: var(--_bg); stroke-width: 2; }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.5rem 0 0; padding: 0; list-style: none; font-size: 0.9rem; }
.legend li { display: inline-flex; align-items: center; gap: 0.4rem; }
.swatch { display: inline-block; width: 1.6rem; height: 0; border-top: 3px solid currentColor; }
.swatch.reference { color: var(--_muted); border-top-style: dotted; }
.status { font-variant-numeric: tabular-nums; }
.outcome { font-weight: 600; }
`;

/** Under prefers-reduced-motion, a live chart is redrawn at most once in this many ms. */
export const REDUCED_MOTION_GAP_MS = 1000;

/**
 * A function that asks for `draw()` at the next animation frame, once however often it is called
 * before then. A reader who asked for reduced motion gets at most one draw a second instead of one
 * a frame: the curve still grows, in steps, and the last call is always drawn. An error while
 * drawing goes to `fail(error)` instead of escaping the frame.
 */
export function frameScheduler(draw, fail) {
  let pending = false;
  let last = -Infinity;
  const run = () =>
    requestAnimationFrame(() => {
      pending = false;
      last = performance.now();
      try {
        draw();
      } catch (err) {
        fail(err);
      }
    });
  return () => {
    if (pending) return;
    pending = true;
    const wait = reducedMotion() ? REDUCED_MOTION_GAP_MS - (performance.now() - last) : 0;
    if (wait > 0) setTimeout(run, wait);
    else run();
  };
}

/** Whether the reader asked for reduced motion (false where matchMedia does not exist). */
function reducedMotion() {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** The catalog key of each code a training worker's start fails with (train/runner.js). */
const WHY_KEYS = { timeout: 'train.whyTimeout', refused: 'train.whyRefused', initFailed: 'train.whyInitFailed' };

/**
 * Why `runner` (train/runner.js: trainingRunner's) trains on the main thread, in `t`'s language: its
 * code worded from the catalog, else what the browser said.
 */
export function reasonText(runner, t) {
  const key = WHY_KEYS[runner.why?.code];
  return key ? t(key, { error: runner.why.detail ?? '' }) : runner.reason;
}

/**
 * The text of an 'error' message from a training runner, in `t`'s language: the worker's own
 * failures from their code; a library error as errorText words it, rebuilt with its fields.
 */
export function messageText(message, t) {
  if (message.code === 'workerFailed') return t('train.workerFailed', { error: message.detail ?? t('train.unknownError') });
  if (message.code === 'notReady') return t('train.workerNotReady');
  return errorText(errorFrom(message), t);
}
