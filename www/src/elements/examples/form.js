// The editable part of a worked example: labelled inputs, a line for a problem, and an output region
// that is rebuilt (only it) on every keystroke, so the field being typed in keeps its focus.
//
//   exampleForm({
//     uid, t, legend: t('example.inputs'),              // t: the element's translator (i18n.js)
//     fields: [{ key: 'x', name: 'x', label: t('example.layernormLabel'), kind: 'list', value: '1, 2, 3, 4' }],
//     compute: ({ x }) => lib.example_layernorm(x),      // may throw: the library's message is shown
//     show: (result, values) => [steps(...)],            // nodes for the output region
//   })
//
// Field kinds: 'list' (numbers separated by commas), 'rows' (lists separated by semicolons),
// 'number' (one number, in a number field; the library decides what range is allowed). A field's
// `name` words the messages about it, in the reader's language; what the reader types is numbers as
// code writes them (a decimal point, commas between them) in every language.

import { errorText, h, resultRegion } from '../base.js';
import { parseNumberList } from '../../attributes.js';
import { formatInteger, lazyFormat } from '../../format.js';
import { speakEnglish, translator } from '../../i18n.js';
import examplesTexts from '../../locales/en/examples.js';

speakEnglish(examplesTexts);

export function exampleForm({ uid, t = translator('en'), legend = t('example.inputs'), fields, compute, show, note }) {
  const inputs = new Map();
  const region = resultRegion();

  const rows = fields.map((f) => {
    const id = `${uid}-${f.key}`;
    const input =
      f.kind === 'number'
        ? h('input', { id, type: 'number', value: f.value, step: f.step ?? 'any', min: f.min, max: f.max, inputMode: 'decimal' })
        : h('input', { id, type: 'text', value: f.value, spellcheck: false, autocomplete: 'off', inputMode: f.inputMode })
    ;
    input.addEventListener('input', run);
    inputs.set(f.key, input);
    return h('div', { class: 'field' }, h('label', { htmlFor: id }, f.label), input, f.hint ? h('span', { class: 'muted hint' }, f.hint) : null);
  });

  function read() {
    const values = {};
    for (const f of fields) {
      const input = inputs.get(f.key);
      const text = input.value;
      if (f.kind === 'number') {
        if (input.validity.badInput || text.trim() === '') return { error: t('example.typeNumber', { name: f.name }) };
        values[f.key] = Number(text);
      } else if (f.kind === 'rows') {
        const parts = text.split(';').filter((row) => row.trim() !== '');
        values[f.key] = [];
        for (const [i, part] of parts.entries()) {
          const r = parseNumberList(t('example.row', { name: f.name, row: formatInteger(i, t.locale) }), part, [], t);
          if (r.error) return { error: r.error };
          values[f.key].push(r.value);
        }
      } else {
        const r = parseNumberList(f.name, text, [], t);
        if (r.error) return { error: r.error };
        values[f.key] = r.value;
      }
    }
    return { values };
  }

  function run() {
    const { values, error: problem } = read();
    if (problem) return region.fail(problem);
    // The library's message for an input it refuses, worded for the reader (errorText).
    let nodes;
    try {
      nodes = show(compute(values), values);
    } catch (err) {
      return region.fail(errorText(err, t));
    }
    region.show(() => nodes, (shown) => shown);
  }

  run();
  return h(
    'div',
    { class: 'part' },
    fields.length ? h('fieldset', { class: 'fields' }, h('legend', {}, legend), rows) : null,
    note ? h('p', { class: 'muted' }, note) : null,
    region.error,
    region.output,
  );
}

/** A list of steps, each "label = value" with the value in its own element (class "value"). */
export function steps(items) {
  return h(
    'ol',
    { class: 'steps' },
    items.filter(Boolean).map(([label, value, extra]) =>
      h('li', {}, h('span', { class: 'label' }, label), ' ', h('span', { class: 'value' }, value), extra ? ` ${extra}` : null),
    ),
  );
}

/** A sentence (a paragraph in the output region). */
export function say(...children) {
  return h('p', { class: 'result' }, ...children);
}

/**
 * The text of `key` with its values (i18n.js t.parts), for h(): a value may be a node (a `value`
 * span); the strings between nodes are joined, so each run of text is one text node.
 */
export function sentence(t, key, values) {
  const pieces = [];
  for (const piece of t.parts(key, values)) {
    if (typeof piece === 'string' && typeof pieces.at(-1) === 'string') pieces[pieces.length - 1] += piece;
    else pieces.push(piece);
  }
  return pieces;
}

/** A matrix's shape in the locale's numbers: [50, 32] -> "50 × 32". */
export function shapeText([rows, columns], locale = 'en') {
  return `${formatInteger(rows, locale)} × ${formatInteger(columns, locale)}`;
}

/**
 * Items as a sentence lists them in the locale: "0 and 1", "0, 1 and 2" (no serial comma, as the
 * lessons write it; Intl.ListFormat would add one in English). `separator`: the key of the comma
 * (example.listCommaDecimals between numbers that may have a decimal comma).
 */
export function listOf(items, t, separator = 'example.listComma') {
  const texts = items.map(String);
  if (texts.length <= 1) return texts.join('');
  return t('example.listAnd', { rest: texts.slice(0, -1).join(t(separator)), last: texts.at(-1) });
}

/** A number or vector shown as a value (the e2e tests read these). */
export function value(text) {
  return h('span', { class: 'value' }, text);
}

const plain = lazyFormat({ maximumFractionDigits: 6, useGrouping: false });

/** Numbers as the text of an input: [0.1, -0.3] -> "0.1, -0.3" (no thousands separators). */
export function listText(xs) {
  return Array.from(xs, (x) => plain.format(x)).join(', ');
}

/** Rows as the text of a 'rows' input: [[1, 0], [0, 1]] -> "1, 0; 0, 1". */
export function rowsText(rows) {
  return rows.map(listText).join('; ');
}

/** A large number as the text of a number field: 7000000000 -> "7e9". */
export function exponentText(x) {
  return x >= 1e5 ? x.toExponential().replace('e+', 'e') : plain.format(x);
}
