// The model a widget that runs one shows (<tb-attention>, <tb-tiny-gpt>, <tb-ablation>,
// <tb-stream>): the `model` attribute, the author's weights-src, the reader's pick, the model
// switcher that learns of a model trained on the page and of the reader's checkpoint, a real
// checkpoint's own view in its place, and the note that says what the model is.

import { h } from './base.js';
import { clipText } from '../attributes.js';
import { formatDecimal, formatInteger } from '../format.js';
import { MODEL_LABELS, makeModel } from '../train/models.js';
import { latestTrained, onTrained } from '../train/trained.js';
import { LOAD_CHECKPOINT, checkpointPicker } from '../controls/checkpoint-picker.js';
import { loadingView, pageCheckpoint } from '../models/page-checkpoint.js';
import { speakEnglish, translator } from '../i18n.js';
import { latestCheckpoint } from '../models/your-checkpoint.js';
import experimentsTexts from '../locales/en/experiments.js';
import { afterPaint, nextTask } from '../next-task.js';

speakEnglish(experimentsTexts);

/** The `model` attribute: six-blocks (default) or shipped; anything else is noted and replaced. */
function shippedModelAttr(element) {
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
function startingModel(element, lib, fallback = () => shippedModelAttr(element)) {
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
function yourRealCheckpoint(pick) {
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
function realView(start, pick, real, { switcher, release, fallback }) {
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
function realLoading(element, lib, pick, real, fallback) {
  const start = startingModel(element, lib, fallback);
  if (start.loading) return true;
  const files = start.checkpoint ?? yourRealCheckpoint(pick);
  return files ? real.loading(files) : false;
}

/**
 * How a widget that runs a model shows one (<tb-attention>, <tb-tiny-gpt>, <tb-ablation>,
 * <tb-stream>): the reader's pick, the switcher (the last one's subscription ended when another is
 * made or the widget leaves), the TinyGPT model it runs (made before the one it replaces is freed),
 * and a real checkpoint's view (`real`: checkpoint-attention.js's, checkpoint-sampling.js's or
 * checkpoint-experiment.js's).
 *
 *   #models = this.hold(new ModelShown(this, real, { fallback, attributes }))
 *     fallback(): the model shown without weights-src (default: the `model` attribute's,
 *                 shippedModelAttr); attributes: those whose change forgets the reader's pick
 *   keepsPrerendered(lib) { return this.#models.loading(lib) }   // || this.#models.preparing(lib),
 *                                                    // for a reader: its model made in a task before
 *   const shown = this.#models.shown(lib, options)   // { loading } or { nodes } to show, or
 *                                                    // { start } for the TinyGPT view (realView)
 *   const { control, select } = this.#models.switcher(lib, start, onPicked, { ...options, beside })
 *     // options: { models, t, source } for modelSwitcher (source: shown instead of start's);
 *     // a TinyGPT pick runs onPicked(value), the reader's real checkpoint re-renders the widget
 *   const { control } = this.#models.reader(lib, start, { seed, input, note, fail, run, made, ...options })
 *     // the same, for a widget that reads its model with a text: makes it, notes it, runs it
 *   this.#models.make(lib, select.value, seed, start.page)   // the TinyGPT model (throws: the last stays)
 *   this.#models.model, this.#models.note(select.value, start.page)   // it, and its note
 */
export class ModelShown {
  pick;
  /** The TinyGPT model shown (make), or null. */
  model = null;
  #element;
  #real;
  #fallback;
  #off = null;
  /** The model made ahead of the first render (preparing): { key: its source, model }, until make takes it. */
  #prepared = null;

  constructor(element, real, { fallback = () => shippedModelAttr(element), attributes } = {}) {
    this.#element = element;
    this.#real = real;
    this.#fallback = fallback;
    this.pick = new ModelPick(attributes);
  }

  attributeChanged(name) {
    this.pick.attributeChanged(name);
  }

  /** Whether its model is still loading (realLoading): the prerendered figures stay meanwhile. */
  loading(lib) {
    return realLoading(this.#element, lib, this.pick, this.#real, this.#fallback);
  }

  /**
   * Whether a prerendered widget that reads its model (reader) waits for it to be made: the first
   * time it is asked, the model the widget starts with (a shipped one) is made in a task of its own,
   * then the widget updates and its first render takes it (make). Making it and reading with it in
   * one task took 65 ms on a phone (4x: 21 ms the making); the prerendered figures stay meanwhile.
   */
  preparing(lib) {
    if (this.#prepared || this.model || !this.#element.prerendered) return false;
    const el = this.#element;
    this.#prepared = { key: null, model: null };
    nextTask().then(() => {
      if (el.released || !el.isConnected) return;
      const source = this.pick.value ?? startingModel(el, lib, this.#fallback).source;
      if (source === 'shipped' || source === 'six-blocks') {
        try {
          this.#prepared = { key: source, model: makeModel(lib, source) };
        } catch {
          // Made again by the render, which says why it cannot be.
        }
      }
      el.update();
    });
    return true;
  }

  /** What the widget shows (see above); `options` for the switcher above a real checkpoint's view. */
  shown(lib, options = {}) {
    const el = this.#element;
    const start = startingModel(el, lib, this.#fallback);
    if (start.loading) return start;
    const shown = realView(start, this.pick, this.#real, {
      switcher: () => this.switcher(lib, start, () => el.update(), options),
      release: () => this.#drop(),
      fallback: this.#fallback,
    });
    if (!shown.nodes) this.#real.leave(); // TinyGPT is shown
    return shown;
  }

  switcher(lib, start, onPicked, { source = start.source, ...options } = {}) {
    const el = this.#element;
    this.#drop();
    const picked = (value) => (yourRealCheckpoint(this.pick) ? el.update() : onPicked(value));
    const switcher = modelSwitcher(el.uid, lib, { source, page: start.page }, this.pick, picked, { t: el.t, ...options });
    this.#off = switcher.off;
    return switcher;
  }

  /**
   * The switcher of a widget that reads its model with the reader's text (<tb-attention>,
   * <tb-tiny-gpt>), wired: a pick makes the model (made before the last is freed: one that cannot
   * be made is said by `fail(err)` and the last runs on), writes its note into `note`, passes it to
   * `made(model)` and runs `run(select)`; typing into `input` runs `run(select)`, and so does this
   * call, once the first model is made. `options` as switcher()'s. Returns { control, select }.
   */
  reader(lib, start, { seed, input, note, fail, run, made = () => {}, ...options }) {
    const el = this.#element;
    const load = () => {
      let next;
      try {
        next = this.make(lib, switcher.select.value, seed, start.page);
      } catch (err) {
        fail(err);
        return false;
      }
      note.textContent = this.note(switcher.select.value, start.page);
      made(next);
      return true;
    };
    // A pick is shown (the select's new value painted) before the model is made and read: making
    // the six-block model and drawing its 24 maps is a long task, which the pick's paint need not
    // wait for. Busy meanwhile, so a script or a test waits for what it will show.
    const picked = () => {
      el.busy = true;
      afterPaint().then(() => {
        el.busy = false;
        if (!el.released && el.isConnected && load()) run(switcher.select);
      });
    };
    const switcher = this.switcher(lib, start, picked, options);
    input.addEventListener('input', () => run(switcher.select));
    if (load()) run(switcher.select);
    return switcher;
  }

  /** Make the TinyGPT model `picked` names (makeModel); the one it replaces is freed only once it is made. */
  make(lib, picked, seed, page) {
    const next = this.#takePrepared(picked) ?? makeModel(lib, picked, seed, page);
    this.model?.free();
    this.model = next;
    return next;
  }

  /** The model preparing made, if it is `picked`'s (one made for another pick is freed); null otherwise. */
  #takePrepared(picked) {
    const { key, model } = this.#prepared ?? {};
    if (!model) return null;
    this.#prepared.model = null;
    if (key === picked) return model;
    model.free();
    return null;
  }

  /** The shown model's note (modelNote): `picked` the switcher's value, `page` the author's files. */
  note(picked, page) {
    const files = picked === 'page' ? page : picked === 'checkpoint' ? latestCheckpoint() : null;
    return modelNote(this.model.info(), latestTrained(), files, picked, this.#element.t);
  }

  release() {
    this.#real.leave();
    this.#drop();
    this.#prepared?.model?.free();
    this.#prepared = null;
    this.model?.free();
    this.model = null;
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
class ModelPick {
  value = null;
  #attributes;

  constructor(attributes = ['model', 'weights-src']) {
    this.#attributes = attributes;
  }

  attributeChanged(name) {
    if (this.#attributes.includes(name)) this.value = null;
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
function modelSwitcher(uid, lib, { source: authors, page = null }, pick, onPicked, { models = EXPERIMENT_MODELS, beside = [], t = null } = {}) {
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
function modelNote(info, trained, files, picked, t = translator('en')) {
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
