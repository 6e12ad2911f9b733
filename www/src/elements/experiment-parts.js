// What the widgets that run a character model share (<tb-ablation>, <tb-stream>, and for the model
// switcher <tb-tiny-gpt>): the model attribute, the author's weights-src, the model switcher that
// learns of a model trained on the page and of the reader's checkpoint, and GPT-2 small's reported
// figures.

import { errorText, h } from './base.js';
import { clipText } from '../attributes.js';
import { formatDecimal, formatInteger } from '../format.js';
import { MODEL_LABELS } from '../train/models.js';
import { latestTrained, onTrained } from '../train/trained.js';
import { LOAD_CHECKPOINT, checkpointPicker } from '../controls/checkpoint-picker.js';
import { loadingView, pageCheckpoint } from '../models/page-checkpoint.js';
import { modelSpec } from '../train/models.js';
import { acquireMeasurer } from '../measure/runner.js';
import { pageResults } from '../models/page-results.js';
import { translator } from '../i18n.js';
import { latestCheckpoint } from '../models/your-checkpoint.js';

/** The `model` attribute: six-blocks (default) or shipped; anything else is noted and replaced. */
export function shippedModelAttr(element) {
  const source = element.attr('model', 'six-blocks');
  if (source === 'six-blocks' || source === 'shipped') return source;
  element.warn((element.t ?? translator('en'))('experiments.badModel', { model: clipText(source) }));
  return 'six-blocks';
}

/**
 * The model a widget starts with: the author's own (weights-src) once it has loaded, else
 * `fallback()` (for the experiments, the `model` attribute's). Returns { source, page } (page: the
 * author's files, or null), or { loading }: the elements to show while weights-src loads (the
 * element re-renders when it is done). A Hugging Face checkpoint folder gives { checkpoint: { name,
 * href } }, which the widget shows in its real view (realView).
 */
export function startingModel(element, lib, fallback = () => shippedModelAttr(element)) {
  const src = element.attr('weights-src', null);
  if (src !== null) {
    const t = element.t ?? translator('en');
    const load = pageCheckpoint(src, lib.CharModel.checkpoint_limit(), () => element.update(), t, lib.config_kind);
    if (load.state === 'loading') return { loading: loadingView(load, src, t) };
    if (load.state === 'ready' && load.files.kind !== 'checkpoint') return { source: 'page', page: load.files };
    if (load.state === 'ready') return { checkpoint: load.files };
    element.warn(load.message);
  }
  return { source: fallback(), page: null };
}

/** The reader's Hugging Face checkpoint, when it is the model picked (`pick`: a ModelPick); else null. */
export function yourRealCheckpoint(pick) {
  const yours = pick.value === 'checkpoint' ? latestCheckpoint() : null;
  return yours?.kind === 'checkpoint' ? yours : null;
}

/**
 * A real checkpoint's view, when the widget shows one: the author's (start.checkpoint, from
 * startingModel; no switcher, as weights-src asks) or the reader's picked in `pick`, with the
 * switcher `switcher()` makes ({ control, off }, a pick re-rendering the widget) above it;
 * `release()` lets go of the last switcher when none is shown. `real`: the widget's view (checkpoint-attention.js, checkpoint-experiment.js); `fallback()`: the
 * model it runs when the author's cannot be opened. Returns { nodes } to show, or { start } for
 * the widget's TinyGPT view (after a failure, which `real` has said, what it runs instead).
 */
export function realView(start, pick, real, { switcher, release, fallback }) {
  const yours = start.checkpoint ? null : yourRealCheckpoint(pick);
  if (!start.checkpoint && !yours) return { start };
  if (!yours) release();
  const nodes = real.render(start.checkpoint ?? yours, yours ? switcher().control : null);
  if (nodes) return { nodes };
  if (!yours) return { start: { source: fallback(), page: null } };
  pick.value = null; // back to the author's model
  return { start };
}

/**
 * Whether the model a widget would show is still loading: weights-src, or the real checkpoint its
 * real view shows (the author's, or the reader's picked in `pick`). Its prerendered figures stay
 * meanwhile (base.js: keepsPrerendered); the widget updates when it is loaded.
 */
export function realLoading(element, lib, pick, real, fallback) {
  const start = startingModel(element, lib, fallback);
  if (start.loading) return true;
  const files = start.checkpoint ?? yourRealCheckpoint(pick);
  return files ? real.loading(files) : false;
}

/**
 * How <tb-ablation> and <tb-stream> show a model: the reader's pick, the switcher (the last one's
 * subscription ended when another is made or the widget leaves), and a real checkpoint's view
 * (`real`: checkpoint-experiment.js's).
 *
 *   #models = this.hold(new ExperimentModels(this, real))
 *   const shown = this.#models.real(lib, start)   // { nodes } to show, or { start } (see realView)
 *   const { control, select } = this.#models.switcher(lib, start, onPicked)
 *     // a TinyGPT pick runs onPicked(value); the reader's real checkpoint re-renders the widget
 */
export class ExperimentModels {
  pick = new ModelPick();
  #element;
  #real;
  #off = null;

  constructor(element, real) {
    this.#element = element;
    this.#real = real;
  }

  attributeChanged(name) {
    this.pick.attributeChanged(name);
  }

  switcher(lib, start, onPicked) {
    const el = this.#element;
    this.#drop();
    const picked = (value) => (yourRealCheckpoint(this.pick) ? el.update() : onPicked(value));
    const switcher = modelSwitcher(el.uid, lib, start, this.pick, picked, { t: el.t });
    this.#off = switcher.off;
    return switcher;
  }

  /** Whether its model is still loading (realLoading). */
  loading(lib) {
    return realLoading(this.#element, lib, this.pick, this.#real);
  }

  real(lib, start) {
    const el = this.#element;
    const shown = realView(start, this.pick, this.#real, {
      switcher: () => this.switcher(lib, start, () => el.update()),
      release: () => this.#drop(),
      fallback: () => shippedModelAttr(el),
    });
    if (!shown.nodes) this.#real.leave(); // TinyGPT is shown
    return shown;
  }

  release() {
    this.#real.leave();
    this.#drop();
  }

  #drop() {
    this.#off?.();
    this.#off = null;
  }
}

/**
 * The reader's choice of model in a widget that runs one, kept across its re-renders until the
 * author changes one of `attributes` (held by the element: this.hold(new ModelPick())).
 */
export class ModelPick {
  value = null;
  #attributes;

  constructor(attributes = ['model', 'weights-src']) {
    this.#attributes = attributes;
  }

  attributeChanged(name) {
    if (this.#attributes.includes(name)) this.value = null;
  }
}

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

/** The experiments' models, in their switcher's order: [value, label]. */
const EXPERIMENT_MODELS = ['six-blocks', 'shipped', 'trained'].map((k) => [k, MODEL_LABELS[k]]);

/** The catalog keys of the experiments' models' labels (a switcher given `t` shows these). */
const MODEL_KEYS = {
  'six-blocks': 'experiments.modelSixBlocks',
  shipped: 'experiments.modelShipped',
  trained: 'experiments.modelTrained',
};

/**
 * A labelled model switcher: `models` ([value, label]; by default the two shipped models and "the
 * model I trained", which is enabled once a run on the page has finished), and the reader's
 * checkpoint. `onPicked(source)` runs when the reader picks one, and again when a new model is
 * trained (or a checkpoint loaded) while it is picked. `start`: what startingModel gave
 * ({ source, page }: the author's files, offered first); `pick`: the element's ModelPick, which the
 * switcher shows and keeps up to date; `beside`: more controls for the same row; `t`: the widget's
 * translator, for its label and the experiments' models' names (without it, English and `models`'
 * labels as given). Returns { control, select, off }.
 */
export function modelSwitcher(uid, lib, { source: authors, page = null }, pick, onPicked, { models = EXPERIMENT_MODELS, beside = [], t = null } = {}) {
  const label = (k, text) => (t && MODEL_KEYS[k] ? t(MODEL_KEYS[k]) : text);
  const source = pick.value ?? authors;
  const onPick = (picked) => {
    pick.value = picked;
    onPicked(picked);
  };
  const id = `${uid}-model`;
  const select = h(
    'select',
    { id },
    page
      ? h('option', { value: 'page' }, t ? t('experiments.modelPage', { name: clipText(page.name, 40) }) : `${MODEL_LABELS.page} (${clipText(page.name, 40)})`)
      : null,
    models.map(([k, text]) => h('option', { value: k, disabled: k === 'trained' && !latestTrained() }, label(k, text))),
  );
  select.value = source;
  const picker = checkpointPicker({ uid, t: t ?? translator('en'), lib, select, onPick });
  picker.show(source); // 'checkpoint' is one of the picker's options
  if (select.selectedIndex < 0 || select.selectedOptions[0]?.disabled) select.value = select.options[0].value;
  select.addEventListener('change', () => select.value !== LOAD_CHECKPOINT && onPick(select.value));
  const offTrained = onTrained(() => {
    select.querySelector('option[value="trained"]').disabled = false;
    if (select.value === 'trained') onPick('trained');
  });
  const off = () => {
    offTrained();
    picker.off();
  };
  return { control: h('div', {}, h('div', { class: 'controls' }, h('label', { htmlFor: id }, t ? t('experiments.model') : 'Model'), select, beside), picker.panel), select, off };
}

/** What the model is, in a sentence, from its info(): `trained` the page's latest run, `files` the
 * checkpoint's, `picked` the switcher's value. */
export function modelNote(info, trained, files, picked, t = translator('en')) {
  const n = (x) => formatInteger(x, t.locale);
  const loss = (x) => formatDecimal(x, 3, t.locale);
  const size = t('experiments.noteSize', { params: n(info.n_params), blocks: n(info.layers), count: info.layers, width: n(info.width) });
  if (info.training) {
    const run = info.training;
    return t('experiments.noteShipped', { size, steps: n(run.steps), count: run.steps, loss: loss(run.val_loss_as_shipped), bigram: loss(run.bigram_loss) });
  }
  if (info.source === 'trained') {
    return t('experiments.noteTrained', { size, norm: info.norm, steps: n(trained.steps), count: trained.steps, loss: loss(trained.heldOut.loss) });
  }
  if (info.source === 'checkpoint') {
    const from = t(picked === 'page' ? 'experiments.notePageFiles' : 'experiments.noteYourCheckpoint');
    return t('experiments.noteCheckpoint', { size, norm: info.norm, from, name: clipText(files?.name ?? '', 40) });
  }
  return t('experiments.noteUntrained', { size });
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
