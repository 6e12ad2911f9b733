// The two grids of <tb-masks> (encoder and decoder) and the sentence above them, built once and
// updated in place on every step of the tokens slider.
//
// Each grid is drawn in a fixed frame, the size of the largest grid (MAX_TOKENS tokens): a grid of
// n tokens fills its top left corner and a box sized from n (FRAME_CSS) shows just that corner.
// The SVG's viewBox and size never change, and neither do its elements: the 16 labels of each axis
// and the 16 markers are made once, and those past the count are hidden (a class: style, not
// layout). One step rewrites the cells' paths, moves the marker column and hides or shows a label
// and a marker; no SVG text is laid out again, and a cell is as large at 3 tokens as at 16.

import { h } from './dom-parts.js';
import { s } from '../charts/svg.js';
import { axisLabels, cellPaths, describeRows, markerPlaces, maskGridLayout, maskGridSize, positionList } from '../charts/mask-grid.js';
import { formatInteger } from '../format.js';

/** The most tokens example_masks takes (the lessons' sequence, MASK_IDS in the crate). */
export const MAX_TOKENS = 16;

// Small enough that the largest frame (300 x 276) fits a 360 px phone's panel unscaled, so the
// labels keep their 11 px.
const GRID = { cell: 16, gap: 2, gutter: 20 };
const FRAME = maskGridSize(MAX_TOKENS, { ...GRID, markers: true });

/** The kinds of cell, one path each, in the order they are drawn. */
const CELL_KINDS = ['allowed', 'blocked', 'allowed changed-key', 'blocked changed-key'];

/** Until the slider rests this long (ms), a grid's long spoken description waits. */
const LABEL_REST_MS = 150;

/**
 * The frame's styles: the SVG as wide as the panel allows (at most its own width, --_frame). The box
 * that shows a grid of n tokens gets its width and height from frameBox.
 */
export const FRAME_CSS = `
.masks .panel { container-type: inline-size; }
.masks .frame .past { visibility: hidden; }
.masks .frame { overflow: hidden; max-width: 100%; --_frame: min(${FRAME.width}px, 100cqi); }
.masks .frame svg { display: block; width: var(--_frame); height: auto; max-width: none; }
`;

/**
 * The box showing a grid laid out by maskGridLayout: its size, in the frame's proportions, as
 * the frame's own width and height. They are set through the CSSOM, which a strict style-src allows
 * (the prerender writes them as a rule), and on the box alone: a custom property set on it would be
 * inherited by every element of the SVG, and restyling those lays out all its text again.
 */
function frameBox(frame, { width, height }) {
  frame.style.width = `calc(var(--_frame) * ${width} / ${FRAME.width})`;
  frame.style.height = `calc(var(--_frame) * ${height} / ${FRAME.width})`;
}

/** Makes `parent` hold exactly `n` children made by `make(i)`, keeping the first ones it has. */
export function keepCount(parent, n, make) {
  while (parent.childElementCount > n) parent.lastElementChild.remove();
  for (let i = parent.childElementCount; i < n; i++) parent.append(make(i));
}

/** Hides the children of `parent` from the `n`th on (class `past`), shows the others. */
function showFirst(parent, n) {
  [...parent.children].forEach((child, i) => child.classList.toggle('past', i >= n));
}

/**
 * One grid (encoder or decoder) whose elements outlive a result. A step of the slider rewrites the
 * cells' paths and a few texts, moves the marker column, and shows or hides a label per axis and a
 * marker; the labels and markers stay where they are.
 */
function maskPanel(key, title, flag, t) {
  const name = t(key === 'encoder' ? 'masks.encoder' : 'masks.decoder');
  const labels = axisLabels(MAX_TOKENS, GRID);
  const cols = s('g', {}, ...labels.colLabels.map((l) => s('text', { class: 'axis', x: l.x, y: l.y, 'text-anchor': 'middle' }, l.text)));
  const rows = s(
    'g',
    {},
    ...labels.rowLabels.map((l) => s('text', { class: 'axis', x: l.x, y: l.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, l.text)),
  );
  const cells = s('g', {}, ...CELL_KINDS.map((kind) => s('path', { class: `cell ${kind}` })));
  // Each marker keeps its row; the group follows the grid's right edge.
  const markers = s('g', {}, ...markerPlaces(MAX_TOKENS, GRID).map((m) => s('circle', { class: 'marker', cx: 0, cy: m.cy, r: m.r })));
  const svg = s('svg', { role: 'img', viewBox: `0 0 ${FRAME.width} ${FRAME.height}`, width: FRAME.width, height: FRAME.height }, cols, rows, cells, markers);
  const frame = h('div', { class: 'frame' }, svg);
  const caption = h('p', { class: 'caption' });
  const outputs = h('p', { class: 'outputs-changed' });
  const same = h('p', { class: 'same muted' });
  const figure = h(
    'figure',
    { class: 'panel', dataset: { side: key } },
    h('h4', {}, title, ' ', h('span', { class: 'muted' }, flag)),
    frame,
    h('figcaption', {}, caption, outputs, same),
  );
  let labelTimer = null;
  const update = (data, changedKey) => {
    const layout = maskGridLayout(data.allowed, { ...GRID, changed: data.changed, changedKey });
    const changed = data.changed.flatMap((c, i) => (c ? [i] : []));
    const unchanged = data.changed.flatMap((c, i) => (c ? [] : [i]));
    const captionText = t('masks.pairs', { name, pairs: formatInteger(data.pairs, t.locale), total: formatInteger(layout.total, t.locale) });
    frameBox(frame, layout);
    // The description repeats every row: written at once the first time (the prerendered page has
    // it), then when the slider rests rather than on each step of a drag.
    const label = () => t('masks.figure', { caption: captionText, rows: describeRows(data.allowed, t).join('; '), positions: positionList(changed, t) });
    clearTimeout(labelTimer);
    if (svg.hasAttribute('aria-label')) labelTimer = setTimeout(() => svg.setAttribute('aria-label', label()), LABEL_REST_MS);
    else svg.setAttribute('aria-label', label());
    showFirst(cols, layout.n);
    showFirst(rows, layout.n);
    const paths = cellPaths(layout.cells);
    CELL_KINDS.forEach((kind, i) => {
      const path = cells.children[i];
      if (paths[kind]) path.setAttribute('d', paths[kind]);
      else path.removeAttribute('d');
    });
    markers.setAttribute('transform', `translate(${layout.markers[0]?.cx ?? 0} 0)`);
    showFirst(markers, layout.n);
    [...markers.children].forEach((marker, i) => marker.classList.toggle('changed', Boolean(layout.markers[i]?.changed)));
    caption.textContent = captionText;
    outputs.textContent = t('masks.changed', { positions: positionList(changed, t) });
    same.textContent = unchanged.length ? t('masks.unchanged', { positions: positionList(unchanged, t) }) : '';
    same.hidden = unchanged.length === 0;
  };
  return { figure, update };
}

/**
 * The two panels and a sentence, made once; `update(r)` shows one result of example_masks in them
 * and returns their nodes.
 */
export function masksResultView(t) {
  const sentence = h('p', { class: 'result' });
  const encoder = maskPanel('encoder', t('masks.encoderBlock'), t('masks.flagOff'), t);
  const decoder = maskPanel('decoder', t('masks.decoderBlock'), t('masks.flagOn'), t);
  const nodes = [
    sentence,
    h('div', { class: 'panels' }, encoder.figure, decoder.figure),
    h(
      'p',
      { class: 'legend muted' },
      h('span', { class: 'swatch allowed', 'aria-hidden': 'true' }),
      ` ${t('masks.legendAllowed')}  `,
      h('span', { class: 'swatch changed', 'aria-hidden': 'true' }),
      ` ${t('masks.legendChanged')}`,
    ),
  ];
  return (r) => {
    sentence.textContent = t('masks.sentence', { position: r.changed_position + 1, old: r.old_id, new: r.new_id });
    encoder.update(r.encoder, r.changed_position);
    decoder.update(r.decoder, r.changed_position);
    return nodes;
  };
}
