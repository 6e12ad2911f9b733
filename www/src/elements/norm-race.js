// <tb-norm-race>: pre-LN against post-LN. Two six-block TinyGPTs with the same seed (so the same
// initial weights and the same batches) and the same settings, except where the norm sits, trained
// side by side off the main thread; both loss curves on one chart with the unigram and bigram lines.
// When both have finished, the library states what this race found (norm_race_verdict); nothing is
// asserted in advance. Beside it, what the lesson reports from its own race.
//
// Attributes (the controls' starting values): seed (default 0), steps (300), warmup (0).

import { chartLegend, errorText, h, TbElement } from './base.js';
import { defines } from './define.js';
import { clipText } from '../attributes.js';
import { sheet } from './theme.js';
import { lossChartLayout } from '../charts/loss-layout.js';
import { renderLossChart } from '../charts/loss-chart-svg.js';
import { formatDecimal, formatInteger } from '../format.js';
import { trainingRunner } from '../train/runner.js';
import { reportedFigure, REPORTED_CSS } from './experiment-parts.js';
import { frameScheduler, LOSS_CHART_CSS, reasonText } from './loss-chart-parts.js';
import { speakEnglish } from '../i18n.js';
import normRaceTexts from '../locales/en/norm-race.js';

speakEnglish(normRaceTexts);

const CSS = `${LOSS_CHART_CSS}
.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); gap: 0.5rem 0.75rem; margin: 0 0 0.5rem; padding: 0; border: 0; }
.fields .field { display: flex; flex-direction: column; gap: 0.15rem; }
.fields label { font-size: 0.9rem; }
.fields input { width: 100%; }
.loss-chart .held-out-line { fill: none; stroke-width: 1.25; stroke-dasharray: 4 3; }
.run-pre .train-line, .run-pre .held-out-line, .run-pre circle { stroke: var(--_attention); }
.run-post .train-line, .run-post .held-out-line, .run-post circle { stroke: var(--_feed-forward); }
.swatch.pre { color: var(--_attention); }
.swatch.post { color: var(--_feed-forward); }
${REPORTED_CSS}`;

/** The settings, each with the catalog key of its label. */
const FIELDS = [
  { key: 'seed', label: 'race.seed', fallback: 0 },
  { key: 'steps', label: 'race.steps', fallback: 300 },
  { key: 'warmup', label: 'race.warmup', fallback: 0 },
];

let races = 0;

/**
 * @summary Pre-LN against post-LN: two six-block TinyGPTs from the same seed trained side by side,
 *   both loss curves, and what the race found, stated from its numbers.
 *
 * @attr {number} [seed=0] - The seed both models start from: the same weights and the same batches.
 * @attr {number} [steps=300] - The training steps of each model.
 * @attr {number} [warmup=0] - The learning rate's warmup, in steps.
 */
export class TbNormRace extends TbElement {
  static observedAttributes = ['seed', 'steps', 'warmup'];
  static needs = 'full'; // TinyGPT run: the whole facade (base.js)
  static styles = [sheet(CSS)];

  #lib;
  #parts;
  #runners = null; // { pre, post }
  #race = null; // { id, steps, reference, sides: { pre, post } }
  #defaults; // the default text's reference losses, for the lines shown before a race
  #schedule = frameScheduler(
    () => this.#show(),
    (err) => this.#fail(this.t('race.drawFailed', { error: errorText(err) })),
  );

  release() {
    this.#stop();
    // The workers end with the element; a race shown again starts from a fresh view.
    this.#runners?.pre.close();
    this.#runners?.post.close();
    this.#runners = null;
    this.#race = null;
  }

  render(lib) {
    if (this.#race && !this.#finished()) return; // keep a race's view
    this.#lib = lib;
    this.#defaults = lib.train_defaults().reference;
    const { t, locale } = this;
    const inputs = {};
    const fields = FIELDS.map((f) => {
      const id = `${this.uid}-${f.key}`;
      let value = this.attr(f.key, String(f.fallback));
      if (!Number.isFinite(Number(value))) {
        this.warn(t('race.notNumber', { name: f.key, value: clipText(value), fallback: formatInteger(f.fallback, locale) }));
        value = String(f.fallback);
      }
      inputs[f.key] = h('input', { id, type: 'number', step: 1, min: 0, value, inputMode: 'numeric' });
      return h('div', { class: 'field' }, h('label', { htmlFor: id }, t(f.label)), inputs[f.key]);
    });
    const raceButton = h('button', { type: 'button', class: 'primary' }, t('race.race'));
    const stopButton = h('button', { type: 'button', disabled: true }, t('race.stop'));
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const status = h('p', { class: 'status' }, t('race.notStarted', { width: formatInteger(32, locale) }));
    const chart = h('div', { class: 'chart' });
    const outcome = h('p', { class: 'outcome', 'aria-live': 'polite' });
    const where = h('p', { class: 'muted' });
    const reported = lib.reported_race();
    this.#parts = { inputs, raceButton, stopButton, error, status, chart, outcome, where };
    raceButton.addEventListener('click', () => this.#start());
    stopButton.addEventListener('click', () => this.#stop());
    this.shadowRoot.replaceChildren(
      h('h3', {}, t('race.title')),
      h('fieldset', { class: 'fields' }, h('legend', { class: 'visually-hidden' }, t('race.settings')), fields),
      h('div', { class: 'buttons' }, raceButton, stopButton),
      error,
      status,
      chartLegend(
        [
          ['pre', t('race.legendPre')],
          ['post', t('race.legendPost')],
          ['reference', t('race.legendReference')],
        ],
        t,
      ),
      chart,
      outcome,
      where,
      reportedFigure(reported.source, reported.findings, t),
    );
    this.#draw();
  }

  #finished() {
    return !this.#race || Object.values(this.#race.sides).every((s) => s.done);
  }

  #fail(text) {
    this.#parts.error.textContent = text;
    this.#parts.error.hidden = false;
  }

  #setRunning(running) {
    const { raceButton, stopButton, inputs } = this.#parts;
    raceButton.disabled = running;
    stopButton.disabled = !running;
    for (const input of Object.values(inputs)) input.disabled = running;
  }

  async #start() {
    const values = {};
    for (const f of FIELDS) {
      const text = this.#parts.inputs[f.key].value.trim();
      if (text === '' || Number.isNaN(Number(text))) return this.#fail(this.t('race.typeNumber', { field: this.t(f.label) }));
      values[f.key] = Number(text);
    }
    let pre;
    try {
      pre = this.#lib.norm_race_settings(values.steps, values.seed, values.warmup);
    } catch (err) {
      return this.#fail(errorText(err));
    }
    this.#parts.error.hidden = true;
    this.#parts.outcome.textContent = '';
    this.#setRunning(true);
    if (!this.#runners) {
      const [a, b] = await Promise.all([trainingRunner(), trainingRunner()]);
      if (this.released) {
        a.close();
        b.close();
        return;
      }
      this.#runners = { pre: a, post: b };
      a.onmessage = (m) => this.#receive('pre', m);
      b.onmessage = (m) => this.#receive('post', m);
      this.#parts.where.textContent =
        a.kind === 'worker' ? this.t('race.whereWorker') : this.t('race.whereMainThread', { reason: reasonText(a, this.t) });
    }
    const id = ++races;
    const side = () => ({ losses: [], heldOut: [], stepsDone: 0, done: false, stopped: null });
    this.#race = { id, steps: pre.steps, reference: null, sides: { pre: side(), post: side() } };
    this.#runners.pre.post({ type: 'start', id, settings: pre, sampleEvery: 1e9 });
    this.#runners.post.post({ type: 'start', id, settings: { ...pre, norm: 'post' }, sampleEvery: 1e9 });
    this.#schedule();
  }

  #stop() {
    if (!this.#race || this.#finished()) return;
    this.#runners?.pre.post({ type: 'stop' });
    this.#runners?.post.post({ type: 'stop' });
  }

  #receive(key, message) {
    const race = this.#race;
    if (!race || message.id !== race.id) {
      if (message.type === 'error' && message.id === undefined) this.#fail(message.message);
      return;
    }
    const side = race.sides[key];
    switch (message.type) {
      case 'started':
        race.reference = message.reference;
        side.heldOut.push(message.heldOut);
        break;
      case 'progress':
        side.losses.push(...message.losses);
        side.stepsDone = message.stepsDone;
        if (message.heldOut) side.heldOut.push(message.heldOut);
        break;
      case 'finished':
        side.losses.push(...(message.losses ?? []));
        side.stepsDone = message.stepsDone;
        if (side.heldOut.at(-1)?.step !== message.heldOut.step) side.heldOut.push(message.heldOut);
        side.stopped = message.stopped;
        side.done = true;
        break;
      case 'error':
        side.done = true;
        this.#fail(message.message);
        break;
      default:
        return;
    }
    if (this.#finished()) this.#finish();
    this.#schedule();
  }

  #finish() {
    this.#setRunning(false);
    const { pre, post } = this.#race.sides;
    const last = (s) => s.heldOut.at(-1);
    const stops = [pre, post].map((s) => s.stopped).filter(Boolean);
    if (stops.length) this.#fail(stops.join(' '));
    if (!this.#race.reference || !last(pre) || !last(post)) return;
    try {
      const step = Math.min(last(pre).step, last(post).step);
      const v = this.#lib.norm_race_verdict(step, last(pre).loss, last(post).loss, this.#race.reference);
      this.#parts.outcome.textContent = v.text;
    } catch (err) {
      this.#fail(errorText(err));
    }
  }

  #show() {
    const race = this.#race;
    if (!race || !this.#parts) return;
    const { pre, post } = race.sides;
    const { t, locale } = this;
    const steps = formatInteger(race.steps, locale);
    this.#parts.status.textContent = t('race.progress', { pre: formatInteger(pre.stepsDone, locale), post: formatInteger(post.stepsDone, locale), steps });
    this.#draw();
  }

  #draw() {
    const box = this.#parts?.chart;
    if (!box) return;
    const race = this.#race;
    // Before a race, the lines of the default text are already known.
    const r = race?.reference ?? this.#defaults;
    const reference = { unigram: r.unigram, bigram: r.bigram };
    const series = ['pre', 'post'].map((key) => ({ key, losses: race?.sides[key].losses ?? [], heldOut: race?.sides[key].heldOut ?? [] }));
    const layout = lossChartLayout({ steps: race?.steps ?? Number(this.#parts.inputs.steps.value) ?? 300, series, reference, t: this.t });
    box.replaceChildren(...renderLossChart(layout, { ariaLabel: chartLabel(race, this.t), t: this.t }));
  }
}

function chartLabel(race, t) {
  if (!race) return t('race.chartEmpty');
  const { locale } = t;
  const n = (x) => formatDecimal(x, 3, locale);
  const side = (name, s) => {
    const last = s.heldOut.at(-1);
    return t('race.chartSide', {
      name,
      step: formatInteger(s.stepsDone, locale),
      heldOut: last ? t('race.chartHeldOut', { loss: n(last.loss), step: formatInteger(last.step, locale) }) : '',
    });
  };
  const r = race.reference;
  return t('race.chartLabel', {
    pre: side('pre-LN', race.sides.pre),
    post: side('post-LN', race.sides.post),
    reference: r ? t('race.chartReference', { unigram: n(r.unigram), bigram: n(r.bigram) }) : '',
  });
}

if (defines('tb-norm-race', TbNormRace)) customElements.define('tb-norm-race', TbNormRace);
