// <tb-tiny-gpt text="the residual">: TinyGPT reads characters. The reader types text; the
// model (running in the wasm) reads its last 16 characters, and the widget shows the residual stream
// after the last block and the logits as heatmaps, and at each position the likeliest next
// characters with their probabilities. "Write on" continues the text with the model.
//
// The model: the trained TinyGPT the page ships (default); with a `seed` attribute, the lessons'
// TinyGPT as initialised from that seed, before any training; or, once a reader has trained one
// with <tb-train> on the same page, "the model I trained".
//
// Below, the sampler (sampling-view.js): temperature, top-k and top-p, the next character's
// distribution before and after them, and "Write on" with them.
//
// Attributes: text (default "the residual"), seed (a whole number: start from the untrained
// model of that seed), temperature (default 0.8), top-k (default: every character), top-p (default 1):
// the sampler's starting settings, which the library checks.

import { TbElement, h, resultRegion, errorText } from './base.js';
import { defines } from './define.js';
import { heatmapFigure, heatmapLegend, heatmapSheet, shape, showChar } from './heatmap-figure.js';
import { formatDecimal, formatInteger, formatPercent } from '../format.js';
import { checkpointSheet } from '../controls/checkpoint-picker.js';
import { ModelShown } from './model-shown.js';
import { CHECKPOINT_SAMPLING_CSS, checkpointSampling } from './checkpoint-sampling.js';
import { SAMPLING_CSS, charSource, samplingView } from './sampling-view.js';
import { sheet } from './theme.js';
import { clipText, parseWhole } from '../attributes.js';
import { speakEnglish, translator } from '../i18n.js';
import experimentsTexts from '../locales/en/experiments.js';
import tinyGptTexts from '../locales/en/tiny-gpt.js';

speakEnglish(experimentsTexts, tinyGptTexts);

const samplingSheet = sheet(SAMPLING_CSS + CHECKPOINT_SAMPLING_CSS);

const DEFAULT_TEXT = 'the residual';

/**
 * @summary TinyGPT reading characters: the residual stream and the logits as heatmaps, the likeliest
 *   next characters, and the sampler (temperature, top-k, top-p) with "Write on".
 *
 * @attr {string} [text="the residual"] - The text read (its last 16 characters). A Hugging Face
 *   checkpoint's default is "The residual stream carries every token through each block".
 * @attr {number} seed - Start from the lessons' TinyGPT as this seed initialises it, before any
 *   training (a whole number); absent: the trained model the page ships.
 * @attr {string} weights-src - The URL, on the page's own site, of a model folder `tblock train`
 *   wrote (or its model.safetensors), shown first once loaded; or of a Hugging Face checkpoint
 *   folder (GPT-2, Llama, Mistral, Qwen2), sampled at its own tokens.
 * @attr {number} [temperature=0.8] - The sampler's starting temperature.
 * @attr {number} top-k - The sampler keeps the k likeliest characters; absent: every character.
 * @attr {number} [top-p=1] - The sampler keeps the fewest likeliest characters whose probabilities reach p.
 */
class TbTinyGpt extends TbElement {
  static observedAttributes = ['text', 'seed', 'weights-src', 'temperature', 'top-k', 'top-p'];
  static needs = 'model'; // TinyGPT read: the model facade, or the whole one where it is coming (base.js)
  static styles = [heatmapSheet, checkpointSheet, samplingSheet];

  #real = checkpointSampling(this);
  // The real checkpoint's view: the sampler at its vocabulary, with the attributes' settings.
  #models = this.hold(
    new ModelShown(this, { render: (files, switcher) => this.#real.render(files, switcher, this.#samplerAttrs()), loading: (files) => this.#real.loading(files), leave: () => this.#real.leave() }, {
      fallback: () => 'shipped',
      attributes: ['seed', 'weights-src'],
    }),
  );

  /** The sampler's starting settings from the attributes: a value that is not a number is named. */
  #samplerAttrs() {
    const { t, locale } = this;
    const number = (name, fallback) => {
      const text = this.attr(name, null);
      if (text === null) return fallback;
      if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) {
        const using = fallback === null ? t('tinyGpt.everyCharacter') : formatDecimal(fallback, 3, locale);
        this.warn(t('tinyGpt.badNumber', { name, text: clipText(text), using }));
        return fallback;
      }
      return Number(text);
    };
    return { temperature: number('temperature', 0.8), topK: number('top-k', null), topP: number('top-p', null) };
  }

  /** The switcher's models, and the one it shows first: with a seed, its untrained model. */
  #switcherModels(seed, start) {
    const { t } = this;
    return {
      source: seed !== null ? 'untrained' : start?.source,
      models: [
        ['shipped', t('tinyGpt.modelShipped')],
        // The seed is a name, written as typed (no digit grouping).
        ['untrained', t('tinyGpt.modelUntrained', { seed: String(seed ?? 0) })],
        ['trained', t('experiments.modelTrained')],
      ],
      t: switcherText(t),
    };
  }

  keepsPrerendered(lib) {
    return this.#models.loading(lib) || this.#models.preparing(lib);
  }

  render(lib) {
    const { t } = this;
    const seedText = this.attr('seed', null);
    let seed = null;
    if (seedText !== null) {
      const parsed = parseWhole('seed', seedText, 0);
      if (parsed.error) this.warn(t('tinyGpt.badSeed', { text: clipText(seedText) }));
      else if (this.attempt(() => lib.CharModel.untrained(parsed.value).free(), () => null) !== null) seed = parsed.value;
    }
    const text = this.attr('text', DEFAULT_TEXT);
    // The author's own model (weights-src), fetched once for the page, shown first when it loads; a
    // real checkpoint (the author's, or the reader's picked) in its own view.
    const shown = this.#models.shown(lib, this.#switcherModels(seed, null));
    if (shown.loading || shown.nodes) return this.shadowRoot.replaceChildren(...(shown.loading ?? shown.nodes));
    const { start } = shown;

    const textId = `${this.uid}-text`;
    const input = h('input', { id: textId, type: 'text', value: text, spellcheck: false, autocomplete: 'off' });
    const note = h('p', { class: 'muted model-note' });
    const region = resultRegion();
    const sampling = samplingView({ uid: this.uid, settings: this.#samplerAttrs(), source: () => this.#models.model && charSource(this.#models.model), text: () => input.value, t });

    const run = () => {
      const model = this.#models.model;
      if (!model) return;
      // A text the model cannot read is said once, by the reading; the sampler waits for a good one.
      if (region.show(() => model.read(input.value, 3), (r) => readingResult(r, t))) sampling.refresh();
      else sampling.hide();
    };
    const { control } = this.#models.reader(lib, start, {
      seed: seed ?? 0,
      input,
      note,
      fail: (err) => region.fail(errorText(err, t)),
      run,
      ...this.#switcherModels(seed, start),
      beside: [h('label', { htmlFor: textId }, t('tinyGpt.text')), input],
    });
    this.shadowRoot.replaceChildren(
      h('h3', {}, t('tinyGpt.title')),
      control,
      note,
      region.error,
      region.output,
      sampling.element,
    );
  }
}

/**
 * The model switcher's translator: the experiments' texts, but this widget's own name for the shipped
 * model (its switcher has no six-block one to tell it from).
 */
function switcherText(t) {
  const own = { 'experiments.modelShipped': 'tinyGpt.modelShipped' };
  return Object.assign((key, values) => t(own[key] ?? key, values), t);
}

function readingResult(r, t = translator('en')) {
  const { locale } = t;
  const T = r.stream_shape[0];
  const labels = r.symbols.map(showChar);
  const best = r.next.map((p) => p.next[0]?.[0]);
  const [stream, logits] = [t('tinyGpt.stream'), t('tinyGpt.logits')];
  return [
    h(
      'p',
      { class: 'result' },
      ...t.parts('tinyGpt.reading', {
        text: r.symbols.join('').replace(/\n/g, '\u21b5'),
        ids: r.ids.join(', '),
        stream: h('span', { class: 'shape' }, `${stream} ${shape(r.stream_shape, locale)}`),
        logits: h('span', { class: 'shape' }, `${logits} ${shape(r.logits_shape, locale)}`),
      }),
      r.dropped ? t('tinyGpt.dropped', { count: r.dropped, dropped: formatInteger(r.dropped, locale), positions: formatInteger(T, locale) }) : '',
    ),
    heatmapFigure({ name: stream, dims: r.stream_shape, values: r.stream, rowLabels: labels, note: t('tinyGpt.streamNote'), t }),
    heatmapFigure({
      name: logits,
      dims: r.logits_shape,
      values: r.logits,
      rowLabels: labels,
      mark: r.best,
      note: t('tinyGpt.logitsNote'),
      t,
    }),
    heatmapLegend(t),
    h('h4', {}, t('tinyGpt.nextTitle')),
    h(
      'ol',
      { class: 'next-chars' },
      r.next.map((p, i) =>
        h(
          'li',
          {},
          ...t.parts('tinyGpt.after', {
            char: h('span', { class: 'char' }, showChar(p.symbol)),
            position: formatInteger(i + 1, locale),
            total: formatInteger(T, locale),
            guesses: p.next.flatMap(([c, q], j) => [j ? t('tinyGpt.separator') : '', h('span', { class: 'char' }, showChar(c)), ` ${formatPercent(q, locale)}`]),
          }),
        ),
      ),
    ),
    h('p', { class: 'muted' }, t('tinyGpt.best', { char: showChar(best.at(-1)) })),
  ];
}

if (defines('tb-tiny-gpt', TbTinyGpt)) customElements.define('tb-tiny-gpt', TbTinyGpt);
