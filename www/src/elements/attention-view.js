// The maps of <tb-attention>: for every block, a map per head of the attention weights (queries down
// the side, keys along the top, the causal triangle left empty), the text itself shaded by how much
// each earlier character weighs for the chosen query in each head, and for one chosen head its
// scores before the softmax beside its weights. Made once; update(result) redraws each map's canvas
// in place (charts/map-canvas.js), so typing into the text field stays cheap with every map shown.
//
// A map is a slider over query positions for the keyboard and for screen readers: ↑/↓ move the
// query, Home/End go to the first or last, Page Up/Down by five, ←/→ to the block's next head's map
// (one Tab stop a block), Enter or Space choose the head for the scores panel. Pointing at a row
// chooses that query; clicking (or tapping) chooses the head too.
//
//   const view = attentionView(t);   // t: the widget's translator (English without it)
//   view.nodes              // place them
//   view.update(result)     // CharModel.attention(text)'s result; keeps the query and head chosen

import { h } from './base.js';
import { paletteCss } from '../charts/heatmap.js';
import { attentionMapLayout, scoreMapLayout, strongestKeys, weightClass, weightLevel, weightPaletteCss } from '../charts/attention-map.js';
import { mapCanvas, stripCanvas } from '../charts/map-canvas.js';
import { formatDecimal, formatFixed, formatInteger } from '../format.js';
import { showChar } from './heatmap-figure.js';
import { weightTables } from './attention-tables.js';
import { speakEnglish, translator } from '../i18n.js';
import attentionTexts from '../locales/en/attention.js';

speakEnglish(attentionTexts);

/** A map cell's size in px (its labels are 11 px); the scores panel's, larger. */
const CELL = 12;
const FOCUS_CELL = 16;

/** The maps' styles; their colours are set on a container of class attention-maps. */
export const ATTENTION_CSS = `
.attention-maps {
  --_weight: var(--tb-attention-weight, var(--_attention));
  --_heat-zero: var(--_bg);
}
/* Scores are signed: the heatmaps' diverging colours. */
.scores-scope { --_negative: var(--tb-negative, var(--_attention)); --_positive: var(--tb-positive, var(--_feed-forward)); }
.controls input[type="text"] { flex: 1 1 12rem; min-width: 0; font-family: var(--_mono); }
.model-note, .legend, .query-note { font-size: 0.9rem; }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 0.6rem; align-items: center; color: var(--_muted); }
.ramp { display: inline-flex; border: 1px solid var(--_rule); }
.ramp span { display: inline-block; width: 0.9rem; height: 0.9rem; }
.block { margin-top: 0.75rem; }
.maps { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }
figure { margin: 0; }
.head-button { min-height: 1.75rem; padding: 0 0.5rem; font-size: 0.9rem; }
.head-button[aria-pressed="true"] { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); font-weight: 600; }
.map-box { margin-top: 0.25rem; }
.map-box canvas { display: block; }
.map-box canvas:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
.map-fg { color: var(--_fg); }
.map-muted { color: var(--_muted); }
.map-rule { color: var(--_rule); }
.strips { margin: 0.25rem 0 0; }
.strip { display: flex; flex-wrap: wrap; align-items: center; gap: 0 0.5rem; margin: 0.1rem 0; }
.strip-label { flex: none; width: 4.2rem; font-size: 0.85rem; color: var(--_muted); }
.strip-box { display: inline-block; line-height: 0; }
.map-fg, .map-muted, .map-rule { font-family: var(--_mono); }
.focus { margin-top: 1rem; padding-top: 0.5rem; border-top: 1px solid var(--_rule); }
.focus-maps { display: flex; flex-wrap: wrap; gap: 0.75rem 1.5rem; }
.focus figcaption { font-size: 0.9rem; }
.tables { margin-top: 0.4rem; }
.tables summary { cursor: pointer; color: var(--_accent); }
.tables table { margin-top: 0.5rem; font-size: 0.85rem; }
.tables caption { text-align: left; font-weight: 600; }
.tables th, .tables td { padding: 0.1rem 0.3rem; white-space: nowrap; }
.stale { color: var(--_muted); font-style: italic; }
${paletteCss()}
${weightPaletteCss()}
`;

/** Sets text only when it changed (most labels stay the same from one keystroke to the next). */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Room for the characters along the top and down the side of a map, in px. */
const GUTTER = { left: 16, top: 14 };

/**
 * A map's canvas with its characters, updated in place; sized for the model's whole context
 * whatever the text's length, so typing never changes the widget's size, and the canvas redraws
 * without a layout.
 */
function mapFrame(cell, attrs, scope = '') {
  const map = mapCanvas(attrs);
  const box = h('div', { class: `map-box ${scope}` }, map.canvas);
  let spec = null;
  return {
    box,
    canvas: map.canvas,
    /** New characters and cells (`layout`: attentionMapLayout's or scoreMapLayout's); `row` the query. */
    update(texts, layout, context, row, extra = {}) {
      spec = { texts, context, cell, gutter: GUTTER, cells: layout.cells, row, ...extra };
      map.draw(spec);
    },
    /** Mark another row (the query moved). */
    mark(row) {
      if (spec && spec.row !== row) map.draw((spec = { ...spec, row }));
    },
  };
}

/** One head's map, its slider semantics and its row of text, in the language of `tr`. */
function headMap(block, head, view, tr) {
  const { locale } = tr;
  // The button is for the pointer; from the keyboard, Enter on the map picks its head.
  const button = h('button', { type: 'button', class: 'head-button', 'aria-pressed': 'false', 'aria-label': tr('attention.headTitle', { block, head }), tabindex: -1 }, tr('attention.head', { head }));
  // One Tab stop a block (roving tabindex): the block's current map; ← and → move to the next head's.
  const map = mapFrame(CELL, {
    class: 'weights',
    role: 'slider',
    tabindex: head === 0 ? 0 : -1,
    'aria-valuemin': 1,
    'aria-label': tr('attention.mapLabel', { block, head }),
  });
  const el = map.canvas;
  const figure = h('figure', { class: 'head-map', dataset: { block, head } }, h('figcaption', {}, button), map.box);
  const strip = stripCanvas({ class: 'key-chars', 'aria-hidden': 'true' });
  // The weights themselves are in the map's value text and the tables; the strip is their picture.
  const stripLine = h('p', { class: 'strip', dataset: { block, head }, 'aria-hidden': 'true' }, h('span', { class: 'strip-label' }, tr('attention.head', { head })), h('span', { class: 'strip-box' }, strip.canvas));
  let rows = [];
  let texts = [];
  let context = 16;

  button.addEventListener('click', () => view.choose(block, head));
  el.addEventListener('keydown', (e) => {
    const n = rows.length;
    const t = view.query;
    // The rows run down the map: ↑ is the query before, ↓ the one after.
    const moves = { ArrowUp: t - 1, ArrowDown: t + 1, Home: 0, End: n - 1, PageUp: t - 5, PageDown: t + 5 };
    if (e.key in moves) {
      view.setQuery(Math.max(0, Math.min(n - 1, moves[e.key])));
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      view.focusHead(block, head + (e.key === 'ArrowLeft' ? -1 : 1));
    } else if (e.key === 'Enter' || e.key === ' ') {
      view.choose(block, head);
    } else {
      return;
    }
    e.preventDefault();
  });
  const rowAt = (e) => {
    const box = el.getBoundingClientRect();
    return Math.max(0, Math.min(rows.length - 1, Math.floor((e.clientY - box.top - GUTTER.top) / CELL)));
  };
  // A mouse chooses the query by hovering; a click (or a tap, which leaves scrolling to the page)
  // chooses it and the head.
  el.addEventListener('pointermove', (e) => e.pointerType === 'mouse' && rows.length && view.setQuery(rowAt(e)));
  el.addEventListener('click', (e) => {
    if (!rows.length) return;
    view.setQuery(rowAt(e));
    view.choose(block, head);
  });

  return {
    figure,
    stripLine,
    /** Redraw from the [L, h, T, T] weights of a result (then showQuery marks the query). */
    update(r) {
      const n = r.ids.length;
      const layout = attentionMapLayout({ n, weights: r.weights.data, offset: (block * r.heads + head) * n * n, cell: CELL });
      rows = layout.rows;
      const labels = r.symbols.map(showChar);
      map.update(labels, layout, r.longest_text, view.query, { masked: layout.masked });
      el.setAttribute('aria-valuemax', n);
      texts = labels;
      context = r.longest_text;
    },
    /** Mark the chosen query: its row on the map, its weights over the text. */
    showQuery(r) {
      const t = view.query;
      const row = rows[t] ?? [];
      map.mark(t);
      const best = strongestKeys(row).slice(0, 3);
      const say = best
        .map(({ key, weight }) => tr('attention.keyWeight', { char: showChar(r.symbols[key]), position: key + 1, weight: formatFixed(weight, 3, locale) }))
        .join(tr('attention.separator'));
      el.setAttribute('aria-valuenow', t + 1);
      el.setAttribute('aria-valuetext', tr('attention.valueText', { query: t + 1, total: rows.length, char: showChar(r.symbols[t]), keys: say }));
      strip.draw({ texts, context, cell: CELL, gutter: GUTTER, bars: texts.map((_, k) => (k <= t ? weightClass(weightLevel(row[k])) : null)), marked: t });
    },
    /** Make this map its block's Tab stop (and focus it). */
    takeFocus() {
      el.tabIndex = 0;
      el.focus();
    },
    leaveFocus() {
      el.tabIndex = -1;
    },
    setChosen(on) {
      button.setAttribute('aria-pressed', String(on));
      figure.classList.toggle('chosen', on);
    },
  };
}

/** One block: its maps, its text strips and its tables. */
function blockSection(block, heads, view, tr) {
  const maps = Array.from({ length: heads }, (_, head) => headMap(block, head, view, tr));
  const queryNote = h('p', { class: 'query-note' });
  const tables = weightTables(block, heads, tr);
  const section = h(
    'section',
    { class: 'block', role: 'group', 'aria-label': tr('attention.block', { block }) },
    h('h4', {}, tr('attention.block', { block })),
    h('div', { class: 'maps' }, maps.map((m) => m.figure)),
    queryNote,
    h('div', { class: 'strips' }, maps.map((m) => m.stripLine)),
    tables.details,
  );
  return {
    section,
    maps,
    update(r) {
      maps.forEach((m) => m.update(r));
      tables.update(r);
      this.showQuery(r);
    },
    showQuery(r) {
      const t = view.query;
      setText(queryNote, tr('attention.queryNote', { position: t + 1, char: showChar(r.symbols[t]) }));
      maps.forEach((m) => m.showQuery(r));
    },
  };
}

/** The chosen head's scores before the softmax, beside its weights. */
function focusPanel(tr) {
  const { locale } = tr;
  const title = h('h4', {});
  const scores = mapFrame(FOCUS_CELL, { class: 'scores', role: 'img' }, 'scores-scope');
  const weights = mapFrame(FOCUS_CELL, { class: 'weights', role: 'img' });
  const sentence = h('p', {});
  const section = h(
    'section',
    { class: 'focus', role: 'group', 'aria-label': tr('attention.chosenHead') },
    title,
    h(
      'div',
      { class: 'focus-maps' },
      h('figure', {}, h('figcaption', {}, ...tr.parts('attention.scoresCaption', { sub: h('sub', {}, 'head') })), scores.box),
      h('figure', {}, h('figcaption', {}, tr('attention.weightsCaption')), weights.box),
    ),
    sentence,
  );
  return {
    section,
    update(r, block, head, t) {
      const n = r.ids.length;
      const offset = (block * r.heads + head) * n * n;
      const labels = r.symbols.map(showChar);
      const sl = scoreMapLayout({ n, scores: r.scores.data, offset, cell: FOCUS_CELL });
      const wl = attentionMapLayout({ n, weights: r.weights.data, offset, cell: FOCUS_CELL });
      scores.update(labels, sl, r.longest_text, t, { dimmed: sl.maskedCells, masked: wl.masked });
      weights.update(labels, wl, r.longest_text, t, { masked: wl.masked });
      const row = r.scores.data.subarray(offset + t * n, offset + t * n + t + 1);
      const [low, high] = [formatDecimal(Math.min(...row), 2, locale), formatDecimal(Math.max(...row), 2, locale)];
      const best = strongestKeys(wl.rows[t])[0];
      setText(title, tr('attention.headTitle', { block, head }));
      scores.canvas.setAttribute('aria-label', tr('attention.scoresLabel', { block, head, low, high, position: t + 1 }));
      weights.canvas.setAttribute('aria-label', tr('attention.weightsLabel', { block, head }));
      setText(
        sentence,
        tr('attention.focusSentence', {
          count: t + 1,
          position: t + 1,
          char: labels[t],
          keys: formatInteger(t + 1, locale),
          low,
          high,
          weight: formatFixed(best.weight, 3, locale),
          best: labels[best.key],
          bestPosition: best.key + 1,
        }),
      );
    },
  };
}

export function attentionView(tr = translator('en')) {
  let result = null;
  let blocks = [];
  let shape = '';
  const blocksBox = h('div', { class: 'blocks' });
  const focus = focusPanel(tr);
  const view = {
    query: null, // the chosen query position (null: the last one)
    chosen: { block: 0, head: 0 },
    nodes: [blocksBox, focus.section],
    setQuery(t) {
      if (!result || t === view.query) return;
      view.query = t;
      blocks.forEach((b) => b.showQuery(result));
      view.showFocus();
    },
    /** Move the keyboard to head `head`'s map of block `block` (if there is one). */
    focusHead(block, head) {
      const maps = blocks[block]?.maps;
      if (!maps || head < 0 || head >= maps.length) return;
      maps.forEach((m, j) => j !== head && m.leaveFocus());
      maps[head].takeFocus();
    },
    choose(block, head) {
      view.chosen = { block, head };
      blocks.forEach((b, i) => b.maps.forEach((m, j) => m.setChosen(i === block && j === head)));
      if (result) view.showFocus();
    },
    showFocus() {
      const { block, head } = view.chosen;
      focus.update(result, block, head, view.query);
    },
    update(r) {
      const key = `${r.layers}x${r.heads}`;
      if (key !== shape) {
        shape = key;
        blocks = Array.from({ length: r.layers }, (_, b) => blockSection(b, r.heads, view, tr));
        blocksBox.replaceChildren(...blocks.map((b) => b.section));
        if (view.chosen.block >= r.layers || view.chosen.head >= r.heads) view.chosen = { block: 0, head: 0 };
        view.choose(view.chosen.block, view.chosen.head);
      }
      const n = r.ids.length;
      // A longer or shorter text keeps the chosen query where it can; a new text starts at its end.
      if (view.query === null || view.query >= n || (result && result.ids.length !== n && view.query === result.ids.length - 1)) view.query = n - 1;
      result = r;
      blocks.forEach((b) => b.update(r));
      view.showFocus();
      return view.nodes;
    },
  };
  return view;
}
