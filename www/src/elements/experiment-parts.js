// What the experiment widgets share (<tb-ablation>, <tb-stream>, <tb-depth-latency>,
// <tb-norm-race>): measuring in the page's worker, and GPT-2 small's reported figures beside what
// was measured. The model they show (the switcher, weights-src, a real checkpoint) is model-shown.js.

import { errorText, h } from './base.js';
import { clipText } from '../attributes.js';
import { formatInteger } from '../format.js';
import { modelSpec } from '../train/models.js';
import { acquireMeasurer } from '../measure/runner.js';
import { pageResults } from '../models/page-results.js';
import { speakEnglish, translator } from '../i18n.js';
import experimentsTexts from '../locales/en/experiments.js';

speakEnglish(experimentsTexts);

/**
 * An experiment widget's measurements (held by the element: this.hold(new Measuring(this))): the
 * page's measurer while the widget is on the page, the choice of model being measured, and the
 * element's `busy` while it is. `measure(source, page, { error, where }, work)` runs
 * `await work(run, current)` for the model `source` names: `run(what, options)` measures in the
 * page's worker (measure/runner.js) and resolves with { found, info }; `current()` turns false once
 * a newer choice replaces this one. A problem is shown in `error` (unless superseded); `where` says
 * where the measuring happens.
 */
export class Measuring {
  #element;
  #measurer = null;
  #current = null;
  #job = 0;

  constructor(element) {
    this.#element = element;
  }

  async measure(source, page, { error, where }, work) {
    const job = ++this.#job;
    const current = () => job === this.#job;
    this.#current?.cancel();
    const el = this.#element;
    el.busy = true;
    try {
      const spec = modelSpec(source, 0, page);
      error.hidden = true;
      this.#measurer ??= acquireMeasurer();
      const measurer = this.#measurer;
      const t = el.t ?? translator('en');
      measurer.place.then(({ kind, reason }) => (where.textContent = kind === 'worker' ? t('experiments.whereWorker') : t('experiments.whereMainThread', { reason })));
      const run = (what, options) => {
        this.#current = measurer.measure(spec, what, options);
        return this.#current.done;
      };
      await work(run, current);
    } catch (err) {
      if (!current()) return;
      error.textContent = errorText(err, el.t);
      error.hidden = false;
    } finally {
      if (current()) el.busy = false;
    }
  }

  /** Stop measuring (what is under way is dropped when it answers). */
  stop() {
    this.#job++;
    this.#current?.cancel();
    this.#element.busy = false;
  }

  /** The widget left the page: stop, and let go of the measurer. */
  release() {
    this.stop();
    this.#measurer?.release();
    this.#measurer = null;
  }
}

/** GPT-2 small's reported figures (`items` of reported_gpt2_small(), quoted as the library gives them), labelled as quoted in the language of `t`. */
export function reportedFigure(source, items, t = translator('en')) {
  return h(
    'figure',
    { class: 'reported' },
    h('figcaption', {}, t('experiments.reportedCaption', { source })),
    h('ul', {}, items.map((r) => h('li', {}, t('experiments.reportedItem', { what: r.what, value: r.value })))),
  );
}

/**
 * What a widget shows for comparison: an author's figures measured with tblock (results-src), read
 * and checked by the library (`read(text)`: check_results, then parsed), or
 * else the lesson's quoted GPT-2 figures (`quoted`: { source, items }). `rows(results)` gives the
 * measured figures as table rows [label, ...cells] under `columns`; `what` names the table. A results file that cannot be
 * fetched or read leaves the quoted figures, with a message saying why; while it is fetched, a line
 * says so. Returns one element, whose content is replaced when the file arrives (the rest of the
 * widget, and what it is measuring, is left alone).
 */
export function comparisonFigure(element, { read, limit, quoted, what, columns, rows }) {
  const holder = h('div', { class: 'comparison' });
  const t = element.t ?? translator('en');
  const quotedFigure = () => reportedFigure(quoted.source, quoted.items, t);
  const src = element.attr('results-src', null);
  const show = (load) => {
    if (load.state === 'loading') {
      return holder.replaceChildren(h('p', { class: 'muted', role: 'status' }, t('experiments.loadingResults', { src: clipText(src, 60) })));
    }
    let problem = load.state === 'error' ? load.message : null;
    if (!problem) {
      try {
        return holder.replaceChildren(measuredFigure(read(load.text), what, columns, rows, t));
      } catch (err) {
        problem = t('experiments.resultsProblem', { src: clipText(src), error: errorText(err, t) });
      }
    }
    holder.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('experiments.showingQuoted', { problem })), quotedFigure());
  };
  if (src === null) holder.replaceChildren(quotedFigure());
  else {
    const load = pageResults(src, limit, () => holder.isConnected && show(load), t);
    show(load);
  }
  return holder;
}

/** Figures measured by tblock: what on (model, size, storage, text, tokens), then a table. */
export function measuredFigure(results, what, columns, rows, t) {
  const { locale } = t;
  const m = results.measured;
  const caption = t('experiments.measuredCaption', {
    by: m.by,
    model: clipText(m.model, 60),
    family: m.family,
    parameters: formatInteger(m.parameters, locale),
    dtype: m.dtype,
    tokens: formatInteger(m.tokens, locale),
    text: clipText(m.text, 60),
    count: m.windows,
    windows: formatInteger(m.windows, locale),
    context: formatInteger(m.context, locale),
  });
  return h(
    'figure',
    { class: 'reported measured' },
    h('figcaption', {}, caption),
    h(
      'div',
      { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('experiments.measuredRegion', { what }) },
      h('table', {}, h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, rows(results).map(([label, ...cells]) => h('tr', {}, h('th', { scope: 'row' }, label), cells.map((c) => h('td', {}, c)))))),
    ),
  );
}

export const REPORTED_CSS = `
.reported { margin: 0.75rem 0 0; padding: 0.5rem 0.75rem; border-left: 3px solid var(--_rule); }
.reported figcaption { font-size: 0.9rem; color: var(--_muted); }
.reported ul { margin: 0.25rem 0 0; padding-left: 1.2rem; }
.measured .table-scroll { overflow-x: auto; max-width: 100%; }
.measured table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.9rem; margin-top: 0.25rem; }
.measured th, .measured td { padding: 0.15rem 0.6rem 0.15rem 0; text-align: right; white-space: nowrap; }
.measured th[scope="row"], .measured th[scope="col"]:first-child { text-align: left; }
`;
