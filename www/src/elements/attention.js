// <tb-attention text="the residual">: where each head of a trained TinyGPT looks, for the text the
// reader types. Per block a map per head of the attention weights (queries down the side, keys
// along the top, the causal triangle empty), the text shaded by how much each earlier character
// weighs for the chosen query, and for a chosen head its scores before the softmax beside its
// weights (attention-view.js); every map has a table alternative (attention-tables.js). The
// numbers are the library's: CharModel.attention runs the same forward pass that computes the loss.
//
// The model switch: the shipped model (2 blocks of width 32, default), the six-block one, the
// untrained model of a seed (near-uniform attention before training), the model a reader trained on
// this page, the reader's checkpoint, or the author's own files (weights-src). A weights-src folder
// holding a Hugging Face checkpoint (GPT-2, Llama, Mistral, Qwen2) is shown as the real model it is
// (checkpoint-attention.js), its tokens cut by its own tokenizer.
//
// Attributes: text (1 to 16 characters, default "the residual"; a real model's: up to 64 tokens),
// model (shipped | six-blocks |
// untrained), seed (the untrained model's seed, a whole number, default 0), weights-src.
//
// A text the model cannot read (empty, past its 16 positions) gets the library's message; the maps
// keep the last text it could read, and say so.

import { TbElement, h, errorText } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { WEIGHT_CLASSES } from '../charts/attention-map.js';
import { clipText, parseWhole } from '../attributes.js';
import { MODEL_LABELS } from '../train/models.js';
import { checkpointSheet } from '../controls/checkpoint-picker.js';
import { tableCardsSheet } from './table-cards.js';
import { ModelShown } from './model-shown.js';
import { ATTENTION_CSS, attentionView } from './attention-view.js';
import { CHECKPOINT_ATTENTION_CSS, checkpointAttention } from './checkpoint-attention.js';
import { rampLegend, showChar, unknownNote } from './heatmap-figure.js';
import { formatInteger } from '../format.js';
import { speakEnglish, translator } from '../i18n.js';
import attentionTexts from '../locales/en/attention.js';

speakEnglish(attentionTexts);

const DEFAULT_TEXT = 'the residual';
const MODELS = ['shipped', 'six-blocks', 'untrained'];

const attentionSheet = sheet(ATTENTION_CSS + CHECKPOINT_ATTENTION_CSS);

/**
 * @summary Where each head of TinyGPT looks for a text the reader types: a map per head of every
 *   block, with a table alternative, and a chosen head's scores before the softmax.
 *
 * @attr {string} [text="the residual"] - The text read, 1 to 16 characters. A Hugging Face
 *   checkpoint reads up to 64 tokens; its default is "The residual stream carries every token through each block".
 * @attr {'shipped' | 'six-blocks' | 'untrained'} [model=shipped] - The model shown first: the
 *   2-block TinyGPT the page ships, the six-block one, or the untrained model of seed.
 * @attr {number} [seed=0] - The untrained model's seed, a whole number.
 * @attr {string} weights-src - The URL, on the page's own site, of a model folder `tblock train`
 *   wrote (or its model.safetensors), shown first once loaded; or of a Hugging Face checkpoint
 *   folder (GPT-2, Llama, Mistral, Qwen2), shown as the real model it is, its text cut by its own tokenizer.
 */
class TbAttention extends TbElement {
  static observedAttributes = ['text', 'model', 'seed', 'weights-src'];
  static needs = 'model'; // TinyGPT read: the model facade, or the whole one where it is coming (base.js)
  static styles = [attentionSheet, checkpointSheet, tableCardsSheet];

  #models = this.hold(new ModelShown(this, checkpointAttention(this), { fallback: () => this.#modelAttr(), attributes: ['model', 'seed', 'weights-src'] }));

  /** The seed attribute, checked by the library: a bad one is named and 0 used. */
  #seed(lib) {
    const text = this.attr('seed', null);
    if (text === null) return 0;
    const parsed = parseWhole('seed', text, 0, this.t);
    if (parsed.error) {
      this.warn(parsed.error);
      return 0;
    }
    return this.attempt(() => (lib.CharModel.untrained(parsed.value).free(), parsed.value), () => 0);
  }

  #modelAttr() {
    const m = this.attr('model', 'shipped');
    if (MODELS.includes(m)) return m;
    this.warn(this.t('attention.badModel', { model: clipText(m) }));
    return 'shipped';
  }

  /** The switcher's models: the untrained one named by its seed. */
  #switcherModels(seed) {
    // The seed is a name, written as typed (no digit grouping).
    const untrainedLabel = this.t('attention.modelUntrained', { seed: String(seed) });
    return {
      models: [
        ['shipped', MODEL_LABELS.shipped],
        ['six-blocks', MODEL_LABELS['six-blocks']],
        ['untrained', untrainedLabel],
        ['trained', MODEL_LABELS.trained],
      ],
    };
  }

  keepsPrerendered(lib) {
    return this.#models.loading(lib) || this.#models.preparing(lib);
  }

  render(lib) {
    const { t, locale } = this;
    const seed = this.#seed(lib);
    const models = this.#switcherModels(seed);
    const modelShown = this.#models.shown(lib, models);
    if (modelShown.loading || modelShown.nodes) return this.shadowRoot.replaceChildren(...(modelShown.loading ?? modelShown.nodes));
    const { start } = modelShown;

    const textId = `${this.uid}-text`;
    const input = h('input', { id: textId, type: 'text', value: this.attr('text', DEFAULT_TEXT), spellcheck: false, autocomplete: 'off', 'aria-describedby': `${this.uid}-text-help` });
    const help = h('span', { id: `${this.uid}-text-help`, class: 'muted' });
    const note = h('p', { class: 'muted model-note' });
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const stale = h('p', { class: 'stale', hidden: true });
    const unknown = h('p', { class: 'muted unknown', role: 'status' });
    const summary = h('p', { class: 'result' });
    const view = attentionView(t);
    const output = h('div', { class: 'output attention-maps' }, summary, legend(t), ...view.nodes);
    let shown = null; // what the maps show: { text, model }

    /** The problem, and (when there are maps) which text and model they still show. */
    const fail = (err) => {
      error.textContent = errorText(err, t);
      error.hidden = false;
      stale.hidden = shown === null;
      stale.textContent = shown === null ? '' : t('attention.stale', { text: clipText(shown.text), model: clipText(shown.model, 60) });
      output.hidden = shown === null;
    };
    const run = (select) => {
      if (!this.#models.model) return;
      let r;
      try {
        r = this.#models.model.attention(input.value);
      } catch (err) {
        return fail(err);
      }
      error.hidden = true;
      error.textContent = '';
      stale.hidden = true;
      stale.textContent = '';
      output.hidden = false;
      shown = { text: r.symbols.join(''), model: select.selectedOptions[0]?.textContent ?? '' };
      view.update(r);
      const count = (key, n) => t(key, { count: n, n: formatInteger(n, locale) });
      summary.textContent = t('attention.summary', {
        text: r.symbols.map(showChar).join(''),
        positions: count('attention.positions', r.ids.length),
        blocks: count('attention.blocks', r.layers),
        heads: count('attention.heads', r.heads),
      });
      unknown.textContent = unknownNote(r.unknown, t);
    };
    const { control } = this.#models.reader(lib, start, {
      seed,
      input,
      note,
      fail,
      run,
      made: (model) => (help.textContent = t('attention.help', { longest: formatInteger(model.info().longest_text, locale) })),
      ...models,
      beside: [h('label', { htmlFor: textId }, t('attention.text')), input, help],
    });
    this.shadowRoot.replaceChildren(h('h3', {}, t('attention.title')), control, note, error, stale, unknown, output);
  }
}

/** The key: darker is more weight, on one scale for every map. */
function legend(t = translator('en')) {
  return rampLegend(WEIGHT_CLASSES, t('attention.legendLow'), t('attention.legendHigh'));
}

if (defines('tb-attention', TbAttention)) customElements.define('tb-attention', TbAttention);
