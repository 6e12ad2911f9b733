// The maps of <tb-attention>: for every block, a map per head of the attention weights (queries down
// the side, keys along the top, the causal triangle left empty), the text itself shaded by how much
// each earlier character weighs for the chosen query in each head, and for one chosen head its
// scores before the softmax beside its weights. Made once; update(result) redraws in place (a few
// paths and labels a map), so typing into the text field stays cheap with every map shown.
//
// A map is a slider over query positions for the keyboard and for screen readers: ↑/↓ (or ←/→)
// move the query, Home/End go to the first or last, Page Up/Down by five, Enter or Space choose the
// head for the scores panel. Pointing at a row chooses that query; clicking chooses the head too.
//
//   const view = attentionView({ uid });
//   view.nodes              // place them
//   view.update(result)     // CharModel.attention(text)'s result; keeps the query and head chosen

import { h } from './base.js';
import { s } from '../charts/svg.js';
import { LEVELS, levelClass } from '../charts/heatmap.js';
import { attentionMapLayout, scoreMapLayout, strongestKeys, weightLevel } from '../charts/attention-map.js';
import { formatDecimal, formatFixed, formatInteger } from '../format.js';
import { showChar } from './heatmap-figure.js';
import { weightTables } from './attention-tables.js';

/** A map cell's size in px (its labels are 11 px); the scores panel's, larger. */
export const CELL = 12;
const FOCUS_CELL = 16;

/** Makes `parent` hold exactly `n` children made by `make(i)`, keeping the first ones it has. */
function keepCount(parent, n, make) {
  while (parent.childElementCount > n) parent.lastElementChild.remove();
  for (let i = parent.childElementCount; i < n; i++) parent.append(make(i));
}

/** Sets text only when it changed (most labels stay the same from one keystroke to the next). */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** The paths of `paths` ({ class: d }) as the children of `g`. */
function drawPaths(g, paths, extra = '') {
  g.replaceChildren(...Object.entries(paths).map(([cls, d]) => s('path', { class: `${cls}${extra}`, d })));
}

/** A weight map's frame: column labels above, row labels beside, the SVG; updated in place. */
function mapFrame(cell, svgAttrs) {
  const cols = h('div', { class: 'cols', 'aria-hidden': 'true' });
  const rows = h('div', { class: 'rows', 'aria-hidden': 'true' });
  const cells = s('g', {});
  const masked = s('path', { class: 'masked' });
  const query = s('rect', { class: 'query-row', x: 0, height: cell });
  const frame = s('rect', { class: 'frame', x: 0, y: 0 });
  const svg = s('svg', svgAttrs, cells, masked, query, frame);
  const box = h('div', { class: 'map-box' }, cols, h('div', { class: 'map-row' }, rows, svg));
  const update = (labels, layoutSize) => {
    for (const [parent, axis] of [
      [cols, 'col'],
      [rows, 'row'],
    ]) {
      keepCount(parent, labels.length, () => h('span', { class: axis }));
      labels.forEach((text, i) => setText(parent.children[i], text));
    }
    for (const [k, v] of [
      ['viewBox', `0 0 ${layoutSize} ${layoutSize}`],
      ['width', layoutSize],
      ['height', layoutSize],
    ]) {
      svg.setAttribute(k, v);
    }
    frame.setAttribute('width', layoutSize);
    frame.setAttribute('height', layoutSize);
    query.setAttribute('width', layoutSize);
  };
  return { box, svg, cells, masked, query, update };
}

/** One head's map, its slider semantics and its row of text. */
function headMap(block, head, view) {
  const button = h('button', { type: 'button', class: 'head-button', 'aria-pressed': 'false' }, `Head ${head}`);
  const map = mapFrame(CELL, { class: 'weights', role: 'slider', tabindex: 0, 'aria-valuemin': 1 });
  const figure = h('figure', { class: 'head-map', dataset: { block, head } }, h('figcaption', {}, button), map.box);
  const strip = h('span', { class: 'chars' });
  const stripLine = h('p', { class: 'strip', dataset: { block, head } }, h('span', { class: 'strip-label' }, `Head ${head}`), strip);
  let rows = [];

  button.addEventListener('click', () => view.choose(block, head));
  map.svg.addEventListener('keydown', (e) => {
    const n = rows.length;
    const t = view.query;
    const moves = { ArrowUp: t - 1, ArrowLeft: t - 1, ArrowDown: t + 1, ArrowRight: t + 1, Home: 0, End: n - 1, PageUp: t - 5, PageDown: t + 5 };
    if (e.key in moves) {
      view.setQuery(Math.max(0, Math.min(n - 1, moves[e.key])));
    } else if (e.key === 'Enter' || e.key === ' ') {
      view.choose(block, head);
    } else {
      return;
    }
    e.preventDefault();
  });
  const rowAt = (e) => {
    const box = map.svg.getBoundingClientRect();
    return Math.max(0, Math.min(rows.length - 1, Math.floor(((e.clientY - box.top) / box.height) * rows.length)));
  };
  map.svg.addEventListener('pointermove', (e) => e.pointerType === 'mouse' && rows.length && view.setQuery(rowAt(e)));
  map.svg.addEventListener('pointerdown', (e) => {
    if (!rows.length) return;
    view.setQuery(rowAt(e));
    view.choose(block, head);
  });

  return {
    figure,
    stripLine,
    /** Redraw from the [L, h, T, T] weights of a result. */
    update(r) {
      const n = r.ids.length;
      const layout = attentionMapLayout({ n, weights: r.weights.data, offset: (block * r.heads + head) * n * n, cell: CELL });
      rows = layout.rows;
      const labels = r.symbols.map(showChar);
      map.update(labels, layout.size);
      drawPaths(map.cells, layout.paths);
      map.masked.setAttribute('d', layout.masked);
      map.svg.setAttribute('aria-valuemax', n);
      keepCount(strip, n, () => h('span', { class: 'char' }));
      labels.forEach((c, k) => setText(strip.children[k], c));
      this.showQuery(r);
    },
    /** Mark the chosen query: its row on the map, its weights over the text. */
    showQuery(r) {
      const t = view.query;
      const row = rows[t] ?? [];
      map.query.setAttribute('y', t * CELL);
      const best = strongestKeys(row).slice(0, 3);
      const say = best.map(({ key, weight }) => `"${showChar(r.symbols[key])}" (position ${key + 1}) ${formatFixed(weight, 3)}`).join(', ');
      map.svg.setAttribute('aria-valuenow', t + 1);
      map.svg.setAttribute('aria-valuetext', `query ${t + 1} of ${rows.length}, "${showChar(r.symbols[t])}": most weight on ${say}`);
      map.svg.setAttribute('aria-label', `Block ${block}, head ${head}: attention weights; choose the query position`);
      [...strip.children].forEach((span, k) => {
        const visible = k <= t;
        span.className = `char ${visible ? levelClass(weightLevel(row[k], LEVELS)) : 'future'}${k === t ? ' query' : ''}`;
        span.title = visible ? formatFixed(row[k], 3) : 'after the query: not visible to it';
      });
      stripLine.setAttribute('aria-label', `Head ${head}: ${row.map((w, k) => `${showChar(r.symbols[k])} ${formatFixed(w, 3)}`).join(', ')}`);
    },
    setChosen(on) {
      button.setAttribute('aria-pressed', String(on));
      figure.classList.toggle('chosen', on);
    },
  };
}

/** One block: its maps, its text strips and its tables. */
function blockSection(block, heads, view) {
  const maps = Array.from({ length: heads }, (_, head) => headMap(block, head, view));
  const queryNote = h('p', { class: 'query-note' });
  const tables = weightTables(block, heads);
  const section = h(
    'section',
    { class: 'block', role: 'group', 'aria-label': `Block ${block}` },
    h('h4', {}, `Block ${block}`),
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
      setText(queryNote, `What the query at position ${t + 1}, "${showChar(r.symbols[t])}", looks at in each head:`);
      maps.forEach((m) => m.showQuery(r));
    },
  };
}

/** The chosen head's scores before the softmax, beside its weights. */
function focusPanel() {
  const title = h('h4', {});
  const scores = mapFrame(FOCUS_CELL, { class: 'scores', role: 'img' });
  const weights = mapFrame(FOCUS_CELL, { class: 'weights', role: 'img' });
  const scoreMasked = s('g', { class: 'masked-scores' });
  scores.svg.insertBefore(scoreMasked, scores.masked);
  const sentence = h('p', {});
  const section = h(
    'section',
    { class: 'focus', role: 'group', 'aria-label': 'The chosen head' },
    title,
    h(
      'div',
      { class: 'focus-maps' },
      h('figure', {}, h('figcaption', {}, 'Scores q·k/√d', h('sub', {}, 'head'), ', before the mask and the softmax'), scores.box),
      h('figure', {}, h('figcaption', {}, 'Weights, after them'), weights.box),
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
      scores.update(labels, sl.size);
      drawPaths(scores.cells, sl.paths);
      drawPaths(scoreMasked, sl.maskedPaths, ' dimmed');
      const wl = attentionMapLayout({ n, weights: r.weights.data, offset, cell: FOCUS_CELL });
      scores.masked.setAttribute('d', wl.masked);
      weights.update(labels, wl.size);
      drawPaths(weights.cells, wl.paths);
      weights.masked.setAttribute('d', wl.masked);
      for (const m of [scores, weights]) m.query.setAttribute('y', t * FOCUS_CELL);
      const row = r.scores.data.subarray(offset + t * n, offset + t * n + t + 1);
      const best = strongestKeys(wl.rows[t])[0];
      setText(title, `Block ${block}, head ${head}`);
      scores.svg.setAttribute('aria-label', `Block ${block}, head ${head}: scores from ${formatDecimal(Math.min(...row), 2)} to ${formatDecimal(Math.max(...row), 2)} for the query at position ${t + 1}`);
      weights.svg.setAttribute('aria-label', `Block ${block}, head ${head}: weights`);
      setText(
        sentence,
        `The query at position ${t + 1}, "${labels[t]}", scores its ${formatInteger(t + 1)} visible key${t ? 's' : ''} from ${formatDecimal(Math.min(...row), 2)} to ${formatDecimal(Math.max(...row), 2)}; the scores of later keys (dimmed) are set aside by the mask. The softmax turns them into weights that add up to 1: the most, ${formatFixed(best.weight, 3)}, on "${labels[best.key]}" at position ${best.key + 1}.`,
      );
    },
  };
}

export function attentionView() {
  let result = null;
  let blocks = [];
  let shape = '';
  const blocksBox = h('div', { class: 'blocks' });
  const focus = focusPanel();
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
        blocks = Array.from({ length: r.layers }, (_, b) => blockSection(b, r.heads, view));
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
