// <tb-training-cost>: the cost of a training run, 6·N·D, and how long it takes at a given peak and
// utilisation. Preset to nanoGPT's GPT-2 (124M) run from example_defaults().training_run; the
// reader edits N, tokens per iteration, iterations, peak and utilisation, and training_run_per_iteration()
// recomputes. Optional attributes set the starting values: params, tokens-per-iteration,
// iterations, peak-tflops, utilisation.

import { TbElement, h, resultRegion } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { formatScientific, formatInteger, formatDecimal } from '../format.js';
import { parseReaderNumber, formatHours } from '../format-cost.js';
import { speakEnglish } from '../i18n.js';
import trainingCostTexts from '../locales/en/training-cost.js';

speakEnglish(trainingCostTexts);

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

// Each field's label is the catalog's cost.<key>, its hint cost.<key>Hint.
const FIELDS = [
  { key: 'params', attr: 'params' },
  { key: 'tokensPerIteration', attr: 'tokens-per-iteration' },
  { key: 'iterations', attr: 'iterations' },
  { key: 'peak', attr: 'peak-tflops' },
  { key: 'utilisation', attr: 'utilisation' },
];

/**
 * @summary The compute of a training run, 6·N·D, and how long it takes at a given peak and
 *   utilisation; each attribute sets a field's starting value (default: nanoGPT's GPT-2 run on an A100).
 *
 * @attr {number} params - N, the parameters that take part in a matrix product; default GPT-2
 *   small's, all but its position table.
 * @attr {number} [tokens-per-iteration=491520] - Tokens per iteration: batch × sequence length ×
 *   gradient steps.
 * @attr {number} [iterations=600000] - Iterations; D is tokens per iteration × iterations.
 * @attr {number} [peak-tflops=312] - The hardware's peak in TFLOP/s (an A100 in bf16: 312).
 * @attr {number} [utilisation=1] - The fraction of the peak reached: above 0, at most 1.
 */
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
      peak: d.peak / TERA,
      utilisation: d.utilisation,
    };
    const { t, locale } = this;
    const shown = {
      params: formatInteger(defaults.params, locale),
      tokensPerIteration: formatInteger(defaults.tokensPerIteration, locale),
      iterations: formatInteger(defaults.iterations, locale),
      peak: formatDecimal(defaults.peak, 3, locale),
      utilisation: formatDecimal(defaults.utilisation, 3, locale),
    };

    // Attributes, checked one at a time: a bad one is named and its default kept.
    const start = {};
    for (const f of FIELDS) {
      const text = this.attr(f.attr, null);
      if (text === null) {
        start[f.key] = shown[f.key];
        continue;
      }
      const parsed = parseReaderNumber(f.attr, text, t);
      if (parsed.error) {
        this.warn(t('cost.using', { problem: parsed.error, value: shown[f.key] }));
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
      return h('div', { class: 'field' }, h('label', { htmlFor: id }, t(`cost.${f.key}`)), input, h('span', { class: 'hint', id: hintId }, t(`cost.${f.key}Hint`)));
    });

    // A problem with what the reader typed hides the result until the input is good again.
    const region = resultRegion({ outputClass: 'result', t: this.t });
    this.#parts = { inputs, region };

    this.shadowRoot.replaceChildren(
      h('h3', {}, t('cost.title')),
      h('p', { class: 'note muted' }, t('cost.preset')),
      h('div', { class: 'fields' }, fields),
      region.error,
      region.output,
      h('p', { class: 'note muted' }, t('cost.realRuns')),
    );

    // Attribute values that are numbers but out of range (utilisation 2, say): the library's
    // message above the widget, and nanoGPT's run instead.
    if (!this.#recompute()) {
      this.warn(t('cost.usingNanogpt', { problem: region.error.textContent }));
      for (const f of FIELDS) inputs[f.key].value = shown[f.key];
      this.#recompute();
    }
  }

  /** The reader's numbers as training_run takes them, or { error }. */
  #read() {
    const { inputs } = this.#parts;
    const values = {};
    for (const f of FIELDS) {
      const parsed = parseReaderNumber(this.t(`cost.${f.key}`), inputs[f.key].value, this.t);
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
    const { t, locale } = this;
    return region.show(
      // The library multiplies out D and checks that the counts are whole; the peak is converted to FLOP/s here.
      () => this.#lib.training_run_per_iteration(v.params, v.tokensPerIteration, v.iterations, v.peak * TERA, v.utilisation),
      (run) => [
        h('p', { class: 'tokens' }, t.parts('cost.tokens', { tokens: h('strong', {}, formatScientific(run.tokens, 3, locale)) })),
        h('p', { class: 'flops' }, t.parts('cost.flops', { flops: h('strong', {}, formatScientific(run.flops, 2, locale)) })),
        h(
          'p',
          { class: 'time' },
          t.parts('cost.time', {
            time: h('strong', {}, formatHours(run.hours, locale)),
            peak: formatDecimal(run.peak_flops_per_second / TERA, 3, locale),
            utilisation: formatDecimal(run.utilisation, 3, locale),
          }),
        ),
      ],
    );
  }
}

if (defines('tb-training-cost', TbTrainingCost)) customElements.define('tb-training-cost', TbTrainingCost);
