// <tb-attention text="the residual">: where each head of a trained TinyGPT looks, for the text the
// reader types. Per block a map per head of the attention weights (queries down the side, keys
// along the top, the causal triangle empty), the text shaded by how much each earlier character
// weighs for the chosen query, and for a chosen head its scores before the softmax beside its
// weights (attention-view.js); every map has a table alternative (attention-tables.js). The
// numbers are the library's: CharModel.attention runs the same forward pass that computes the loss.
//
// The model switch: the shipped model (2 blocks of width 32, default), the six-block one, the
// untrained model of a seed (near-uniform attention before training), the model a reader trained on
// this page, the reader's checkpoint, or the author's own files (weights-src).
//
// Attributes: text (1 to 16 characters, default "the residual"), model (shipped | six-blocks |
// untrained), seed (the untrained model's seed, a whole number, default 0), weights-src.
//
// A text the model cannot read (empty, past its 16 positions) gets the library's message; the maps
// keep the last text it could read, and say so.

import { TbElement, h, errorText } from './base.js';
import { sheet } from './theme.js';
import { LEVELS, levelClass, paletteCss } from '../charts/heatmap.js';
import { clipText, parseWhole } from '../attributes.js';
import { MODEL_LABELS, makeModel } from '../train/models.js';
import { latestTrained } from '../train/trained.js';
import { latestCheckpoint } from '../models/your-checkpoint.js';
import { checkpointSheet } from '../controls/checkpoint-picker.js';
import { tableCardsSheet } from './table-cards.js';
import { ModelPick, modelNote, modelSwitcher, startingModel } from './experiment-parts.js';
import { CELL, attentionView } from './attention-view.js';
import { rampLegend, showChar } from './heatmap-figure.js';
import { formatInteger } from '../format.js';

const DEFAULT_TEXT = 'the residual';
const MODELS = ['shipped', 'six-blocks', 'untrained'];

const CSS = `
:host {
  --_positive: var(--tb-attention-weight, var(--_attention));
  --_heat-zero: var(--_bg);
}
/* Scores are signed: the heatmaps' diverging colours. */
svg.scores { --_negative: var(--tb-negative, var(--_attention)); --_positive: var(--tb-positive, var(--_feed-forward)); }
.controls input[type="text"] { flex: 1 1 12rem; min-width: 0; font-family: var(--_mono); }
.model-note, .legend, .query-note { font-size: 0.9rem; }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 0.6rem; align-items: center; color: var(--_muted); }
.ramp { display: inline-flex; border: 1px solid var(--_rule); }
.ramp span { display: inline-block; width: 0.9rem; height: 0.9rem; }
.block { margin-top: 0.75rem; }
.maps { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }
figure { margin: 0; }
.head-button { min-height: 1.75rem; padding: 0 0.5rem; font-size: 0.9rem; }
.head-button[aria-pressed="true"] { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); font-weight: 600; }
.map-box { margin-top: 0.25rem; font-family: var(--_mono); font-size: 11px; line-height: ${CELL}px; color: var(--_muted); }
.map-box .cols { display: flex; margin-left: 1.4rem; height: ${CELL}px; }
.map-box .cols span { flex: none; width: ${CELL}px; text-align: center; overflow: hidden; }
.focus .map-box .cols span { width: 16px; }
.map-row { display: flex; align-items: flex-start; }
.map-box .rows { flex: none; display: grid; grid-auto-rows: ${CELL}px; width: 1.4rem; padding-right: 3px; text-align: end; }
.focus .map-box .rows { grid-auto-rows: 16px; line-height: 16px; }
.map-box svg { flex: none; max-width: none; overflow: visible; touch-action: none; }
.map-box svg:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
.frame { fill: none; stroke: var(--_rule); stroke-width: 1; }
.masked { fill: none; stroke: var(--_muted); stroke-width: 1; stroke-dasharray: 2 2; }
.query-row { fill: none; stroke: var(--_fg); stroke-width: 1.5; }
.dimmed { opacity: 0.3; }
.strips { margin: 0.25rem 0 0; }
.strip { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.5rem; margin: 0.1rem 0; }
.strip-label { flex: none; width: 4.2rem; font-size: 0.85rem; color: var(--_muted); }
.chars { display: inline-flex; flex-wrap: wrap; font-family: var(--_mono); }
.char { display: inline-flex; flex-direction: column; align-items: center; min-width: 0.8rem; padding: 0 1px; border-bottom: 4px solid var(--_heat-zero); }
.char.future { color: var(--_muted); border-bottom-color: transparent; }
.char.query { outline: 1px solid var(--_fg); outline-offset: -1px; }
${levelBorders()}
.focus { margin-top: 1rem; padding-top: 0.5rem; border-top: 1px solid var(--_rule); }
.focus-maps { display: flex; flex-wrap: wrap; gap: 0.75rem 1.5rem; }
.focus figcaption { font-size: 0.9rem; }
.tables { margin-top: 0.4rem; }
.tables summary { cursor: pointer; color: var(--_accent); }
.tables table { margin-top: 0.5rem; font-size: 0.85rem; }
.tables caption { text-align: left; font-weight: 600; }
.tables th, .tables td { padding: 0.1rem 0.3rem; white-space: nowrap; }
.stale { color: var(--_muted); font-style: italic; }
${paletteCss()}
`;

/** Each weight shade as the bar under a character of the text strips. */
function levelBorders() {
  const rules = [];
  for (let level = 1; level <= LEVELS; level++) {
    const share = Math.round((level / LEVELS) * 100);
    const c = share >= 100 ? 'var(--_positive)' : `color-mix(in srgb, var(--_positive) ${share}%, var(--_heat-zero))`;
    rules.push(`.char.${levelClass(level)} { border-bottom-color: ${c}; background: none; }`);
  }
  return rules.join('\n');
}

const attentionSheet = sheet(CSS);

class TbAttention extends TbElement {
  static observedAttributes = ['text', 'model', 'seed', 'weights-src'];
  static styles = [attentionSheet, checkpointSheet, tableCardsSheet];

  #model = null;
  #off = null;
  #pick = this.hold(new ModelPick(['model', 'seed', 'weights-src']));

  release() {
    this.#off?.();
    this.#off = null;
    this.#model?.free();
    this.#model = null;
  }

  /** The seed attribute, checked by the library: a bad one is named and 0 used. */
  #seed(lib) {
    const text = this.attr('seed', null);
    if (text === null) return 0;
    const parsed = parseWhole('seed', text, 0);
    if (parsed.error) {
      this.warn(parsed.error);
      return 0;
    }
    return this.attempt(() => (lib.CharModel.untrained(parsed.value).free(), parsed.value), () => 0);
  }

  #modelAttr() {
    const m = this.attr('model', 'shipped');
    if (MODELS.includes(m)) return m;
    this.warn(`model "${clipText(m)}" is not a model this widget runs: choose shipped, six-blocks or untrained; using shipped`);
    return 'shipped';
  }

  render(lib) {
    const seed = this.#seed(lib);
    const start = startingModel(this, lib, () => this.#modelAttr());
    if (start.loading) return this.shadowRoot.replaceChildren(...start.loading);
    const { page } = start;

    const textId = `${this.uid}-text`;
    const input = h('input', { id: textId, type: 'text', value: this.attr('text', DEFAULT_TEXT), spellcheck: false, autocomplete: 'off', 'aria-describedby': `${this.uid}-text-help` });
    const help = h('span', { id: `${this.uid}-text-help`, class: 'muted' });
    const note = h('p', { class: 'muted model-note' });
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const stale = h('p', { class: 'stale', hidden: true });
    const unknown = h('p', { class: 'muted unknown', role: 'status' });
    const summary = h('p', { class: 'result' });
    const view = attentionView();
    const output = h('div', { class: 'output' }, summary, legend(), ...view.nodes);
    let shown = null; // the text the maps show

    const load = () => {
      this.#model?.free();
      this.#model = null;
      try {
        this.#model = makeModel(lib, select.value, seed, page);
      } catch (err) {
        error.textContent = errorText(err);
        error.hidden = false;
        return false;
      }
      const from = select.value === 'page' ? page : select.value === 'checkpoint' ? latestCheckpoint() : null;
      const info = this.#model.info();
      note.textContent = modelNote(info, latestTrained(), from, select.value);
      help.textContent = `1 to ${formatInteger(info.context)} characters`;
      return true;
    };
    const run = () => {
      if (!this.#model) return;
      let r;
      try {
        r = this.#model.attention(input.value);
      } catch (err) {
        error.textContent = errorText(err);
        error.hidden = false;
        stale.hidden = shown === null;
        stale.textContent = shown === null ? '' : `The maps still show "${clipText(shown)}", the last text the model could read.`;
        output.hidden = shown === null;
        return;
      }
      error.hidden = true;
      error.textContent = '';
      stale.hidden = true;
      stale.textContent = '';
      output.hidden = false;
      shown = r.symbols.join('');
      view.update(r);
      const T = r.ids.length;
      summary.textContent = `"${r.symbols.map(showChar).join('')}": ${formatInteger(T)} position${T === 1 ? '' : 's'}, ${r.layers} block${r.layers === 1 ? '' : 's'} of ${r.heads} heads. Rows are queries, columns keys; a query sees itself and the characters before it.`;
      unknown.textContent = r.unknown.length
        ? `Not among the model\u2019s characters, so read as the catch-all symbol \u201c\ufffd\u201d: ${r.unknown.map((t) => `position ${t + 1}`).join(', ')}.`
        : '';
    };
    this.#off?.();
    const untrainedLabel = `${MODEL_LABELS.untrained} (seed ${seed})`;
    const { control, select, off } = modelSwitcher(this.uid, lib, start, this.#pick, () => load() && run(), {
      models: [
        ['shipped', MODEL_LABELS.shipped],
        ['six-blocks', MODEL_LABELS['six-blocks']],
        ['untrained', untrainedLabel],
        ['trained', MODEL_LABELS.trained],
      ],
      beside: [h('label', { htmlFor: textId }, 'Text'), input, help],
    });
    this.#off = off;
    input.addEventListener('input', run);
    if (load()) run();
    this.shadowRoot.replaceChildren(h('h3', {}, 'Where each head looks'), control, note, error, stale, unknown, output);
  }
}

/** The key: darker is more weight, on one scale for every map. */
function legend() {
  return rampLegend(0, LEVELS, 'weight 0', '1, one scale for every map. Dashed: the masked triangle, the keys after each query.');
}

customElements.get('tb-attention') || customElements.define('tb-attention', TbAttention);
