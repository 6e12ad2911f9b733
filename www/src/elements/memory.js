// <tb-memory model="gpt2-small" batch="1" seq-len="8">: the memory a model needs just to hold its
// weights, per number format, and its key/value cache per token and for a batch of B sequences of
// T tokens. The reader edits B and T; every byte count comes from count(model, T, B).

import { TbElement, h, resultRegion } from './base.js';
import { sheet } from './theme.js';
import { labelCells, tableCardsSheet } from './table-cards.js';
import { parseWhole } from '../attributes.js';
import { formatBytes, formatInteger } from '../format.js';
import { ModelChoice, countModel, modelSwitcherSheet } from '../models/model-choice.js';

const DEFAULT_MODEL = 'gpt2-small';
const DEFAULT_BATCH = 1;
const DEFAULT_SEQ_LEN = 8;

const CSS = `
.scroll { margin: 0.5rem 0; }
table { min-width: 30rem; overflow-wrap: normal; }
caption { text-align: left; font-weight: 600; padding: 0 0 0.4rem; }
th[scope="col"] { font-size: 0.85rem; color: var(--_muted); font-weight: 600; vertical-align: bottom; }
td.num, tbody th { white-space: nowrap; }
.exact { display: block; font-size: 0.8rem; color: var(--_muted); }
.note { font-size: 0.92rem; }
`;

export class TbMemory extends TbElement {
  static observedAttributes = ['model', 'config-src', 'batch', 'seq-len'];
  static styles = [sheet(CSS), tableCardsSheet, modelSwitcherSheet];

  #lib;
  #model = DEFAULT_MODEL;
  #parts;
  #choice = this.hold(new ModelChoice(this, DEFAULT_MODEL));
  #kept = null; // the reader's B and T text, carried over to the model they pick next

  render(lib) {
    this.#lib = lib;
    const requested = this.#choice.model();
    if (requested === null) return this.#choice.showLoading();
    // The model alone first (T = 1, B = 1), so a bad batch or T is reported on its own.
    this.#model = requested;
    const base = this.attempt(
      () => countModel(lib, requested, 1, 1),
      () => {
        this.#model = DEFAULT_MODEL;
        return countModel(lib, DEFAULT_MODEL, 1, 1);
      },
    );
    const c = base.config;

    // The reader's B and T when they switched models, else the attributes'.
    const kept = this.#kept;
    this.#kept = null;
    const b = kept ? kept.batch : this.wholeAttr('batch', DEFAULT_BATCH);
    const t = kept ? Math.min(kept.seqLen, c.context) : this.wholeAttr('seq-len', DEFAULT_SEQ_LEN);
    const batch = this.attempt(
      () => (countModel(lib, this.#model, 1, b), b),
      () => DEFAULT_BATCH,
    );
    const seqLen = this.attempt(
      () => (countModel(lib, this.#model, t, 1), t),
      () => Math.min(DEFAULT_SEQ_LEN, c.context),
    );
    const report = countModel(lib, this.#model, seqLen, batch);

    const batchId = `${this.uid}-batch`;
    const seqId = `${this.uid}-seq`;
    const captionId = `${this.uid}-caption`;
    const batchField = h('input', { type: 'number', id: batchId, min: 1, step: 1, value: batch });
    const seqField = h('input', { type: 'number', id: seqId, min: 1, max: c.context, step: 1, value: seqLen });
    const onInput = () => this.#recompute();
    for (const f of [batchField, seqField]) {
      f.addEventListener('input', onInput);
      f.addEventListener('change', onInput);
    }
    const fullContext = h(
      'button',
      { type: 'button' },
      `Use the full context (${formatInteger(c.context)})`,
    );
    fullContext.addEventListener('click', () => {
      seqField.value = String(c.context);
      this.#recompute();
    });

    // A problem with what the reader typed hides the table until the input is good again.
    const region = resultRegion();
    this.#parts = { batchField, seqField, region, captionId, config: c };

    const switcher = this.#choice.switcher(lib, this.#model, () => {
      const [batchValue, seqValue] = [Number(batchField.value), Number(seqField.value)];
      if (Number.isSafeInteger(batchValue) && Number.isSafeInteger(seqValue)) this.#kept = { batch: batchValue, seqLen: seqValue };
      this.update();
    });
    this.shadowRoot.replaceChildren(
      h('h3', {}, `Memory for ${c.label}`),
      switcher,
      h(
        'div',
        { class: 'controls' },
        h('label', { htmlFor: batchId }, 'Batch B (sequences)', batchField),
        h('label', { htmlFor: seqId }, 'Context T (tokens)', seqField),
        fullContext,
      ),
      region.error,
      region.output,
      h(
        'p',
        { class: 'note kv-note' },
        `The cache keeps one key and one value per token in each of the ${formatInteger(c.n_layers)} blocks, ` +
          `for the ${formatInteger(c.n_kv_heads)} key/value heads (n_kv_heads), not the ` +
          `${formatInteger(c.n_heads)} query heads: ` +
          (c.n_kv_heads < c.n_heads
            ? `${c.label} shares each key/value head among several query heads (grouped-query attention), which shrinks the cache.`
            : `in ${c.label} every query head has its own key/value head, so the two numbers agree.`),
      ),
      h('p', { class: 'note muted' }, 'Weights are fixed once loaded; the cache grows with every token of every sequence in the batch.'),
    );
    region.output.replaceChildren(this.#table(report));
  }

  /** The reader changed B or T: recompute, or say what is allowed (the table hides meanwhile). */
  #recompute() {
    const { batchField, seqField, region } = this.#parts;
    for (const [field, name] of [[batchField, 'batch'], [seqField, 'T']]) {
      if (field.validity.badInput) return region.fail(`${name} is not a number: type a whole number`);
    }
    // Half-typed (an empty field): wait for the rest rather than complain.
    if (batchField.value.trim() === '' || seqField.value.trim() === '') return;
    const read = (field, name) => {
      const parsed = parseWhole(name, field.value, NaN);
      if (parsed.error) throw new Error(parsed.error.replace(/; using NaN$/, ''));
      return parsed.value;
    };
    region.show(
      () => countModel(this.#lib, this.#model, read(seqField, 'T'), read(batchField, 'batch')),
      (report) => this.#table(report),
    );
  }

  /** The table of one report: weights and cache, per number format. */
  #table(report) {
    const m = report.memory;
    const { captionId, config: c } = this.#parts;
    const byDtype = (list, dtype) => list.find((x) => x.dtype === dtype);
    const cell = (entry) =>
      h(
        'td',
        { class: 'num' },
        formatBytes(entry.bytes),
        h('span', { class: 'exact' }, `${formatInteger(entry.bytes)} bytes`),
      );
    const wrap = h(
      'div',
      { class: 'scroll cards', tabindex: '0', role: 'group', 'aria-labelledby': captionId },
      h(
        'table',
        { 'aria-labelledby': captionId },
        h('caption', { id: captionId }, `Memory of ${c.label}: weights and key/value cache`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Number format'),
            h('th', { scope: 'col', class: 'num' }, 'Weights'),
            h('th', { scope: 'col', class: 'num' }, 'KV cache per token'),
            h(
              'th',
              { scope: 'col', class: 'num' },
              `KV cache for B = ${formatInteger(m.batch)}, T = ${formatInteger(m.seq_len)}`,
            ),
          ),
        ),
        h(
          'tbody',
          {},
          m.weights.map((w) =>
            h(
              'tr',
              { dataset: { dtype: w.dtype } },
              h('th', { scope: 'row' }, `${w.dtype} (${w.bits} bits)`),
              cell(w),
              cell(byDtype(m.kv_cache_per_token, w.dtype)),
              cell(byDtype(m.kv_cache, w.dtype)),
            ),
          ),
        ),
      ),
    );
    labelCells(wrap.querySelector('table'));
    return wrap;
  }
}

customElements.get('tb-memory') || customElements.define('tb-memory', TbMemory);
