// Which model an analytic widget shows (<tb-anatomy>, <tb-param-table>, <tb-cost-chart>,
// <tb-memory>): the one the reader picked in its switcher, else the author's config-src, else the
// author's `model` attribute (a preset name or a config.json's text), else the default.
//
// config-src is the id of a <script type="application/json"> in the page ("#my-config"), or a URL
// of a .json file on the page's own site, fetched once for the page (whichever widgets name it)
// with its progress shown. Either is checked by the library like a dropped file; one
// that cannot be had is named and the widget goes on with `model`; one the library refuses is named
// and the widget shows its default. Everything is said in the widget's language (its `t`).
//
//   #choice = this.hold(new ModelChoice(this, 'gpt2-small'));   // hears of attributes, released with it
//   render(lib) {
//     const model = this.#choice.model();
//     if (model === null) return this.#choice.showLoading();
//     …                                               // shown: the model it could show
//     this.#choice.switcher(lib, shown)                // the switcher; a pick re-renders the widget
//   }

import { h } from '../elements/base.js';
import { clipText } from '../attributes.js';
import { formatBytes } from '../format.js';
import { CONFIG_LIMIT } from './your-model.js';
import { fetchSameSite, siteUrl } from './read-stream.js';
import { problemText, wordedError } from './worded.js';
import { modelLabel, modelSwitcher, modelSwitcherSheet } from '../controls/model-switcher.js';
import { speakEnglish } from '../i18n.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(panelsTexts);

export { modelSwitcherSheet };

/**
 * The library's count(model, T, B), with a config.json that names no model (no `_name_or_path`)
 * called as its switcher calls it: "llama (8.03B)" rather than "llama".
 */
export function countModel(lib, model, seqLen, batch) {
  const report = lib.count(model, seqLen, batch);
  report.config.label = modelLabel(report);
  return report;
}

export class ModelChoice {
  #element;
  #fallback;
  #picked = null; // the reader's pick, until an author changes an attribute
  #fetched = null; // { src, text } or { src, error } once a config-src URL has been read
  #loading = null; // { src, progress } while it is read
  #off = null; // the switcher's subscription to the reader's saved model

  constructor(element, fallback) {
    this.#element = element;
    this.#fallback = fallback;
  }

  /** The reader picked `model` (a preset's name or a config's text); null: back to the author's. */
  pick(model) {
    this.#picked = model;
  }

  /** The author changed an attribute: a new model or config-src counts over the reader's pick. */
  attributeChanged(name) {
    if (name === 'model' || name === 'config-src') this.#picked = null;
  }

  /** The model to show, or null while config-src is being fetched (showLoading() then). */
  model() {
    return this.#picked ?? this.#author();
  }

  /**
   * What the author asked for (config-src, else model, else the default); null while fetching.
   * `note(message)`: where a problem with config-src goes (the widget's messages).
   */
  #author(note = (message) => this.#element.warn(message)) {
    const el = this.#element;
    const src = el.attr('config-src', null);
    if (src !== null) {
      const text = this.#source(src, note);
      if (text === null) return null;
      if (text !== undefined) return text;
    }
    return el.attr('model', this.#fallback);
  }

  /**
   * The model switcher for a widget showing `shown`. Picking a model re-renders the widget with it,
   * or runs `onPick(model)` instead (after noting the pick) for a widget that updates in place.
   */
  switcher(lib, shown, onPick = () => this.#element.update()) {
    this.#off?.();
    // The author's own config, offered beside the presets (read again quietly: render noted any problem).
    const page = this.#loading === null ? this.#author(() => {}) : null;
    const switcher = modelSwitcher({
      uid: this.#element.uid,
      t: this.#element.t,
      lib,
      model: shown,
      page,
      onPick: (model) => {
        this.pick(model);
        // Back to the author's model: a whole render, from the attributes.
        if (model === null) this.#element.update();
        else onPick(model);
      },
    });
    this.#off = switcher.off;
    return switcher.element;
  }

  /** The widget left the page: stop following the saved model. */
  release() {
    this.#off?.();
    this.#off = null;
  }

  /** The placeholder while config-src is fetched: what, from where, how far. */
  showLoading() {
    const { src, progress } = this.#loading;
    const { t } = this.#element;
    progress.setAttribute('aria-label', t('panels.loadingModel'));
    this.#element.shadowRoot.replaceChildren(
      h('p', { class: 'loading', role: 'status' }, t('panels.loadingConfig', { src: clipText(src, 60) })),
      progress,
    );
  }

  /** The config's text from config-src; undefined when it cannot be had (noted), null while fetched. */
  #source(src, note) {
    const el = this.#element;
    const { t } = el;
    if (src.startsWith('#')) {
      const script = el.ownerDocument.getElementById(src.slice(1));
      if (!script || script.localName !== 'script') {
        note(t('panels.configNoScript', { src: clipText(src) }));
        return undefined;
      }
      return script.textContent;
    }
    const url = siteUrl(src);
    if (!url || !/\.json$/i.test(url.pathname)) {
      note(t('panels.configNotJson', { src: clipText(src) }));
      return undefined;
    }
    if (this.#fetched?.src === url.href) {
      if (this.#fetched.error) note(t('panels.configUnreadable', { src: clipText(url.href), error: problemText(this.#fetched.error, t) }));
      return this.#fetched.text;
    }
    if (this.#loading?.src !== url.href) this.#fetch(url.href);
    return null;
  }

  async #fetch(src) {
    const progress = h('progress', { 'aria-label': this.#element.t('panels.loadingModel') });
    this.#loading = { src, progress };
    const result = await download(src, progress);
    if (this.#loading?.src !== src) return; // the attribute changed meanwhile
    this.#loading = null;
    this.#fetched = result;
    this.#element.update();
  }
}

// config-src downloads of the page, by URL: each is fetched once, whichever widgets name it.
// URL -> { result: Promise<{ src, text } | { src, error, text: undefined }>, bars: Set }; error: what
// went wrong (each widget words it)
const downloads = new Map();

/** The result of reading `src` (shared), its progress shown on `progress` while it lasts. */
function download(src, progress) {
  let d = downloads.get(src);
  if (!d) {
    d = { bars: new Set() };
    d.result = readJson(src, d.bars).then(
      (text) => ({ src, text }),
      (error) => ({ src, error, text: undefined }),
    );
    downloads.set(src, d);
  }
  d.bars.add(progress);
  return d.result;
}

/** The text at `src`, at most CONFIG_LIMIT bytes, reporting its progress on every bar of `bars`. */
async function readJson(src, bars) {
  const bytes = await fetchSameSite(src, {
    limit: CONFIG_LIMIT,
    tooLarge: (n, whole) =>
      wordedError((t) =>
        whole ? t('panels.configTooLarge', { size: formatBytes(n, t.locale) }) : t('panels.configOverLimit', { limit: formatBytes(CONFIG_LIMIT, t.locale) }),
      ),
    onRead: (read, total) => {
      for (const bar of bars) if (total) Object.assign(bar, { max: total, value: read });
    },
  });
  return new TextDecoder().decode(bytes);
}
