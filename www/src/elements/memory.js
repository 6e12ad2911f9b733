// <tb-memory model="gpt2-small" batch="1" seq-len="8">: the memory a model needs just to hold its
// weights, per number format, and its key/value cache per token and for a batch of B sequences of
// T tokens. The reader edits B and T; every byte count comes from count(model, T, B).

import { TbElement, h, resultRegion } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { labelCells, tableCardsSheet } from './table-cards.js';
import { parseWhole } from '../attributes.js';
import { formatBytes, formatInteger } from '../format.js';
import { ModelChoice, countModel, modelSwitcherSheet } from '../models/model-choice.js';
import { speakEnglish } from '../i18n.js';
import memoryTexts from '../locales/en/memory.js';

speakEnglish(memoryTexts);

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

/**
 * @summary The memory a model's weights take in each number format, and its key/value cache per
 *   token and for B sequences of T tokens.
 *
 * @attr {'tiny-gpt' | 'gpt2-small' | 'gpt2-medium' | 'gpt2-large' | 'gpt2-xl' | 'llama3-8b' | 'llama3-70b' | 'mixtral-8x7b' | string} [model=gpt2-small] - A preset, or the text of a Hugging Face config.json.
 *   The reader's pick in the model switcher wins until the page changes model or config-src.
 * @attr {string} config-src - A config.json to show in place of model: "#id" of a
 *   <script type="application/json"> in the page, or the URL of a .json file on the page's own site.
 * @attr {number} [batch=1] - B, the sequences in the batch: a whole number from 1.
 * @attr {number} [seq-len=8] - T, the tokens per sequence: a whole number from 1 to the model's context.
 */
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
    const { t: tr, locale } = this;

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
    const fullContext = h('button', { type: 'button' }, tr('memory.fullContext', { context: formatInteger(c.context, locale) }));
    fullContext.addEventListener('click', () => {
      seqField.value = String(c.context);
      this.#recompute();
    });

    // A problem with what the reader typed hides the table until the input is good again.
    const region = resultRegion({ t: this.t });
    this.#parts = { batchField, seqField, region, captionId, config: c };

    const switcher = this.#choice.switcher(lib, this.#model, () => {
      const [batchValue, seqValue] = [Number(batchField.value), Number(seqField.value)];
      if (Number.isSafeInteger(batchValue) && Number.isSafeInteger(seqValue)) this.#kept = { batch: batchValue, seqLen: seqValue };
      this.update();
    });
    this.shadowRoot.replaceChildren(
      h('h3', {}, tr('memory.title', { model: c.label })),
      switcher,
      h(
        'div',
        { class: 'controls' },
        h('label', { htmlFor: batchId }, tr('memory.batch'), batchField),
        h('label', { htmlFor: seqId }, tr('memory.seqLen'), seqField),
        fullContext,
      ),
      region.error,
      region.output,
      h(
        'p',
        { class: 'note kv-note' },
        tr('memory.kvNote', {
          layers: formatInteger(c.n_layers, locale),
          kvHeads: formatInteger(c.n_kv_heads, locale),
          heads: formatInteger(c.n_heads, locale),
          why: tr(c.n_kv_heads < c.n_heads ? 'memory.kvShared' : 'memory.kvOwn', { model: c.label }),
        }),
      ),
      h('p', { class: 'note muted' }, tr('memory.weightsFixed')),
    );
    region.output.replaceChildren(this.#table(report));
  }

  /** The reader changed B or T: recompute, or say what is allowed (the table hides meanwhile). */
  #recompute() {
    const { batchField, seqField, region } = this.#parts;
    const { t } = this;
    const batchName = t('memory.batchName');
    for (const [field, name] of [[batchField, batchName], [seqField, 'T']]) {
      if (field.validity.badInput) return region.fail(t('memory.notNumber', { name }));
    }
    // Half-typed (an empty field): wait for the rest rather than complain.
    if (batchField.value.trim() === '' || seqField.value.trim() === '') return;
    // parseWhole's message without its "; using NaN" (there is no default here: the table hides).
    const using = t('attr.using', { value: 'NaN' });
    const read = (field, name) => {
      const parsed = parseWhole(name, field.value, NaN, t);
      if (parsed.error) {
        const message = parsed.error.endsWith(using) ? parsed.error.slice(0, -using.length).replace(/[\s\u202f]*[;；][\s\u202f]*$/, '') : parsed.error;
        throw new Error(message);
      }
      return parsed.value;
    };
    region.show(
      () => countModel(this.#lib, this.#model, read(seqField, 'T'), read(batchField, batchName)),
      (report) => this.#table(report),
    );
  }

  /** The table of one report: weights and cache, per number format. */
  #table(report) {
    const m = report.memory;
    const { captionId, config: c } = this.#parts;
    const { t, locale } = this;
    const byDtype = (list, dtype) => list.find((x) => x.dtype === dtype);
    const cell = (entry) =>
      h(
        'td',
        { class: 'num' },
        formatBytes(entry.bytes, locale),
        h('span', { class: 'exact' }, t('memory.exactBytes', { bytes: formatInteger(entry.bytes, locale), count: entry.bytes })),
      );
    const wrap = h(
      'div',
      { class: 'scroll cards', tabindex: '0', role: 'group', 'aria-labelledby': captionId },
      h(
        'table',
        { 'aria-labelledby': captionId },
        h('caption', { id: captionId }, t('memory.caption', { model: c.label })),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, t('memory.format')),
            h('th', { scope: 'col', class: 'num' }, t('memory.weights')),
            h('th', { scope: 'col', class: 'num' }, t('memory.kvPerToken')),
            h('th', { scope: 'col', class: 'num' }, t('memory.kvFor', { batch: formatInteger(m.batch, locale), seqLen: formatInteger(m.seq_len, locale) })),
          ),
        ),
        h(
          'tbody',
          {},
          m.weights.map((w) =>
            h(
              'tr',
              { dataset: { dtype: w.dtype } },
              h('th', { scope: 'row' }, t('memory.dtype', { dtype: w.dtype, bits: formatInteger(w.bits, locale) })),
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

if (defines('tb-memory', TbMemory)) customElements.define('tb-memory', TbMemory);
