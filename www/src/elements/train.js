// <tb-train>: train TinyGPT from scratch in the page. The reader picks a seed, the number of steps,
// the learning rate, a warmup, the number of blocks and where the norm sits, and watches the loss
// fall: each step's loss (smoothed) and the held-out loss against dotted lines at the uniform,
// unigram and bigram losses of the same text, a progress bar with steps per second, pause, resume
// and stop, and a sample of the text the model writes, which improves as it learns. The run happens
// off the main thread (src/train/runner.js); the finished model is published for <tb-tiny-gpt>.
//
// Attributes (each the starting value of its control; the library checks the range): seed, steps,
// learning-rate, warmup, layers, norm (pre or post).
//
// Its texts are the catalogs' (keys train.*, and the race's race.* for the settings the two share);
// the worker knows no language, so what it reports is worded here (loss-chart-parts.js). A change of
// language mid-run words the view again and the run goes on.

import { chartLegend, errorText, h, TbElement } from './base.js';
import { defines } from './define.js';
import { clipText } from '../attributes.js';
import { sheet } from './theme.js';
import { lossChartLayout } from '../charts/loss-layout.js';
import { renderLossChart } from '../charts/loss-chart-svg.js';
import { formatDecimal, formatInteger } from '../format.js';
import { trainingRunner } from '../train/runner.js';
import { publishTrained } from '../train/trained.js';
import { frameScheduler, LOSS_CHART_CSS, messageText, reasonText } from './loss-chart-parts.js';
import { speakEnglish } from '../i18n.js';
import normRaceTexts from '../locales/en/norm-race.js';
import trainTexts from '../locales/en/train.js';

speakEnglish(normRaceTexts, trainTexts);

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

/** The controls: key (the setting's name in the library), label (its catalog key), the attribute giving its start. */
const FIELDS = [
  { key: 'seed', label: 'race.seed', attr: 'seed', kind: 'number', step: 1, min: 0 },
  { key: 'steps', label: 'race.steps', attr: 'steps', kind: 'number', step: 1, min: 1 },
  { key: 'learning_rate', label: 'train.learningRate', attr: 'learning-rate', kind: 'text', inputMode: 'decimal' },
  { key: 'warmup', label: 'race.warmup', attr: 'warmup', kind: 'number', step: 1, min: 0 },
  { key: 'layers', label: 'train.layers', attr: 'layers', kind: 'number', step: 1, min: 1 },
];

let runs = 0;

/**
 * @summary Train TinyGPT in the page, in a worker: the loss curve against the uniform, unigram and
 *   bigram losses, a sample of its writing, and the finished model offered to every <tb-tiny-gpt>.
 *   Each attribute sets a control's starting value; the library checks its range.
 *
 * @attr {number} [seed=0] - The seed of the weights and the batches, a whole number.
 * @attr {number} [steps=600] - Training steps, 1 to 100,000.
 * @attr {number} [learning-rate=0.003] - The peak learning rate.
 * @attr {number} [warmup=0] - The learning rate's warmup, in steps.
 * @attr {number} [layers=2] - The blocks, 1 to 8.
 * @attr {'pre' | 'post'} [norm=pre] - Where the norm sits: before each sublayer (pre-LN) or after the add (post-LN).
 */
export class TbTrain extends TbElement {
  static observedAttributes = ['seed', 'steps', 'learning-rate', 'warmup', 'layers', 'norm'];
  static needs = 'full'; // TinyGPT run: the whole facade (base.js)
  static styles = [sheet(CSS)];

  #lib;
  #defaults;
  #parts;
  #runner = null;
  #run = null; // { id, settings, reference, losses, heldOut, sample, stepsDone, steps, seconds, state }
  #schedule = frameScheduler(
    () => this.#show(),
    (err) => this.#fail(this.t('train.drawFailed', { error: errorText(err, this.t) })),
  );

  release() {
    // The worker ends with the element; an unfinished run is dropped, and the widget shown again
    // starts from a fresh view (a finished run's model has already been handed to the page).
    this.#runner?.close();
    this.#runner = null;
    if (this.#run && this.#run.state !== 'finished') this.#run = null;
  }

  render(lib) {
    const running = this.#parts && this.#run && this.#run.state !== 'finished';
    // Keep a run's view; only a change of language words it again (with the same settings in it).
    const relocalised = this.#parts && this.#parts.locale !== this.locale;
    if (running && !relocalised) return;
    const typed = relocalised ? Object.fromEntries(Object.entries(this.#parts.inputs).map(([k, input]) => [k, input.value])) : null;
    this.#lib = lib;
    const { t, locale } = this;
    const defaults = lib.train_defaults();
    this.#defaults = defaults;
    const d = defaults.settings;
    const start = { seed: d.seed, steps: d.steps, learning_rate: d.learning_rate, warmup: d.warmup, layers: d.layers };
    const inputs = {};
    const fields = FIELDS.map((f) => {
      const id = `${this.uid}-${f.key}`;
      let value = this.attr(f.attr, String(start[f.key]));
      if (!Number.isFinite(Number(value))) {
        this.warn(t('race.notNumber', { name: f.attr, value: clipText(value), fallback: formatDecimal(start[f.key], 6, locale) }));
        value = String(start[f.key]);
      }
      const input =
        f.kind === 'number'
          ? h('input', { id, type: 'number', step: f.step, min: f.min, value, inputMode: 'numeric' })
          : // The learning rate as its reader writes it: 0,003 in French (#read takes either sign).
            h('input', { id, type: 'text', value: locale === 'fr' ? value.replace('.', ',') : value, inputMode: f.inputMode, spellcheck: false, autocomplete: 'off' });
      inputs[f.key] = input;
      return h('div', { class: 'field' }, h('label', { htmlFor: id }, t(f.label)), input);
    });
    const normId = `${this.uid}-norm`;
    const norm = h(
      'select',
      { id: normId },
      h('option', { value: 'pre' }, t('train.normPre')),
      h('option', { value: 'post' }, t('train.normPost')),
    );
    norm.value = this.attr('norm', d.norm) === 'post' ? 'post' : 'pre';
    if (!['pre', 'post'].includes(this.attr('norm', 'pre'))) this.warn(t('train.notNorm', { value: clipText(this.attr('norm', '')) }));
    inputs.norm = norm;
    fields.push(h('div', { class: 'field' }, h('label', { htmlFor: normId }, t('train.norm')), norm));
    if (typed) for (const [key, value] of Object.entries(typed)) inputs[key].value = value;

    const trainButton = h('button', { type: 'button', class: 'primary' }, t('train.train'));
    const pauseButton = h('button', { type: 'button', disabled: true, 'aria-pressed': 'false' }, t('train.pause'));
    const stopButton = h('button', { type: 'button', disabled: true }, t('race.stop'));
    const progressId = `${this.uid}-progress`;
    const progress = h('progress', { id: progressId, max: relocalised && this.#run ? this.#run.steps : d.steps, value: 0 });
    const { characters, held_out_symbols: heldOut } = defaults.corpus;
    const status = h('span', { class: 'status' }, t('train.notStarted', { characters: formatInteger(characters, locale), heldOut: formatInteger(heldOut, locale) }));
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const chart = h('div', { class: 'chart' });
    const outcome = h('p', { class: 'outcome', 'aria-live': 'polite' });
    const sampleText = h('pre', {}, '');
    const sampleCaption = h('figcaption', {}, t('train.sampleCaption'));
    const sample = h('figure', { class: 'sample', hidden: true }, sampleCaption, sampleText);
    // Where this browser measures (a worker, or the page itself): the session's, not the page's.
    const where = h('p', { class: 'muted where', dataset: { browserState: '' } });

    this.#parts = { locale, inputs, trainButton, pauseButton, stopButton, progress, status, error, chart, outcome, sample, sampleText, sampleCaption, where };
    trainButton.addEventListener('click', () => this.#start());
    pauseButton.addEventListener('click', () => this.#pauseOrResume());
    stopButton.addEventListener('click', () => this.#stop());

    this.shadowRoot.replaceChildren(
      h('h3', {}, t('train.title')),
      h('fieldset', { class: 'fields' }, h('legend', { class: 'visually-hidden' }, t('train.settings')), fields),
      h('div', { class: 'buttons' }, trainButton, pauseButton, stopButton),
      error,
      h('div', { class: 'progress' }, h('label', { htmlFor: progressId }, t('train.progress')), progress, status),
      chartLegend(
        [
          ['train', t('train.legendTrain')],
          ['held-out', t('train.legendHeldOut')],
          ['reference', t('train.legendReference')],
        ],
        t,
      ),
      chart,
      outcome,
      sample,
      where,
    );
    this.#draw();
    if (relocalised && this.#run) this.#reword(running);
  }

  /** After a change of language, the run's state in the new view: buttons, where, its progress. */
  #reword(running) {
    const { pauseButton, where, outcome } = this.#parts;
    if (running) {
      this.#setRunning(true);
      if (this.#run.state === 'paused') {
        pauseButton.textContent = this.t('train.resume');
        pauseButton.setAttribute('aria-pressed', 'true');
        outcome.textContent = this.t('train.paused', { step: formatInteger(this.#run.stepsDone, this.locale) });
      }
    }
    if (this.#runner) where.textContent = this.#whereText();
    this.#show();
  }

  #whereText() {
    return this.#runner.kind === 'worker' ? this.t('train.whereWorker') : this.t('train.whereMainThread', { reason: reasonText(this.#runner, this.t) });
  }

  /** The settings typed into the controls: { settings } or { error } (a field that is not a number). */
  #read() {
    const { t } = this;
    const settings = {};
    for (const f of FIELDS) {
      const input = this.#parts.inputs[f.key];
      const text = input.value.trim();
      if (text === '' || (input.validity && input.validity.badInput)) return { error: t('race.typeNumber', { field: t(f.label) }) };
      // A French reader writes a decimal comma (the learning rate is a text field: 0,003).
      const value = Number(this.locale === 'fr' ? text.replace(',', '.') : text);
      if (Number.isNaN(value)) return { error: t('train.notANumber', { field: t(f.label), text: clipText(text) }) };
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
    pauseButton.textContent = this.t('train.pause');
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
      return this.#fail(errorText(err, this.t));
    }
    this.#setRunning(true);
    this.#parts.outcome.textContent = '';
    this.#parts.status.textContent = this.t('train.starting');
    if (!this.#runner) {
      const runner = await trainingRunner();
      if (this.released) return runner.close();
      this.#runner = runner;
      this.#runner.onmessage = (message) => this.#receive(message);
      this.#parts.where.textContent = this.#whereText();
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
      pauseButton.textContent = this.t('train.pause');
      pauseButton.setAttribute('aria-pressed', 'false');
      this.#runner.post({ type: 'resume' });
    } else {
      run.state = 'paused';
      pauseButton.textContent = this.t('train.resume');
      pauseButton.setAttribute('aria-pressed', 'true');
      this.#runner.post({ type: 'pause' });
      this.#parts.outcome.textContent = this.t('train.paused', { step: formatInteger(run.stepsDone, this.locale) });
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
        this.#fail(messageText(message, this.t));
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
        run.losses.push(...(message.losses ?? []));
        run.stepsDone = message.stepsDone;
        run.seconds = message.seconds;
        if (run.heldOut.at(-1)?.step !== message.heldOut.step) run.heldOut.push(message.heldOut);
        run.sample = message.sample;
        run.stopped = message.stopped;
        this.#setRunning(false);
        if (message.stopped) this.#fail(errorText(message.stopped, this.t));
        publishTrained({ parameters: message.parameters, settings: message.settings, heldOut: message.heldOut, steps: message.stepsDone });
        break;
      case 'paused':
        return;
      case 'error':
        run.state = 'finished';
        this.#setRunning(false);
        this.#fail(messageText(message, this.t));
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
    const { t, locale } = this;
    progress.value = run.stepsDone;
    const rate = run.seconds > 0 ? run.stepsDone / run.seconds : 0;
    status.textContent =
      t('train.status', { done: formatInteger(run.stepsDone, locale), steps: formatInteger(run.steps, locale) }) +
      (rate > 0 ? t('train.rate', { rate: formatInteger(Math.round(rate), locale), seconds: formatDecimal(run.seconds, 1, locale) }) : '');
    if (run.sample) {
      sample.hidden = false;
      sampleCaption.textContent = t('train.sampleAt', { step: formatInteger(run.sample.step, locale) });
      sampleText.textContent = `The ${run.sample.text}`;
    }
    if (run.state === 'finished' && run.reference) outcome.textContent = outcomeText(run, t);
    this.#draw();
  }

  #draw() {
    const box = this.#parts?.chart;
    if (!box) return;
    const run = this.#run;
    const layout = lossChartLayout({
      steps: run?.steps ?? Number(this.#parts.progress.max),
      losses: run?.losses ?? [],
      heldOut: run?.heldOut ?? [],
      reference: run?.reference ?? this.#defaults.reference,
      t: this.t,
    });
    box.replaceChildren(...renderLossChart(layout, { ariaLabel: chartLabel(run, this.#defaults.reference, this.t), t: this.t }));
  }
}

/** The reference losses to three decimals in `locale`: { uniform, unigram, bigram }. */
function referenceValues(r, locale) {
  const n = (x) => formatDecimal(x, 3, locale);
  return { uniform: n(r.uniform), unigram: n(r.unigram), bigram: n(r.bigram) };
}

/** Where the held-out loss ended, against the three lines, in words (`t`'s language). */
function outcomeText(run, t) {
  const last = run.heldOut.at(-1);
  const r = run.reference;
  const values = { steps: formatInteger(run.stepsDone, t.locale), loss: formatDecimal(last.loss, 3, t.locale), ...referenceValues(r, t.locale) };
  if (last.loss < r.bigram) return t('train.outcomeBigram', values);
  if (last.loss < r.unigram) return t('train.outcomeUnigram', values);
  if (last.loss < r.uniform) return t('train.outcomeUniform', values);
  return t('train.outcomeNone', values);
}

/** The chart's text alternative: the numbers it shows. */
function chartLabel(run, reference, t) {
  const { locale } = t;
  const n = (x) => formatDecimal(x, 3, locale);
  const lines = (r) => t('train.chartReference', referenceValues(r, locale));
  if (!run || !run.reference) return t('train.chartEmpty', { reference: lines(reference) });
  const last = run.heldOut.at(-1);
  const step = run.losses.length;
  return t('train.chartRun', {
    step: formatInteger(step, locale),
    steps: formatInteger(run.steps, locale),
    latest: step ? t('train.chartLatest', { loss: n(run.losses[step - 1]) }) : '',
    heldOut: last ? t('train.chartHeldOut', { loss: n(last.loss), step: formatInteger(last.step, locale) }) : '',
    reference: lines(run.reference),
  });
}

if (defines('tb-train', TbTrain)) customElements.define('tb-train', TbTrain);
