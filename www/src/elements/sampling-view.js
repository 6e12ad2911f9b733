// The sampler in <tb-tiny-gpt>: temperature, top-k and top-p, the next character's distribution
// after the reader's text before and after them (the kept characters marked), and "Write on" with
// them. The distribution and the writing are the library's (CharModel.next_distribution and
// CharModel.sample, the sampler `tblock sample` uses); this draws them.
//
//   const sampling = samplingView({ uid, settings: { temperature, topK, topP }, model: () => m, text: () => s, t });
//   sampling.element      // place it
//   sampling.refresh()    // after the text or the model changed

import { h, errorText } from './base.js';
import { formatInteger, formatPercent } from '../format.js';
import { showChar } from './heatmap-figure.js';
import { translator } from '../i18n.js';

/** Characters listed, the likeliest first. */
const SHOWN = 10;
const LENGTH = 80;
const SEED = 1;

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
  bar.style.width = `${Math.max(0, Math.min(1, share)) * 8}rem`;
  return h('td', { class: `bar ${cls}` }, bar, formatPercent(share, locale));
}

/** `t`: the widget's translator (English without it). */
export function samplingView({ uid, settings, model, text, t = translator('en') }) {
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
      h('tr', {}, h('th', { scope: 'col' }, t('attention.samplingNext')), h('th', { scope: 'col' }, t('attention.samplingModel')), h('th', { scope: 'col' }, t('attention.samplingAfter'))),
    ),
    body,
  );
  const kept = h('p', { class: 'muted kept-count' });
  const button = h('button', { type: 'button' }, t('attention.samplingWriteOn'));
  const written = h('pre', { class: 'written', hidden: true, 'aria-live': 'polite' });

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

  const refresh = () => {
    const m = model();
    if (!m) return;
    let d;
    try {
      d = m.next_distribution(text(), ...values());
    } catch (err) {
      return fail(err);
    }
    error.hidden = true;
    error.textContent = '';
    table.hidden = false;
    kept.hidden = false;
    const after = text().slice(-12);
    caption.textContent = t('attention.samplingCaption', { text: after.replace(/\n/g, '\u21b5') });
    body.replaceChildren(
      ...d.order.slice(0, SHOWN).map((id) =>
        h(
          'tr',
          { class: d.kept[id] ? 'kept' : 'dropped' },
          h('th', { scope: 'row' }, h('span', { class: 'char' }, showChar(d.symbols[id]))),
          barCell('before', d.model[id], locale),
          d.kept[id] ? barCell('after', d.sampled[id], locale) : h('td', { class: 'after' }, t('attention.samplingNotKept')),
        ),
      ),
    );
    const V = d.symbols.length;
    topK.input.max = V;
    kept.textContent = t('attention.samplingKept', {
      count: d.kept_count,
      kept: formatInteger(d.kept_count, locale),
      total: formatInteger(V, locale),
      shown: formatInteger(SHOWN, locale),
    });
  };

  // New settings: the distribution follows, and text written with the old ones goes.
  for (const f of [temperature, topK, topP]) {
    f.input.addEventListener('input', () => {
      written.hidden = true;
      refresh();
    });
  }
  button.addEventListener('click', () => {
    const m = model();
    if (!m) return;
    try {
      const [temp, k, p] = values();
      written.textContent = text() + m.sample(text(), LENGTH, temp, SEED, k, p);
      written.hidden = false;
    } catch (err) {
      fail(err);
    }
  });

  const element = h(
    'section',
    { class: 'sampling', role: 'group', 'aria-label': t('attention.samplingTitle') },
    h('h4', {}, t('attention.samplingTitle')),
    h('div', { class: 'controls' }, temperature.wrap, topK.wrap, topP.wrap),
    h('p', { class: 'muted' }, t('attention.samplingExplain')),
    error,
    table,
    kept,
    h('div', { class: 'write' }, button, h('span', { class: 'muted' }, t('attention.samplingMore', { length: formatInteger(LENGTH, locale), seed: String(SEED) }))),
    written,
  );
  return {
    element,
    refresh() {
      written.hidden = true;
      refresh();
    },
    /** Nothing to show (the text cannot be read): no distribution, no message of its own. */
    hide() {
      for (const node of [error, table, kept, written]) node.hidden = true;
      error.textContent = '';
    },
  };
}
