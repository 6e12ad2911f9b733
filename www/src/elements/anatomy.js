// <tb-anatomy model="gpt2-small" seq-len="8">: the "select any part" diagram of a decoder.
//
// A model switcher and the sequence-length control; an SVG of the model drawn from the Report's
// parts (one block opened); a details panel for the selected part (what it does, its weight and
// activation shapes at T, its parameters per block, in all and as a share of the model); the
// breakdown bar and the headline figures. Every number comes from `count` in the wasm; this file
// formats and draws. The diagram (anatomy-diagram.js) is one Tab stop (a listbox with a roving
// tabindex): the arrow keys move between parts, Enter or Space selects, a click selects. The panel
// is anatomy-details.js. With TinyGPT, a text field and the selected part's live tensor for that
// text, from the shipped model (anatomy-live.js). Every text is the catalog's (locales/*/anatomy.js),
// in the element's language, and every number is formatted in its locale.

import { TbElement, errorText, h } from './base.js';
import { defines } from './define.js';
import { fullLibrary } from '../wasm.js';
import { sheet } from './theme.js';
import { seqLenControl } from '../controls/seq-len.js';
import { formatCompact, formatInteger } from '../format.js';
import { formatFlops, formatShare } from '../format-anatomy.js';
import { diagramItems, keyboardOrder } from '../charts/anatomy-layout.js';
import { FONT_LABEL, FONT_SMALL } from '../charts/anatomy-boxes.js';
import { groupLabel } from './anatomy-text.js';
import { breakdownSegments, groupClass, renderBreakdownBar } from '../charts/breakdown.js';
import { ModelChoice, countModel, modelSwitcherSheet } from '../models/model-choice.js';
import { AnatomyDiagram } from './anatomy-diagram.js';
import { detailsNodes } from './anatomy-details.js';
import { LIVE_CSS, anatomyLive } from './anatomy-live.js';
import { heatmapSheet } from './heatmap-figure.js';
import { ATTENTION_CSS } from './attention-view.js';
import { tableCardsSheet } from './table-cards.js';
import { speakEnglish } from '../i18n.js';
import anatomyTexts from '../locales/en/anatomy.js';

speakEnglish(anatomyTexts);

const DEFAULT_MODEL = 'gpt2-small';
const DEFAULT_SEQ_LEN = 8;
const BATCH = 1;
const DEFAULT_PART = 'attention';

const GROUPS = ['embeddings', 'attention', 'feed_forward', 'norms', 'output_head', 'router'];

const CSS = `
.panes { display: flex; flex-wrap: wrap; gap: 0.75rem 1.25rem; align-items: flex-start; }
.diagram { flex: 1 1 16.5rem; max-width: 20rem; min-width: 0; }
.details { flex: 1 1 16rem; min-width: 0; }
.details h3 { margin-top: 0.25rem; }
.details h4 { margin: 0.6rem 0 0.2rem; font-size: 0.95rem; }
.details ul { margin: 0; padding-left: 1.1rem; }
.details .params { font-weight: 600; }
svg.anatomy { width: 100%; height: auto; }
svg.anatomy text { font-size: ${FONT_LABEL}px; }
svg.anatomy .small, svg.anatomy .sub { font-size: ${FONT_SMALL}px; }
svg.anatomy .muted-text { fill: var(--_muted); }
.part { cursor: pointer; }
.part:focus { outline: none; }
.part .ring { fill: none; stroke: none; }
.part:focus-visible .ring { stroke: var(--_accent); stroke-width: 2.5; stroke-dasharray: 5 3; }
.hit { fill: transparent; }
.box { stroke-width: 1.25; }
.free .box, .free .add-circle { fill: var(--_bg); stroke: var(--_muted); stroke-dasharray: 4 3; }
.add-circle { stroke-width: 1.5; }
.plus { stroke: var(--_fg); stroke-width: 1.75; }
.stream-line { stroke: var(--_fg); stroke-width: 4; stroke-linecap: round; }
.part[aria-selected="true"] .box,
.part[aria-selected="true"] .add-circle { stroke: var(--_fg); stroke-width: 3.5; stroke-dasharray: none; }
.part[aria-selected="true"] .stream-line { stroke-width: 8; }
.part[aria-selected="true"] .label { font-weight: 700; text-decoration: underline; }
.link { fill: none; stroke: var(--_muted); stroke-width: 1.5; }
.arrow { fill: var(--_muted); }
.frame { fill: none; stroke: var(--_rule); stroke-width: 1.5; }
.frame.dashed { stroke-dasharray: 5 4; }
.chip { stroke: none; }
.chip.tied { fill: none; stroke: var(--_muted); stroke-dasharray: 2 2; }
${GROUPS.map(
  (g) => `
.box.${groupClass(g)} { fill: color-mix(in srgb, var(--_${g.replace('_', '-')}) 14%, var(--_bg)); stroke: var(--_${g.replace('_', '-')}); }
.${groupClass(g)} .chip:not(.tied) { fill: var(--_${g.replace('_', '-')}); }
.seg.${groupClass(g)} { fill: var(--_${g.replace('_', '-')}); }
.sw.${groupClass(g)} { background: var(--_${g.replace('_', '-')}); }`,
).join('')}
.breakdown { margin-top: 1rem; }
.breakdown-bar { display: block; width: 100%; height: 1.75rem; border-radius: 3px; }
.legend { list-style: none; margin: 0.5rem 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
.legend li { display: inline-flex; gap: 0.4rem; align-items: baseline; }
.sw { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; border: 1px solid var(--_fg); }
.headline { display: flex; flex-wrap: wrap; gap: 0.5rem 1.75rem; margin: 0.75rem 0 0; }
.headline dt { color: var(--_muted); font-size: 0.85rem; }
.headline dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
`;

/**
 * @summary The "select any part" diagram of a decoder: each part's shapes at T, its parameters
 *   and its share of the model, the breakdown bar and the headline figures.
 *
 * @attr {'tiny-gpt' | 'gpt2-small' | 'gpt2-medium' | 'gpt2-large' | 'gpt2-xl' | 'llama3-8b' | 'llama3-70b' | 'mixtral-8x7b' | string} [model=gpt2-small] - A preset, or the text of a Hugging Face config.json.
 *   The reader's pick in the model switcher wins until the page changes model or config-src.
 *   With tiny-gpt, the selected part's live tensor for a text the reader types.
 * @attr {string} config-src - A config.json to show in place of model: "#id" of a
 *   <script type="application/json"> in the page, or the URL of a .json file on the page's own site.
 * @attr {number} [seq-len=8] - T, the sequence length the shapes are given at: a whole number from
 *   1 to the model's context.
 */
class TbAnatomy extends TbElement {
  static observedAttributes = ['model', 'config-src', 'seq-len'];
  static styles = [sheet(CSS), modelSwitcherSheet, heatmapSheet, sheet(ATTENTION_CSS), sheet(LIVE_CSS), tableCardsSheet];

  #lib = null;
  #model = DEFAULT_MODEL;
  #report = null;
  #parts = {}; // the output regions, filled by #refresh
  #diagram = null;
  #live = null; // TinyGPT's live tensors, when the model shown is TinyGPT
  #choice = this.hold(new ModelChoice(this, DEFAULT_MODEL));

  release() {
    this.#live?.release();
    this.#live = null;
  }

  /** TinyGPT's live tensors beside the analytic model: the whole facade, from the start when the page asks for TinyGPT. */
  needs() {
    return this.attr('model', DEFAULT_MODEL) === 'tiny-gpt' ? 'full' : 'analytic';
  }

  render(lib) {
    this.#lib = lib;
    const { t, locale } = this;
    let model = this.#choice.model();
    if (model === null) return this.#choice.showLoading();
    let probe;
    try {
      probe = countModel(lib, model, 1, BATCH);
    } catch (err) {
      this.warn(t('anatomy.showingDefault', { error: errorText(err, t) }));
      model = DEFAULT_MODEL;
      probe = countModel(lib, model, 1, BATCH);
    }
    const context = probe.config.context;

    let seqLen = this.wholeAttr('seq-len', DEFAULT_SEQ_LEN);
    let report;
    try {
      report = countModel(lib, model, seqLen, BATCH);
    } catch (err) {
      seqLen = seqLen > context ? context : Math.min(DEFAULT_SEQ_LEN, context);
      this.warn(t('anatomy.showingT', { error: errorText(err, t), seqLen: formatInteger(seqLen, locale) }));
      report = countModel(lib, model, seqLen, BATCH);
    }
    this.#model = model;
    this.#report = report;

    const seqControl = seqLenControl({
      uid: this.uid,
      t,
      label: t('anatomy.seqLen'),
      min: 1,
      max: context,
      value: seqLen,
      onChange: (T) => this.#setSeqLen(T),
    });
    seqControl.querySelector('input[type="number"]').setAttribute('aria-label', t('anatomy.seqLenField'));

    const message = h('p', { class: 'error', role: 'alert', hidden: true });
    const diagram = h('div', { class: 'diagram' });
    const details = h('div', { class: 'details', role: 'group', 'aria-live': 'polite', 'aria-label': t('anatomy.selectedPart') });
    const breakdown = h('div', { class: 'breakdown', role: 'group', 'aria-labelledby': `${this.uid}-breakdown-title` });
    const live = h('div', { class: 'live-slot' });
    this.#parts = { seqControl, message, diagram, details, breakdown, live };
    const old = this.#diagram;
    this.#diagram = new AnatomyDiagram({ uid: this.uid, container: diagram, onSelect: () => this.#renderDetails(), t });
    this.#diagram.selected = old?.selected ?? DEFAULT_PART;
    this.#diagram.focused = old?.focused ?? DEFAULT_PART;

    this.shadowRoot.replaceChildren(
      this.#choice.switcher(lib, model, (picked) => this.#setModel(picked)),
      seqControl,
      message,
      h('div', { class: 'panes' }, diagram, details),
      live,
      breakdown,
    );
    this.#refresh();
  }

  /** TinyGPT's live tensors below the panes when the model shown is TinyGPT, else nothing. */
  #showLive() {
    const tiny = this.#report.config.name === 'tiny-gpt';
    if (tiny && !this.#live && !this.#lib.CharModel) {
      // The reader switched to TinyGPT with the analytic half: fetch the whole facade, then show.
      fullLibrary().then(
        (full) => {
          if (this.released || this.#report?.config.name !== 'tiny-gpt') return;
          this.#lib = full;
          this.#showLive();
        },
        (err) => this.#showMessage(errorText(err, this.t)),
      );
      return;
    }
    if (tiny && !this.#live) this.#live = anatomyLive({ uid: this.uid, lib: this.#lib, t: this.t });
    else if (tiny) this.#live.speak(this.t); // the element's language may have changed since
    if (!tiny) {
      this.#live?.release();
      this.#live = null;
    }
    this.#parts.live.replaceChildren(...(this.#live ? [this.#live.element] : []));
    this.#live?.show(this.#diagram.selected);
  }

  /** The reader picked another model: keep T if the model accepts it, else clamp to its context. */
  #setModel(model) {
    const lib = this.#lib;
    let report;
    try {
      const context = countModel(lib, model, 1, BATCH).config.context;
      const seqLen = Math.min(this.#report.seq_len, context);
      report = countModel(lib, model, seqLen, BATCH);
    } catch (err) {
      this.#showMessage(errorText(err, this.t));
      return;
    }
    this.#model = model;
    this.#report = report;
    for (const input of this.#parts.seqControl.querySelectorAll('input')) {
      input.max = String(report.config.context);
      input.value = String(report.seq_len);
    }
    this.#showMessage(null);
    this.#refresh();
  }

  /** The reader moved T: the library says whether it is allowed. */
  #setSeqLen(seqLen) {
    let report;
    try {
      report = countModel(this.#lib, this.#model, seqLen, BATCH);
    } catch (err) {
      const { t, locale } = this;
      this.#showMessage(t('anatomy.stillShowingT', { error: errorText(err, t), seqLen: formatInteger(this.#report.seq_len, locale) }));
      return;
    }
    this.#report = report;
    this.#showMessage(null);
    // Only shapes and FLOPs depend on T: rewrite those texts rather than redraw the widget.
    if (!this.#retext()) this.#refresh();
  }

  /** After T changed: the texts that show it, in place. False when the diagram must be redrawn. */
  #retext() {
    if (!this.#diagram.retext(this.#report)) return false;
    this.#renderDetails();
    const flops = this.#parts.breakdown.querySelector('[data-figure="flops"]');
    if (!flops) return false;
    flops.replaceWith(this.#flopsFigure());
    return true;
  }

  #flopsFigure() {
    const report = this.#report;
    const { t, locale } = this;
    return h(
      'div',
      { dataset: { figure: 'flops' } },
      h('dt', {}, t('anatomy.flops', { seqLen: formatInteger(report.seq_len, locale) })),
      h('dd', {}, formatFlops(report.forward_flops_per_token, locale)),
    );
  }

  #showMessage(text) {
    const p = this.#parts.message;
    p.textContent = text ?? '';
    p.hidden = !text;
  }

  #refresh() {
    const d = this.#diagram;
    const items = diagramItems(this.#report, this.t);
    const order = keyboardOrder(items);
    if (!order.includes(d.selected)) d.selected = order.includes(DEFAULT_PART) ? DEFAULT_PART : order[0];
    if (!order.includes(d.focused)) d.focused = d.selected;
    this.#parts.diagram.replaceChildren(...d.draw(this.#report, items));
    this.#renderDetails();
    this.#renderBreakdown();
    this.#showLive();
  }

  /** The panel for the selected part, and its live tensor. */
  #renderDetails() {
    const d = this.#diagram;
    const key = d.selected;
    this.#parts.details.replaceChildren(...detailsNodes(this.#report, key, d.items.find((it) => it.key === key), this.t));
    this.#live?.show(key);
  }

  // ---- the breakdown bar and the headline figures ----

  #renderBreakdown() {
    const report = this.#report;
    const { config } = report;
    const { t, locale } = this;
    const titleId = `${this.uid}-breakdown-title`;
    const segments = breakdownSegments(report.groups);
    const legend = h(
      'ul',
      { class: 'legend', 'aria-label': t('anatomy.byGroup') },
      report.groups.map((g) =>
        h(
          'li',
          { dataset: { group: g.group } },
          h('span', { class: `sw ${groupClass(g.group)}`, 'aria-hidden': 'true' }),
          h('span', {}, t('anatomy.legendItem', { group: groupLabel(g, t), params: formatCompact(g.params, locale), share: formatShare(g.share, locale) })),
        ),
      ),
    );
    const figure = (term, value) => h('div', {}, h('dt', {}, term), h('dd', {}, value));
    const both = (n) => t('anatomy.exactAndCompact', { exact: formatInteger(n, locale), compact: formatCompact(n, locale) });
    const headline = h(
      'dl',
      { class: 'headline' },
      figure(t('anatomy.figureParams'), both(report.total_params)),
      figure(t('anatomy.figureWithoutEmbeddings'), both(report.non_embedding_params)),
      report.active_params !== report.total_params ? figure(t('anatomy.figureUsedPerToken'), both(report.active_params)) : null,
      this.#flopsFigure(),
    );
    this.#parts.breakdown.replaceChildren(
      h('h3', { id: titleId }, t('anatomy.breakdownTitle', { model: config.label, params: formatInteger(report.total_params, locale), count: report.total_params })),
      renderBreakdownBar(segments),
      legend,
      headline,
    );
  }
}

if (defines('tb-anatomy', TbAnatomy)) customElements.define('tb-anatomy', TbAnatomy);
