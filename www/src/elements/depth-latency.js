// <tb-depth-latency>: where the time goes, timed in the reader's own browser. (1) Depth is latency:
// the same block-parameter budget spent four ways (6 blocks of width 136 down to 48 of width 48, the
// lesson's GPT-2-sized configurations scaled down), one token through the stack at batch 1, median
// of repeated runs, as bars with their (equal) parameter counts from the analytic model. (2) One
// block's attention stage as a share of the block's measured time at growing T, beside its share
// of the FLOPs. Timing starts when the widget comes into view, a few runs per task so the page never
// waits; every number (medians, counts, shares) is the library's. The lesson's own timings beside.

import { TbElement, h, errorText } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { blockBarsLayout } from '../charts/bars-layout.js';
import { renderBlockBars } from '../charts/block-bars-svg.js';
import { FRAME_CSS } from '../charts/frame.js';
import { formatDecimal, formatInteger, formatPercent, formatSI } from '../format.js';
import { reportedFigure, REPORTED_CSS } from './experiment-parts.js';
import { speakEnglish } from '../i18n.js';
import depthLatencyTexts from '../locales/en/depth-latency.js';

speakEnglish(depthLatencyTexts);

const CSS = `${FRAME_CSS}
.bars .axis line { stroke: var(--_muted); }
.bars .grid line { stroke: var(--_rule); }
.bars .bar { fill: var(--_attention); }
.bars .axis-title { fill: var(--_muted); }
.shares { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0.5rem; margin: 0.5rem 0; padding: 0; list-style: none; }
.shares li { padding: 0.4rem 0.6rem; border: 1px solid var(--_rule); border-radius: calc(var(--_radius) / 2); font-variant-numeric: tabular-nums; }
.shares strong { display: block; }
.status { font-variant-numeric: tabular-nums; }
${REPORTED_CSS}`;

/** Runs per task and in all, for each way of spending the budget and each T. */
const REPS_PER_TASK = 3;
const DEPTH_RUNS = 15;
const STAGE_REPS = 9;

/**
 * @summary Where the time goes, timed in the reader's browser: one token through four stacks of the
 *   same block parameters, and one block's attention stage as a share of its time at growing T.
 */
export class TbDepthLatency extends TbElement {
  static needs = 'full'; // TinyGPT run: the whole facade (base.js)
  static styles = [sheet(CSS)];

  #lib;
  #parts;
  #timers = [];
  #stages = [];
  #job = 0;
  #visible;

  release() {
    this.#job++;
    this.#visible?.disconnect();
    this.#free();
  }

  #free() {
    for (const t of [...this.#timers, ...this.#stages]) t.free();
    this.#timers = [];
    this.#stages = [];
  }

  render(lib) {
    this.#lib = lib;
    const { t } = this;
    const again = h('button', { type: 'button' }, t('latency.again'));
    // What this browser timed (and the line that says when): the session's, not the page's, so a
    // prerender leaves them empty, wherever the widget stood when the page was built.
    const status = h('p', { class: 'muted status', 'aria-live': 'polite', dataset: { browserState: '' } }, t('latency.waiting'));
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const chart = h('div', { class: 'chart', dataset: { browserState: '' } });
    const shares = h('ul', { class: 'shares', 'aria-label': t('latency.sharesLabel'), dataset: { browserState: '' } });
    const reported = lib.reported_latency();
    this.#parts = { again, status, error, chart, shares };
    again.addEventListener('click', () => this.#start());
    this.shadowRoot.replaceChildren(
      h('h3', {}, t('latency.title')),
      h('p', {}, t('latency.intro')),
      status,
      error,
      chart,
      h('h4', {}, t('latency.sharesTitle')),
      shares,
      h('div', { class: 'buttons' }, again),
      reportedFigure(reported.source, [...reported.depth, ...reported.attention], t),
    );
    this.#visible?.disconnect();
    this.#visible = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        this.#visible.disconnect();
        this.#start();
      }
    });
    this.#visible.observe(this);
  }

  #fail(err) {
    this.#parts.error.textContent = errorText(err, this.t);
    this.#parts.error.hidden = false;
  }

  /** Time every way and every T, a few runs a task, the ways interleaved so drift hits all alike. */
  #start() {
    const job = ++this.#job;
    const { status, error, shares } = this.#parts;
    error.hidden = true;
    this.#free();
    let plan;
    try {
      plan = this.#lib.latency_plan();
      this.#timers = plan.depths.map((_, i) => new this.#lib.DepthLatency(i));
    } catch (err) {
      return this.#fail(err);
    }
    shares.replaceChildren();
    let stages;
    try {
      stages = plan.seq_lens.map((len) => new this.#lib.AttentionTiming(len));
    } catch (err) {
      return this.#fail(err);
    }
    this.#stages = stages;
    const tasks = [];
    for (let r = 0; r < DEPTH_RUNS / REPS_PER_TASK; r++) for (let i = 0; i < this.#timers.length; i++) tasks.push(['depth', i]);
    // One timing of one length a task: at T = 256 that is a few milliseconds.
    for (let r = 0; r < STAGE_REPS; r++) for (let i = 0; i < stages.length; i++) tasks.push(['stage', i]);
    const total = tasks.length;
    const next = () => {
      if (job !== this.#job) return;
      const [kind, arg] = tasks.shift();
      try {
        if (kind === 'depth') {
          this.#timers[arg].run(REPS_PER_TASK);
          this.#drawDepth();
        } else {
          stages[arg].run(1);
          this.#drawShares(stages.map((stage) => stage.result()).filter((r) => r.runs > 0));
        }
      } catch (err) {
        return this.#fail(err);
      }
      const { t, locale } = this;
      if (tasks.length) {
        status.textContent = t('latency.timing', { done: formatInteger(total - tasks.length, locale), total: formatInteger(total, locale) });
        setTimeout(next, 0);
      } else {
        status.textContent = t('latency.timed', {
          runs: formatInteger(DEPTH_RUNS, locale),
          tokens: formatInteger(20, locale),
          reps: formatInteger(STAGE_REPS, locale),
        });
      }
    };
    setTimeout(next, 0);
  }

  #drawDepth() {
    const box = this.#parts.chart;
    const { t, locale } = this;
    const results = this.#timers.map((timer) => timer.result());
    const layout = blockBarsLayout({
      values: results.map((r) => (r.runs ? r.median_ms : null)),
      labels: results.map((r) => {
        const stack = t('latency.axisStack', { layers: formatInteger(r.layers, locale), width: formatInteger(r.width, locale) });
        return [stack, stack.replace(/\s+/gu, '')];
      }),
      sublabels: results.map((r) => [formatInteger(r.block_params, locale), formatSI(r.block_params, undefined, locale)]),
      yText: (v) => formatDecimal(v, 3, locale),
      nice: true,
      height: 236,
      top: 26,
    });
    const label = t('latency.chartLabel', {
      stacks: results
        .map((r) =>
          t('latency.chartStack', {
            count: r.layers,
            layers: formatInteger(r.layers, locale),
            width: formatInteger(r.width, locale),
            params: formatInteger(r.block_params, locale),
            time: r.runs ? t('latency.ms', { ms: formatDecimal(r.median_ms, 3, locale) }) : t('latency.notTimed'),
          }),
        )
        .join(t('latency.chartSeparator')),
    });
    box.replaceChildren(...renderBlockBars(layout, { className: 'bars', ariaLabel: label, unit: t('latency.axisMs') }));
  }

  #drawShares(results) {
    const { t, locale } = this;
    const n3 = (x) => formatDecimal(x, 3, locale);
    this.#parts.shares.replaceChildren(
      ...results.map((r) =>
        h(
          'li',
          {},
          h('strong', {}, t('latency.shareTitle', { seqLen: formatInteger(r.seq_len, locale) })),
          t('latency.shareStage', { attention: n3(r.attention_ms), block: n3(r.block_ms) }),
          h('br'),
          // null: the browser's clock saw no time pass for the block (the crate gives no share).
          r.measured_share === null ? t('latency.shareTooFast') : t('latency.shareTime', { share: formatPercent(r.measured_share, locale) }),
          h('br'),
          t('latency.shareFlops', { share: formatPercent(r.flops_share, locale) }),
        ),
      ),
    );
  }
}

if (defines('tb-depth-latency', TbDepthLatency)) customElements.define('tb-depth-latency', TbDepthLatency);
