// <tb-training-cost>: the cost of a training run, 6·N·D, and how long it takes at a given peak and
// utilisation. Preset to nanoGPT's GPT-2 (124M) run from example_defaults().training_run; the
// reader edits N, tokens per iteration, iterations, peak and utilisation, and training_run_per_iteration()
// recomputes. Optional attributes set the starting values: params, tokens-per-iteration,
// iterations, peak-tflops, utilisation.

import { TbElement, h, resultRegion } from './base.js';
import { sheet } from './theme.js';
import { formatScientific, formatInteger, formatDecimal } from '../format.js';
import { parseReaderNumber, formatHours } from '../format-cost.js';

const TERA = 1e12; // the peak field is in TFLOP/s; training_run takes FLOP/s

const CSS = `
.fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: 0.5rem 1rem; margin: 0.5rem 0; }
.field { display: flex; flex-direction: column; align-items: stretch; gap: 0.15rem; font-size: 0.9rem; }
.fields input { width: 100%; font-variant-numeric: tabular-nums; }
.hint { font-size: 0.8rem; color: var(--_muted); }
.result { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--_accent); }
.result p { margin: 0.2rem 0; }
.result strong { font-size: 1.1rem; }
.note { font-size: 0.92rem; }
`;

const FIELDS = [
  { key: 'params', attr: 'params', label: 'N, parameters', hint: 'the ones that take part in a matrix product' },
  { key: 'tokensPerIteration', attr: 'tokens-per-iteration', label: 'Tokens per iteration', hint: 'batch × sequence length × gradient steps' },
  { key: 'iterations', attr: 'iterations', label: 'Iterations', hint: 'D = tokens per iteration × iterations' },
  { key: 'peakTflops', attr: 'peak-tflops', label: 'Peak, TFLOP/s', hint: 'an A100 in bf16: 312' },
  { key: 'utilisation', attr: 'utilisation', label: 'Utilisation (fraction of peak)', hint: 'above 0, at most 1' },
];

export class TbTrainingCost extends TbElement {
  static observedAttributes = FIELDS.map((f) => f.attr);
  static styles = [sheet(CSS)];

  #lib;
  #parts;

  render(lib) {
    this.#lib = lib;
    const d = lib.example_defaults().training_run;
    const defaults = {
      params: d.params,
      tokensPerIteration: d.tokens_per_iteration,
      iterations: d.iterations,
      peakTflops: d.peak / TERA,
      utilisation: d.utilisation,
    };
    const shown = {
      params: formatInteger(defaults.params),
      tokensPerIteration: formatInteger(defaults.tokensPerIteration),
      iterations: formatInteger(defaults.iterations),
      peakTflops: formatDecimal(defaults.peakTflops, 3),
      utilisation: formatDecimal(defaults.utilisation, 3),
    };

    // Attributes, checked one at a time: a bad one is named and its default kept.
    const start = {};
    for (const f of FIELDS) {
      const text = this.attr(f.attr, null);
      if (text === null) {
        start[f.key] = shown[f.key];
        continue;
      }
      const parsed = parseReaderNumber(f.attr, text);
      if (parsed.error) {
        this.warn(`${parsed.error}; using ${shown[f.key]}`);
        start[f.key] = shown[f.key];
      } else {
        start[f.key] = text;
      }
    }

    const inputs = {};
    const fields = FIELDS.map((f) => {
      const id = `${this.uid}-${f.attr}`;
      const hintId = `${id}-hint`;
      const input = h('input', {
        type: 'text',
        inputMode: 'decimal',
        id,
        value: start[f.key],
        spellcheck: false,
        autocomplete: 'off',
        'aria-describedby': hintId,
      });
      input.addEventListener('input', () => this.#recompute());
      inputs[f.key] = input;
      return h('div', { class: 'field' }, h('label', { htmlFor: id }, f.label), input, h('span', { class: 'hint', id: hintId }, f.hint));
    });

    // A problem with what the reader typed hides the result until the input is good again.
    const region = resultRegion({ outputClass: 'result' });
    this.#parts = { inputs, region };

    this.shadowRoot.replaceChildren(
      h('h3', {}, 'What a training run costs: 6·N·D'),
      h(
        'p',
        { class: 'note muted' },
        "Preset to nanoGPT's run of GPT-2 small (config/train_gpt2.py). Each token costs about 6N FLOPs to train: 2N forward and twice that backward.",
      ),
      h('div', { class: 'fields' }, fields),
      region.error,
      region.output,
      h('p', { class: 'note muted' }, 'Real runs reach only part of the peak: lower the utilisation to see the time stretch.'),
    );

    // Attribute values that are numbers but out of range (utilisation 2, say): the library's
    // message above the widget, and nanoGPT's run instead.
    if (!this.#recompute()) {
      this.warn(`${region.error.textContent}; using nanoGPT's run instead`);
      for (const f of FIELDS) inputs[f.key].value = shown[f.key];
      this.#recompute();
    }
  }

  /** The reader's numbers as training_run takes them, or { error }. */
  #read() {
    const { inputs } = this.#parts;
    const values = {};
    for (const f of FIELDS) {
      const parsed = parseReaderNumber(f.label, inputs[f.key].value);
      if (parsed.error) return { error: parsed.error };
      values[f.key] = parsed.value;
    }
    return { values };
  }

  /** Recompute from the fields; on a problem, say it and hide the result. True if shown. */
  #recompute() {
    const { region } = this.#parts;
    const read = this.#read();
    if (read.error) return region.fail(read.error);
    const v = read.values;
    return region.show(
      // The library multiplies out D and checks that the counts are whole; the peak is converted to FLOP/s here.
      () => this.#lib.training_run_per_iteration(v.params, v.tokensPerIteration, v.iterations, v.peakTflops * TERA, v.utilisation),
      (run) => [
        h('p', { class: 'tokens' }, 'D = ', h('strong', {}, formatScientific(run.tokens, 3)), ' tokens'),
        h('p', { class: 'flops' }, '6·N·D = ', h('strong', {}, formatScientific(run.flops, 2)), ' FLOPs'),
        h(
          'p',
          { class: 'time' },
          'About ',
          h('strong', {}, formatHours(run.hours)),
          ` of one accelerator at ${formatDecimal(run.peak_flops_per_second / TERA, 3)} TFLOP/s and utilisation ${formatDecimal(run.utilisation, 3)}.`,
        ),
      ],
    );
  }
}

customElements.get('tb-training-cost') || customElements.define('tb-training-cost', TbTrainingCost);
