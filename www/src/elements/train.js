// <tb-train>: train TinyGPT from scratch in the page. The reader picks a seed, the number of steps,
// the learning rate, a warmup, the number of blocks and where the norm sits, and watches the loss
// fall: each step's loss (smoothed) and the held-out loss against dotted lines at the uniform,
// unigram and bigram losses of the same text, a progress bar with steps per second, pause, resume
// and stop, and a sample of the text the model writes, which improves as it learns. The run happens
// off the main thread (src/train/runner.js); the finished model is published for <tb-tiny-gpt>.
//
// Attributes (each the starting value of its control; the library checks the range): seed, steps,
// learning-rate, warmup, layers, norm (pre or post).

import { chartLegend, errorText, h, TbElement, watchWidth } from './base.js';
import { clipText } from '../attributes.js';
import { sheet } from './theme.js';
import { lossChartLayout } from '../charts/loss-layout.js';
import { renderLossChart } from '../charts/loss-chart-svg.js';
import { formatDecimal, formatInteger } from '../format.js';
import { trainingRunner } from '../train/runner.js';
import { publishTrained } from '../train/trained.js';
import { frameScheduler, LOSS_CHART_CSS } from './loss-chart-parts.js';

const CSS = `${LOSS_CHART_CSS}
.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: 0.5rem 0.75rem; margin: 0 0 0.5rem; padding: 0; border: 0; }
.fields .field { display: flex; flex-direction: column; align-items: stretch; gap: 0.15rem; }
.fields label { font-size: 0.9rem; }
.fields input, .fields select { width: 100%; }
.buttons button { min-width: 5.5rem; }
.progress { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; }
.progress progress { flex: 1 1 12rem; height: 0.9rem; accent-color: var(--_accent); }
.loss-chart .train-line { stroke: var(--_attention); }
.loss-chart .held-out-line { fill: none; stroke: var(--_feed-forward); stroke-width: 2; }
.loss-chart .held-out-points circle { stroke: var(--_feed-forward); }
.swatch.train { color: var(--_attention); }
.swatch.held-out { color: var(--_feed-forward); }
.sample { margin: 0.5rem 0 0; }
.sample figcaption { font-size: 0.9rem; color: var(--_muted); }
.sample pre { margin: 0.25rem 0 0; padding: 0.5rem; border: 1px solid var(--_rule); border-radius: calc(var(--_radius) / 2); white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--_mono); font-size: 0.9rem; }
`;

/** The controls: key (the setting's name in the library), label, the attribute giving its start. */
const FIELDS = [
  { key: 'seed', label: 'Seed', attr: 'seed', kind: 'number', step: 1, min: 0 },
  { key: 'steps', label: 'Steps', attr: 'steps', kind: 'number', step: 1, min: 1 },
  { key: 'learning_rate', label: 'Learning rate', attr: 'learning-rate', kind: 'text', inputMode: 'decimal' },
  { key: 'warmup', label: 'Warmup steps', attr: 'warmup', kind: 'number', step: 1, min: 0 },
  { key: 'layers', label: 'Blocks', attr: 'layers', kind: 'number', step: 1, min: 1 },
];

let runs = 0;

export class TbTrain extends TbElement {
  static observedAttributes = ['seed', 'steps', 'learning-rate', 'warmup', 'layers', 'norm'];
  static needsModel = true; // TinyGPT: the whole facade (base.js)
  static styles = [sheet(CSS)];

  #lib;
  #defaults;
  #parts;
  #runner = null;
  #run = null; // { id, settings, reference, losses, heldOut, sample, stepsDone, steps, seconds, state }
  #observer;
  #drawnWidth = 0;
  #schedule = frameScheduler(
    () => this.#show(),
    (err) => this.#fail(`could not draw the run: ${errorText(err)}`),
  );

  release() {
    this.#observer?.disconnect();
    this.#observer = undefined;
    // The worker ends with the element; an unfinished run is dropped, and the widget shown again
    // starts from a fresh view (a finished run's model has already been handed to the page).
    this.#runner?.close();
    this.#runner = null;
    if (this.#run && this.#run.state !== 'finished') this.#run = null;
  }

  render(lib) {
    if (this.#parts && this.#run && this.#run.state !== 'finished') return; // keep a run's view
    this.#lib = lib;
    const defaults = lib.train_defaults();
    this.#defaults = defaults;
    const d = defaults.settings;
    const start = { seed: d.seed, steps: d.steps, learning_rate: d.learning_rate, warmup: d.warmup, layers: d.layers };
    const inputs = {};
    const fields = FIELDS.map((f) => {
      const id = `${this.uid}-${f.key}`;
      let value = this.attr(f.attr, String(start[f.key]));
      if (!Number.isFinite(Number(value))) {
        this.warn(`${f.attr} "${clipText(value)}" is not a number; using ${start[f.key]}`);
        value = String(start[f.key]);
      }
      const input =
        f.kind === 'number'
          ? h('input', { id, type: 'number', step: f.step, min: f.min, value, inputMode: 'numeric' })
          : h('input', { id, type: 'text', value, inputMode: f.inputMode, spellcheck: false, autocomplete: 'off' });
      inputs[f.key] = input;
      return h('div', { class: 'field' }, h('label', { htmlFor: id }, f.label), input);
    });
    const normId = `${this.uid}-norm`;
    const norm = h(
      'select',
      { id: normId },
      h('option', { value: 'pre' }, 'pre-LN (GPT-2)'),
      h('option', { value: 'post' }, 'post-LN (original)'),
    );
    norm.value = this.attr('norm', d.norm) === 'post' ? 'post' : 'pre';
    if (!['pre', 'post'].includes(this.attr('norm', 'pre'))) this.warn(`norm "${clipText(this.attr('norm', ''))}" is not a norm placement: choose pre or post; using pre`);
    inputs.norm = norm;
    fields.push(h('div', { class: 'field' }, h('label', { htmlFor: normId }, 'Norm placement'), norm));

    const trainButton = h('button', { type: 'button', class: 'primary' }, 'Train');
    const pauseButton = h('button', { type: 'button', disabled: true, 'aria-pressed': 'false' }, 'Pause');
    const stopButton = h('button', { type: 'button', disabled: true }, 'Stop');
    const progressId = `${this.uid}-progress`;
    const progress = h('progress', { id: progressId, max: d.steps, value: 0 });
    const status = h('span', { class: 'status' }, `Not started. ${formatInteger(defaults.corpus.characters)} characters of this page's prose; the last ${formatInteger(defaults.corpus.held_out_symbols)} are held out.`);
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const chart = h('div', { class: 'chart' });
    const outcome = h('p', { class: 'outcome', 'aria-live': 'polite' });
    const sampleText = h('pre', {}, '');
    const sampleCaption = h('figcaption', {}, 'Text the model writes (after "The ")');
    const sample = h('figure', { class: 'sample', hidden: true }, sampleCaption, sampleText);
    const where = h('p', { class: 'muted where' });

    this.#parts = { inputs, trainButton, pauseButton, stopButton, progress, status, error, chart, outcome, sample, sampleText, sampleCaption, where };
    trainButton.addEventListener('click', () => this.#start());
    pauseButton.addEventListener('click', () => this.#pauseOrResume());
    stopButton.addEventListener('click', () => this.#stop());

    this.shadowRoot.replaceChildren(
      h('h3', {}, 'Train TinyGPT'),
      h('fieldset', { class: 'fields' }, h('legend', { class: 'visually-hidden' }, 'Training settings'), fields),
      h('div', { class: 'buttons' }, trainButton, pauseButton, stopButton),
      error,
      h('div', { class: 'progress' }, h('label', { htmlFor: progressId }, 'Progress'), progress, status),
      chartLegend([
        ['train', 'training loss (smoothed)'],
        ['held-out', 'held-out loss'],
        ['reference', 'uniform, unigram and bigram losses of the held-out text'],
      ]),
      chart,
      outcome,
      sample,
      where,
    );
    this.#drawnWidth = 0;
    this.#draw();
    this.#observer?.disconnect();
    this.#observer = watchWidth(chart, () => this.#draw());
  }

  /** The settings typed into the controls: { settings } or { error } (a field that is not a number). */
  #read() {
    const settings = {};
    for (const f of FIELDS) {
      const input = this.#parts.inputs[f.key];
      const text = input.value.trim();
      if (text === '' || (input.validity && input.validity.badInput)) return { error: `${f.label}: type a number` };
      const value = Number(text);
      if (Number.isNaN(value)) return { error: `${f.label}: "${clipText(text)}" is not a number` };
      settings[f.key] = value;
    }
    settings.norm = this.#parts.inputs.norm.value;
    return { settings };
  }

  #fail(text) {
    const { error } = this.#parts;
    error.textContent = text;
    error.hidden = false;
  }

  #setRunning(running) {
    const { trainButton, pauseButton, stopButton, inputs } = this.#parts;
    trainButton.disabled = running;
    pauseButton.disabled = !running;
    stopButton.disabled = !running;
    pauseButton.textContent = 'Pause';
    pauseButton.setAttribute('aria-pressed', 'false');
    for (const input of Object.values(inputs)) input.disabled = running;
  }

  async #start() {
    const { settings, error } = this.#read();
    if (error) return this.#fail(error);
    this.#parts.error.hidden = true;
    // The library checks every setting first, so a bad one is named before any worker starts.
    try {
      this.#lib.check_train_settings(settings);
    } catch (err) {
      return this.#fail(errorText(err));
    }
    this.#setRunning(true);
    this.#parts.outcome.textContent = '';
    this.#parts.status.textContent = 'Starting…';
    if (!this.#runner) {
      const runner = await trainingRunner();
      if (this.released) return runner.close();
      this.#runner = runner;
      this.#runner.onmessage = (message) => this.#receive(message);
      this.#parts.where.textContent =
        this.#runner.kind === 'worker'
          ? 'Training runs in a background worker: the page stays responsive.'
          : `Training runs on the page itself, in slices of a few milliseconds (${this.#runner.reason}).`;
    }
    const id = ++runs;
    this.#run = { id, settings: null, reference: null, losses: [], heldOut: [], sample: null, stepsDone: 0, steps: settings.steps, seconds: 0, state: 'starting' };
    this.#runner.post({ type: 'start', id, settings });
  }

  #pauseOrResume() {
    const run = this.#run;
    if (!run || run.state === 'finished') return;
    const { pauseButton } = this.#parts;
    if (run.state === 'paused') {
      run.state = 'running';
      pauseButton.textContent = 'Pause';
      pauseButton.setAttribute('aria-pressed', 'false');
      this.#runner.post({ type: 'resume' });
    } else {
      run.state = 'paused';
      pauseButton.textContent = 'Resume';
      pauseButton.setAttribute('aria-pressed', 'true');
      this.#runner.post({ type: 'pause' });
      this.#parts.outcome.textContent = `Paused at step ${formatInteger(run.stepsDone)}.`;
    }
  }

  #stop() {
    if (!this.#run || this.#run.state === 'finished') return;
    this.#runner.post({ type: 'stop' });
  }

  #receive(message) {
    const run = this.#run;
    if (!run || message.id !== run.id) {
      if (message.type === 'error' && message.id === undefined) {
        this.#fail(message.message);
        this.#setRunning(false);
      }
      return;
    }
    switch (message.type) {
      case 'started':
        run.state = run.state === 'paused' ? 'paused' : 'running';
        run.settings = message.settings;
        run.steps = message.settings.steps;
        run.reference = message.reference;
        run.heldOut.push(message.heldOut);
        this.#parts.progress.max = run.steps;
        break;
      case 'progress':
        run.losses.push(...message.losses);
        run.stepsDone = message.stepsDone;
        run.seconds = message.seconds;
        if (message.heldOut) run.heldOut.push(message.heldOut);
        if (message.sample) run.sample = message.sample;
        break;
      case 'finished':
        run.state = 'finished';
        run.stepsDone = message.stepsDone;
        run.seconds = message.seconds;
        if (run.heldOut.at(-1)?.step !== message.heldOut.step) run.heldOut.push(message.heldOut);
        run.sample = message.sample;
        run.stopped = message.stopped;
        this.#setRunning(false);
        if (message.stopped) this.#fail(message.stopped);
        publishTrained({ parameters: message.parameters, settings: message.settings, heldOut: message.heldOut, steps: message.stepsDone });
        break;
      case 'paused':
        return;
      case 'error':
        run.state = 'finished';
        this.#setRunning(false);
        this.#fail(message.message);
        break;
      default:
        return;
    }
    this.#schedule();
  }

  #show() {
    const run = this.#run;
    if (!run || !this.#parts) return;
    const { progress, status, outcome, sample, sampleText, sampleCaption } = this.#parts;
    progress.value = run.stepsDone;
    const rate = run.seconds > 0 ? run.stepsDone / run.seconds : 0;
    status.textContent = `Step ${formatInteger(run.stepsDone)} of ${formatInteger(run.steps)}` + (rate > 0 ? ` · ${formatInteger(Math.round(rate))} steps/s · ${formatDecimal(run.seconds, 1)} s` : '');
    if (run.sample) {
      sample.hidden = false;
      sampleCaption.textContent = `Text the model writes after "The " at step ${formatInteger(run.sample.step)}`;
      sampleText.textContent = `The ${run.sample.text}`;
    }
    if (run.state === 'finished' && run.reference) outcome.textContent = outcomeText(run);
    this.#drawnWidth = 0;
    this.#draw();
  }

  #draw() {
    const box = this.#parts?.chart;
    if (!box || !box.isConnected) return;
    if (!this.#observer?.measured) return; // drawn once laid out (watchWidth)
    const width = Math.round(this.#observer.width || 640);
    if (width === this.#drawnWidth) return;
    this.#drawnWidth = width;
    const run = this.#run;
    const layout = lossChartLayout({
      width,
      steps: run?.steps ?? Number(this.#parts.progress.max),
      losses: run?.losses ?? [],
      heldOut: run?.heldOut ?? [],
      reference: run?.reference ?? this.#defaults.reference,
    });
    box.replaceChildren(renderLossChart(layout, { ariaLabel: chartLabel(run, this.#defaults.reference) }));
  }
}

/** Where the held-out loss ended, against the three lines, in words. */
function outcomeText(run) {
  const last = run.heldOut.at(-1);
  const r = run.reference;
  const n = (x) => formatDecimal(x, 3);
  const head = `After ${formatInteger(run.stepsDone)} steps the held-out loss is ${n(last.loss)} nats`;
  if (last.loss < r.bigram) return `${head}: below the bigram line (${n(r.bigram)}), so the model predicts this page's text better than counting which character follows which.`;
  if (last.loss < r.unigram) return `${head}: between the unigram (${n(r.unigram)}) and bigram (${n(r.bigram)}) lines. It has learned which characters are common, not yet all of what follows what.`;
  if (last.loss < r.uniform) return `${head}: above the unigram line (${n(r.unigram)}), only a little better than a uniform guess (${n(r.uniform)}).`;
  return `${head}: no better than a uniform guess (${n(r.uniform)}).`;
}

/** The chart's text alternative: the numbers it shows. */
function chartLabel(run, reference) {
  const n = (x) => formatDecimal(x, 3);
  const lines = (r) => `Reference lines: uniform ${n(r.uniform)}, unigram ${n(r.unigram)}, bigram ${n(r.bigram)} nats.`;
  if (!run || !run.reference) return `Loss against training step. No run yet: press Train. ${lines(reference)}`;
  const r = run.reference;
  const last = run.heldOut.at(-1);
  const step = run.losses.length;
  return (
    `Loss against training step, ${formatInteger(step)} of ${formatInteger(run.steps)} steps. ` +
    (step ? `Latest training loss ${n(run.losses[step - 1])}. ` : '') +
    (last ? `Held-out loss ${n(last.loss)} at step ${formatInteger(last.step)}. ` : '') +
    lines(r)
  );
}

customElements.get('tb-train') || customElements.define('tb-train', TbTrain);
