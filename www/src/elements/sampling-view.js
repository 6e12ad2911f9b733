// The sampler in <tb-tiny-gpt>: temperature, top-k and top-p, the next symbol's distribution after
// the reader's text before and after them (the kept ones marked), and "Write on" with them. The
// distribution and the writing are the library's (the sampler `tblock sample` uses): TinyGPT's
// characters (CharModel.next_distribution and CharModel.sample: charSource), or a real checkpoint's
// tokens in its worker (checkpoint-sampling.js), a token a task; this draws them.
//
//   const sampling = samplingView({ uid, settings: { temperature, topK, topP }, source: () => src, text: () => s, t });
//     src: { next(text, temperature, topK, topP) -> { rows: [{ label, model, sampled, kept }], kept, total }
//            (or a promise of it; null: nothing to show), write(text, temperature, topK, topP, onText)
//            -> the text written on (or a promise of it; null: stopped); onText(text so far, note?),
//            note: where the model's reading was cut, if it was; stop()?, length, seed,
//            words: the catalog keys of the texts that name a character or a token (CHARACTERS) }
//   sampling.element      // place it
//   sampling.refresh()    // after the text or the model changed

import { h, errorText } from './base.js';
import { formatInteger, formatPercent } from '../format.js';
import { showChar } from './heatmap-figure.js';
import { speakEnglish, translator } from '../i18n.js';
import attentionTexts from '../locales/en/attention.js';
import checkpointTexts from '../locales/en/checkpoint.js';

speakEnglish(attentionTexts, checkpointTexts);

/** Symbols listed, the likeliest first. */
export const SHOWN = 10;
const LENGTH = 80;
const SEED = 1;

/** The texts that name what is sampled: a character. */
export const CHARACTERS = {
  caption: 'attention.samplingCaption',
  next: 'attention.samplingNext',
  kept: 'attention.samplingKept',
  more: 'attention.samplingMore',
  explain: 'attention.samplingExplain',
};

/** TinyGPT as the sampler's source: `m`, a CharModel. */
export function charSource(m) {
  return {
    next(text, ...settings) {
      const d = m.next_distribution(text, ...settings);
      const rows = d.order.slice(0, SHOWN).map((id) => ({ label: showChar(d.symbols[id]), model: d.model[id], sampled: d.sampled[id], kept: d.kept[id] }));
      return { rows, kept: d.kept_count, total: d.symbols.length };
    },
    write: (text, temperature, topK, topP) => text + m.sample(text, LENGTH, temperature, SEED, topK, topP),
    length: LENGTH,
    seed: SEED,
    words: CHARACTERS,
  };
}

export const SAMPLING_CSS = `
.sampling { margin-top: 1rem; padding-top: 0.5rem; border-top: 1px solid var(--_rule); }
.sampling .controls input[type="number"] { width: 5.5rem; }
.sampling table { margin: 0.25rem 0; font-size: 0.9rem; max-width: 32rem; }
.sampling th, .sampling td { padding: 0.1rem 0.4rem; }
.sampling td.bar { width: 40%; }
.sampling .bar span { display: inline-block; height: 0.7rem; margin-right: 0.35rem; vertical-align: -0.05rem; background: var(--_accent); }
.sampling .before span { background: var(--_muted); }
.sampling tr.dropped td, .sampling tr.dropped th { color: var(--_muted); }
.sampling tr.dropped .after span { display: none; }
.sampling caption { text-align: left; font-weight: 600; }
`;

/**
 * A number field's value for the library: a number, null when blank; what the browser could not read
 * as a number ("-", "1e", letters: the field then reports an empty value) throws, naming the field.
 */
function numberOf(input, label, t) {
  if (input.validity?.badInput) throw new Error(t('attention.samplingNotNumber', { name: label }));
  const text = input.value.trim();
  return text === '' ? null : Number(text);
}

/** A cell with a bar as long as `share` and its percentage. */
function barCell(cls, share, locale) {
  const bar = h('span', { 'aria-hidden': 'true' });
  // Rounded: a browser keeps six digits of a length, and the prerender and the live render must agree.
  bar.style.width = `${Math.round(Math.max(0, Math.min(1, share)) * 8e4) / 1e4}rem`;
  return h('td', { class: `bar ${cls}` }, bar, formatPercent(share, locale));
}

/** `t`: the widget's translator (English without it). */
export function samplingView({ uid, settings, source, text, t = translator('en') }) {
  const { locale } = t;
  const labels = { temperature: t('attention.samplingTemperature'), topK: t('attention.samplingTopK'), topP: t('attention.samplingTopP') };
  const field = (key, label, attrs) => {
    const input = h('input', { id: `${uid}-${key}`, type: 'number', inputMode: 'decimal', ...attrs });
    return { input, wrap: h('label', { htmlFor: input.id }, label, input) };
  };
  const temperature = field('temperature', labels.temperature, { min: 0, max: 10, step: 0.1, value: settings.temperature });
  const topK = field('top-k', labels.topK, { min: 1, step: 1, value: settings.topK ?? '', placeholder: t('attention.samplingAll') });
  const topP = field('top-p', labels.topP, { min: 0, max: 1, step: 0.05, value: settings.topP ?? 1 });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const body = h('tbody');
  const caption = h('caption');
  const table = h(
    'table',
    { class: 'distribution' },
    caption,
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, t(source()?.words.next ?? CHARACTERS.next)), h('th', { scope: 'col' }, t('attention.samplingModel')), h('th', { scope: 'col' }, t('attention.samplingAfter'))),
    ),
    body,
  );
  const kept = h('p', { class: 'muted kept-count' });
  const button = h('button', { type: 'button' }, t('attention.samplingWriteOn'));
  const stop = h('button', { type: 'button', hidden: true }, t('checkpoint.samplingStop'));
  const written = h('pre', { class: 'written', hidden: true, 'aria-live': 'polite' });
  // Where the model's reading of a long text was cut, when it was (a checkpoint's continuation).
  const readsFrom = h('p', { class: 'muted reads-from', hidden: true });
  const noted = (note) => {
    readsFrom.textContent = note ?? '';
    readsFrom.hidden = !note;
  };
  const words = () => source()?.words ?? CHARACTERS;

  /** The settings as the library takes them: temperature, then top-k and top-p (undefined: all). */
  const values = () => [
    numberOf(temperature.input, labels.temperature, t) ?? NaN,
    numberOf(topK.input, labels.topK, t) ?? undefined,
    numberOf(topP.input, labels.topP, t) ?? undefined,
  ];
  const fail = (err) => {
    error.textContent = errorText(err, t);
    error.hidden = false;
    table.hidden = true;
    kept.hidden = true;
  };

  let asked = 0; // the latest distribution asked for: an older answer is not shown
  const refresh = async () => {
    const src = source();
    if (!src) return;
    const mine = ++asked;
    let d;
    try {
      d = await src.next(text(), ...values());
    } catch (err) {
      if (mine === asked) fail(err);
      return;
    }
    if (mine !== asked || !d) return;
    error.hidden = true;
    error.textContent = '';
    table.hidden = false;
    kept.hidden = false;
    const after = text().slice(-12);
    caption.textContent = t(words().caption, { text: after.replace(/\n/g, '\u21b5') });
    body.replaceChildren(
      ...d.rows.map((row) =>
        h(
          'tr',
          { class: row.kept ? 'kept' : 'dropped' },
          h('th', { scope: 'row' }, h('span', { class: 'char' }, row.label)),
          barCell('before', row.model, locale),
          row.kept ? barCell('after', row.sampled, locale) : h('td', { class: 'after' }, t('attention.samplingNotKept')),
        ),
      ),
    );
    topK.input.max = d.total;
    kept.textContent = t(words().kept, {
      count: d.kept,
      kept: formatInteger(d.kept, locale),
      total: formatInteger(d.total, locale),
      shown: formatInteger(SHOWN, locale),
    });
  };

  const writing = (on) => {
    button.hidden = on;
    stop.hidden = !on;
  };
  // New settings: the distribution follows, and text written with the old ones goes.
  for (const f of [temperature, topK, topP]) {
    f.input.addEventListener('input', () => {
      source()?.stop?.();
      writing(false);
      written.hidden = true;
      noted('');
      refresh();
    });
  }
  button.addEventListener('click', async () => {
    const src = source();
    if (!src) return;
    let result;
    try {
      const start = text();
      writing(true);
      noted('');
      result = await src.write(start, ...values(), (sofar, note) => {
        written.textContent = sofar;
        written.hidden = false;
        noted(note);
      });
    } catch (err) {
      writing(false);
      return fail(err);
    }
    writing(false);
    if (result === null) return; // stopped: what was written so far stays
    written.textContent = result;
    written.hidden = false;
  });
  stop.addEventListener('click', () => {
    source()?.stop?.();
    writing(false);
    button.focus();
  });

  const more = source();
  const element = h(
    'section',
    { class: 'sampling', role: 'group', 'aria-label': t('attention.samplingTitle') },
    h('h4', {}, t('attention.samplingTitle')),
    h('div', { class: 'controls' }, temperature.wrap, topK.wrap, topP.wrap),
    h('p', { class: 'muted' }, t(words().explain)),
    error,
    table,
    kept,
    h(
      'div',
      { class: 'write' },
      button,
      stop,
      h('span', { class: 'muted' }, t(words().more, { length: formatInteger(more?.length ?? LENGTH, locale), seed: String(more?.seed ?? SEED) })),
    ),
    written,
    readsFrom,
  );
  return {
    element,
    refresh() {
      source()?.stop?.();
      writing(false);
      written.hidden = true;
      noted('');
      refresh();
    },
    /** Nothing to show (the text cannot be read): no distribution, no message of its own. */
    hide() {
      for (const node of [error, table, kept, written, readsFrom]) node.hidden = true;
      error.textContent = '';
    },
  };
}
