// <tb-cost-chart model="gpt2-small" seq-len="8">: forward FLOPs per token against T (the flat
// parameter term, the growing attention term, their total) and one block's attention share with
// the crossover marked. A cursor follows the sequence-length control; dragging on the chart moves T.
// The curves come from cost_curve(); the readout at T from count(model, T, 1).

import { chartLegend, errorText, h, TbElement } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { seqLenControl } from '../controls/seq-len.js';
import { costChartLayout, cursorLayout, seqLenAtX } from '../charts/cost-layout.js';
import { renderCostChart } from '../charts/cost-chart-svg.js';
import { formatSI, formatPercent, formatInteger, formatDecimal } from '../format.js';
import { FRAME_CSS } from '../charts/frame.js';
import { ModelChoice, countModel, modelSwitcherSheet } from '../models/model-choice.js';
import { speakEnglish } from '../i18n.js';
import costChartTexts from '../locales/en/cost-chart.js';

speakEnglish(costChartTexts);

const DEFAULT_MODEL = 'gpt2-small';
const DEFAULT_SEQ_LEN = 8;
const CURVE_POINTS = 96;

const CSS = `${FRAME_CSS}
.cost-chart { touch-action: pan-y; user-select: none; -webkit-user-select: none; }
.cost-chart .panel-title { font-size: 12.5px; font-weight: 600; }
.cost-chart .axis-title { fill: var(--_muted); }
.cost-chart .axis line { stroke: var(--_muted); }
.cost-chart .grid line { stroke: var(--_rule); stroke-width: 1; }
.cost-chart .line { fill: none; stroke-width: 2.25; stroke-linejoin: round; }
.line-total { stroke: var(--_fg); stroke-width: 2.5; }
.line-parameter { stroke: var(--_feed-forward); stroke-dasharray: 7 4; }
.line-attention { stroke: var(--_attention); }
.line-share { stroke: var(--_attention); }
.half-line { stroke: var(--_muted); stroke-dasharray: 3 3; }
.crossover line, .crossover path { stroke: var(--_accent); stroke-width: 2; fill: none; }
.crossover.beyond path { transform-box: view-box; transform: translateX(100%); }
.crossover circle { fill: var(--_accent); }
.crossover text { fill: var(--_accent); font-weight: 600; paint-order: stroke; stroke: var(--_bg); stroke-width: 4px; stroke-linejoin: round; }
.cursor-line { stroke: var(--_accent); stroke-width: 1.5; }
.cursor-dot { fill: var(--_bg); stroke-width: 2; }
.dot-total { stroke: var(--_fg); }
.dot-parameter { stroke: var(--_feed-forward); }
.dot-attention, .dot-share { stroke: var(--_attention); }
.drag-surface { fill: transparent; cursor: ew-resize; }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.25rem 0; padding: 0; list-style: none; font-size: 0.9rem; }
.legend li { display: inline-flex; align-items: center; gap: 0.4rem; }
.swatch { display: inline-block; width: 1.6rem; height: 0; border-top: 3px solid currentColor; }
.swatch.total { color: var(--_fg); }
.swatch.parameter { color: var(--_feed-forward); border-top-style: dashed; }
.swatch.attention { color: var(--_attention); }
.readout { font-variant-numeric: tabular-nums; }
.readout strong { font-weight: 600; }
`;

/**
 * @summary Forward FLOPs per token against T, the parameter term and the attention term, and one
 *   block's attention share with the crossover marked.
 *
 * @attr {'tiny-gpt' | 'gpt2-small' | 'gpt2-medium' | 'gpt2-large' | 'gpt2-xl' | 'llama3-8b' | 'llama3-70b' | 'mixtral-8x7b' | string} [model=gpt2-small] - A preset, or the text of a Hugging Face config.json.
 *   The reader's pick in the model switcher wins until the page changes model or config-src.
 * @attr {string} config-src - A config.json to show in place of model: "#id" of a
 *   <script type="application/json"> in the page, or the URL of a .json file on the page's own site.
 * @attr {number} [seq-len=8] - T where the cursor starts: a whole number from 1 to the model's context.
 */
export class TbCostChart extends TbElement {
  static observedAttributes = ['model', 'config-src', 'seq-len'];
  static styles = [sheet(CSS), modelSwitcherSheet];

  #lib;
  #model = DEFAULT_MODEL;
  #curve;
  #seqLen = DEFAULT_SEQ_LEN;
  #chart; // { layout, setCursor, svg }
  #parts; // the output elements, kept across T changes

  #choice = this.hold(new ModelChoice(this, DEFAULT_MODEL));
  #keptSeqLen = null; // the reader's T, carried over to the model they pick next

  render(lib) {
    this.#lib = lib;
    const requested = this.#choice.model();
    if (requested === null) return this.#choice.showLoading();
    this.#model = requested;
    this.#curve = this.attempt(
      () => lib.cost_curve(requested, CURVE_POINTS),
      () => {
        this.#model = DEFAULT_MODEL;
        return lib.cost_curve(DEFAULT_MODEL, CURVE_POINTS);
      },
    );
    // The reader's T when they switched models (as far as the new model goes), else the attribute's.
    const kept = this.#keptSeqLen === null ? null : Math.min(this.#keptSeqLen, this.#curve.context);
    this.#keptSeqLen = null;
    const seqLenAttr = kept ?? this.wholeAttr('seq-len', DEFAULT_SEQ_LEN);
    let report = this.attempt(
      () => countModel(lib, this.#model, seqLenAttr, 1),
      () => null,
    );
    if (!report) report = countModel(lib, this.#model, Math.min(DEFAULT_SEQ_LEN, this.#curve.context), 1);
    this.#seqLen = report.seq_len;
    const label = report.config.label;
    const context = this.#curve.context;
    const { t, locale } = this;

    const control = seqLenControl({
      uid: this.uid,
      label: t('costChart.seqLen'),
      min: 1,
      max: context,
      value: this.#seqLen,
      onChange: (t) => this.#moveTo(t),
    });
    const [slider, field] = control.querySelectorAll('input');
    field.setAttribute('aria-label', t('costChart.seqLenField'));

    const cross = this.#curve.crossover_seq_len;
    const crossText = formatDecimal(cross, 0, locale);
    const note = t(this.#curve.crossover_within_context ? 'costChart.within' : 'costChart.past', {
      crossover: crossText,
      context: formatInteger(context, locale),
      model: label,
    });

    const first = this.#curve.points[0];
    const last = this.#curve.points[this.#curve.points.length - 1];
    const ariaLabel = t('costChart.chartLabel', {
      model: label,
      firstTotal: formatSI(first.total, undefined, locale),
      firstT: formatInteger(first.seq_len, locale),
      lastTotal: formatSI(last.total, undefined, locale),
      lastT: formatInteger(last.seq_len, locale),
      parameter: formatSI(first.parameter_flops, undefined, locale),
      firstAttention: formatSI(first.attention_flops, undefined, locale),
      lastAttention: formatSI(last.attention_flops, undefined, locale),
      firstShare: formatPercent(first.attention_share, locale),
      lastShare: formatPercent(last.attention_share, locale),
      note,
    });

    const chartBox = h('div', { class: 'chart' });
    const readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    const inputError = h('p', { class: 'error', role: 'alert', hidden: true });

    this.#parts = { slider, field, chartBox, readout, inputError, label, ariaLabel, crossText };
    const switcher = this.#choice.switcher(lib, this.#model, () => {
      this.#keptSeqLen = this.#seqLen;
      this.update();
    });
    this.shadowRoot.replaceChildren(
      h('h3', {}, t('costChart.title', { model: label })),
      switcher,
      control,
      inputError,
      chartLegend(
        [
          ['total', t('costChart.legendTotal')],
          ['parameter', t('costChart.legendParameter')],
          ['attention', t('costChart.legendAttention')],
        ],
        t,
      ),
      chartBox,
      readout,
      h('p', { class: 'crossover-note' }, note),
    );

    this.#draw();
    this.#show(report);
  }

  /** Draws the chart (for every width: the frame fits it to its box). */
  #draw() {
    const box = this.#parts.chartBox;
    const { t, locale } = this;
    const layout = costChartLayout({ curve: this.#curve, locale });
    const { frame, svg, setCursor } = renderCostChart(layout, {
      ariaLabel: this.#parts.ariaLabel,
      labels: {
        flops: t('costChart.flopsTitle'),
        share: t('costChart.shareTitle'),
        crossover: t(layout.share.crossover.within ? 'costChart.crossoverWithin' : 'costChart.crossoverPast', { crossover: this.#parts.crossText }),
        axis: t('costChart.axisT'),
      },
    });
    this.#chart = { layout, setCursor, svg };
    this.#listen(svg, layout);
    box.replaceChildren(frame);
  }

  /** Dragging on the chart: pointer x -> whole T (the log scale's inverse), clamped to 1..context. */
  #listen(svg, layout) {
    const toSeqLen = (event) => {
      const rect = svg.getBoundingClientRect();
      return seqLenAtX(layout.x, (event.clientX - rect.left) / (rect.width || 1), 1, this.#curve.context);
    };
    svg.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      svg.setPointerCapture(event.pointerId);
      event.preventDefault();
      this.#moveTo(toSeqLen(event), true);
    });
    svg.addEventListener('pointermove', (event) => {
      if (svg.hasPointerCapture(event.pointerId)) this.#moveTo(toSeqLen(event), true);
    });
    const release = (event) => {
      if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
    };
    svg.addEventListener('pointerup', release);
    svg.addEventListener('pointercancel', release);
  }

  /** A new T from the control or a drag: ask the library, or say why not and keep the last good T. */
  #moveTo(t, fromChart = false) {
    const { inputError, slider, field } = this.#parts;
    if (fromChart && t === this.#seqLen) return;
    let report;
    try {
      report = countModel(this.#lib, this.#model, t, 1);
    } catch (err) {
      inputError.textContent = errorText(err, this.t);
      inputError.hidden = false;
      return;
    }
    inputError.hidden = true;
    inputError.textContent = '';
    this.#seqLen = report.seq_len;
    if (fromChart) {
      slider.value = String(report.seq_len);
      field.value = String(report.seq_len);
    }
    this.#show(report);
  }

  #show(report) {
    this.#parts.report = report;
    const f = report.forward_flops;
    const a = report.attention_share;
    const { readout } = this.#parts;
    const { t, locale } = this;
    readout.replaceChildren(
      ...t.parts('costChart.readout', {
        seqLen: h('strong', { class: 'readout-t' }, formatInteger(report.seq_len, locale)),
        total: h('strong', { class: 'readout-total' }, t('costChart.flops', { flops: formatSI(f.total, undefined, locale) })),
        parameters: formatSI(f.parameter_flops, undefined, locale),
        attention: formatSI(f.attention_flops, undefined, locale),
        share: h('strong', { class: 'readout-share' }, formatPercent(a.share, locale)),
      }),
    );
    this.#placeCursor(report);
  }

  #placeCursor(report) {
    if (!this.#chart) return;
    const f = report.forward_flops;
    this.#chart.setCursor(
      cursorLayout(this.#chart.layout, {
        seqLen: report.seq_len,
        total: f.total,
        parameterFlops: f.parameter_flops,
        attentionFlops: f.attention_flops,
        share: report.attention_share.share,
      }),
    );
  }
}

if (defines('tb-cost-chart', TbCostChart)) customElements.define('tb-cost-chart', TbCostChart);
