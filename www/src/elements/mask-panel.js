// The two grids of <tb-masks> (encoder and decoder) and the sentence above them, built once and
// updated in place on every step of the tokens slider.
//
// Each grid is drawn once at its largest, MAX_TOKENS tokens: the 16 labels of each axis and the
// cells of all 256 pairs (a region per kind, filled with a pattern of one rounded square per cell;
// a key's column highlighted the first time it is the changed one). A grid of n tokens is that
// drawing's top left corner, shown by a box sized from n (the rest is clipped), and its markers
// stand in a column of their own beside the box, clipped to the same height. A step of the slider
// therefore changes no shape: it resizes the box, moves the highlight to the changed token's
// column (a class on two paths) and colours the markers. Before it keeps the drawing, each step
// checks that the corner shown is what the wasm returned for n tokens, and draws again from that
// result if not, so the cells on screen are always the current result's.

import { h } from './dom-parts.js';
import { s } from '../charts/svg.js';
import { axisLabels, describeRows, isCorner, maskGridSize, markerPlaces, positionList, regionPath, roundedSquare } from '../charts/mask-grid.js';
import { formatInteger } from '../format.js';
import { speakEnglish } from '../i18n.js';
import masksTexts from '../locales/en/masks.js';

speakEnglish(masksTexts);

/** The most tokens example_masks takes (the lessons' sequence, MASK_IDS in the crate). */
export const MAX_TOKENS = 16;

// Small enough that the largest grid and its markers (265 x 244) fit a 320 px phone's panel (270 px)
// unscaled, so the labels keep their 11 px; a two-digit label (12.6 px at 11 px in the system
// sans-serif) still leaves a gap in a 14 px column.
const GRID = { cell: 14, gap: 2, gutter: 20 };
const FULL = maskGridSize(MAX_TOKENS, GRID); // the drawing: 244 x 244
const WITH_MARKERS = maskGridSize(MAX_TOKENS, { ...GRID, markers: true }); // 265 x 244

/** Until the slider rests this long (ms), a grid's long spoken description waits. */
const LABEL_REST_MS = 150;

/**
 * The frame's styles. --_frame is the width of the largest grid with its markers, as the panel
 * allows (at most its own width, read from the frame's wrapper: a container of its own, not the
 * panel, since a container's styles are looked at again whenever anything in it is laid out, the
 * captions' new texts included: 0.6 ms a step); the drawing and the marker column are scaled from
 * it, and the box showing n tokens gets its width and height from frameBox.
 */
export const FRAME_CSS = `
.masks .frame-wrap { container-type: inline-size; }
.masks .frame { display: flex; align-items: flex-start; overflow: hidden; max-width: 100%; --_frame: min(${WITH_MARKERS.width}px, 100cqi); }
.masks .frame .grid { overflow: hidden; flex: none; }
.masks .frame svg { display: block; height: auto; max-width: none; flex: none; }
.masks .frame .grid svg { width: calc(var(--_frame) * ${FULL.width} / ${WITH_MARKERS.width}); }
.masks .frame svg.markers { width: calc(var(--_frame) * ${WITH_MARKERS.width - FULL.width} / ${WITH_MARKERS.width}); }
.masks .cells.changed-key:not(.shown) { visibility: hidden; }
`;

/**
 * The box showing a grid of n tokens: the frame as tall as the grid, the grid's part as wide, in the
 * drawing's proportions. Set through the CSSOM, which a strict style-src allows (the prerender
 * writes them as a rule), and on the boxes alone: a custom property set on them would be inherited
 * by every element of the SVG, and restyling those lays out all its text again.
 */
function frameBox(frame, grid, { width, height }) {
  frame.style.height = `calc(var(--_frame) * ${height} / ${WITH_MARKERS.width})`;
  grid.style.width = `calc(var(--_frame) * ${width} / ${WITH_MARKERS.width})`;
}

/** Makes `parent` hold exactly `n` children made by `make(i)`, keeping the first ones it has. */
export function keepCount(parent, n, make) {
  while (parent.childElementCount > n) parent.lastElementChild.remove();
  for (let i = parent.childElementCount; i < n; i++) parent.append(make(i));
}

/**
 * One grid (encoder or decoder) whose elements outlive a result, drawn from `full` (the allowed
 * pairs of MAX_TOKENS tokens). A step of the slider resizes its box, shows one column's highlight
 * and colours the markers; the drawing changes only if a result's pairs are not its corner.
 */
function maskPanel(key, title, flag, t, full = []) {
  const name = t(key === 'encoder' ? 'masks.encoder' : 'masks.decoder');
  const labels = axisLabels(MAX_TOKENS, GRID);
  const cols = labels.colLabels.map((l) => s('text', { class: 'axis', x: l.x, y: l.y, 'text-anchor': 'middle' }, l.text));
  const rows = labels.rowLabels.map((l) => s('text', { class: 'axis', x: l.x, y: l.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, l.text));
  // Each kind of cell is a pattern of one rounded square per cell, filling a region of whole cells.
  const tile = roundedSquare(GRID.gap / 2, GRID.gap / 2, GRID.cell - GRID.gap);
  const patternId = (kind) => `masks-${key}-${kind.replace(' ', '-')}`;
  const pattern = (kind) =>
    s('pattern', { id: patternId(kind), patternUnits: 'userSpaceOnUse', x: GRID.gutter, y: GRID.gutter, width: GRID.cell, height: GRID.cell }, s('path', { class: `cell ${kind}`, d: tile }));
  const kinds = ['allowed', 'blocked', 'allowed changed-key'];
  const region = (kind, cls) => s('path', { class: `cells ${cls}`, fill: `url(#${patternId(kind)})` });
  const allowedCells = region('allowed', 'allowed');
  const blockedCells = region('blocked', 'blocked');
  // One highlight per key: the allowed cells of its column, drawn over the others; one is shown.
  const highlights = Array.from({ length: MAX_TOKENS }, () => region('allowed changed-key', 'changed-key'));
  const svg = s(
    'svg',
    { role: 'img', viewBox: `0 0 ${FULL.width} ${FULL.height}`, width: FULL.width, height: FULL.height },
    s('defs', {}, ...kinds.map(pattern)),
    ...cols,
    ...rows,
    allowedCells,
    blockedCells,
    ...highlights,
  );
  const places = markerPlaces(MAX_TOKENS, GRID);
  const markers = places.map((m) => s('circle', { class: 'marker', cx: m.cx, cy: m.cy, r: m.r }));
  // The marker column, the drawing's right margin (spoken as part of the grid's description).
  const markerColumn = s(
    'svg',
    { class: 'markers', 'aria-hidden': 'true', viewBox: `${FULL.width} 0 ${WITH_MARKERS.width - FULL.width} ${FULL.height}`, width: WITH_MARKERS.width - FULL.width, height: FULL.height },
    ...markers,
  );
  const grid = h('div', { class: 'grid' }, svg);
  const frame = h('div', { class: 'frame' }, grid, markerColumn);
  // The container the frame is sized from (FRAME_CSS): the panel's width, without the captions.
  const frameWrap = h('div', { class: 'frame-wrap' }, frame);
  const caption = h('p', { class: 'caption' });
  const outputs = h('p', { class: 'outputs-changed' });
  const same = h('p', { class: 'same muted' });
  const figure = h(
    'figure',
    { class: 'panel', dataset: { side: key } },
    h('h4', {}, title, ' ', h('span', { class: 'muted' }, flag)),
    frameWrap,
    h('figcaption', {}, caption, outputs, same),
  );

  let drawn = []; // the allowed pairs the cells show
  const draw = (allowed) => {
    const set = (path, d) => (d ? path.setAttribute('d', d) : path.removeAttribute('d'));
    set(allowedCells, regionPath(allowed, true, GRID));
    set(blockedCells, regionPath(allowed, false, GRID));
    // A column's highlight is drawn the first time its key is the changed one.
    highlights.forEach((path) => path.removeAttribute('d'));
    drawn = allowed;
  };
  const highlight = (changedKey) => {
    const path = highlights[changedKey];
    if (path && !path.hasAttribute('d')) path.setAttribute('d', regionPath(drawn, true, { ...GRID, key: changedKey }));
    highlights.forEach((p, k) => p.classList.toggle('shown', k === changedKey));
  };
  draw(full);

  let labelTimer = null;
  const update = (data, changedKey) => {
    const n = data.allowed.length;
    if (!isCorner(data.allowed, drawn)) draw(data.allowed);
    const changed = data.changed.flatMap((c, i) => (c ? [i] : []));
    const unchanged = data.changed.flatMap((c, i) => (c ? [] : [i]));
    const captionText = t('masks.pairs', { name, pairs: formatInteger(data.pairs, t.locale), total: formatInteger(n * n, t.locale) });
    frameBox(frame, grid, maskGridSize(n, GRID));
    // The description repeats every row: written at once the first time (the prerendered page has
    // it), then when the slider rests rather than on each step of a drag.
    const label = () => t('masks.figure', { caption: captionText, rows: describeRows(data.allowed, t).join('; '), positions: positionList(changed, t) });
    clearTimeout(labelTimer);
    if (svg.hasAttribute('aria-label')) labelTimer = setTimeout(() => svg.setAttribute('aria-label', label()), LABEL_REST_MS);
    else svg.setAttribute('aria-label', label());
    highlight(changedKey);
    markers.forEach((marker, q) => marker.classList.toggle('changed', q < n && Boolean(data.changed[q])));
    caption.textContent = captionText;
    outputs.textContent = t('masks.changed', { positions: positionList(changed, t) });
    same.textContent = unchanged.length ? t('masks.unchanged', { positions: positionList(unchanged, t) }) : '';
    same.hidden = unchanged.length === 0;
  };
  return { figure, update };
}

/**
 * The two panels and a sentence, made once and drawn from `full` (example_masks for MAX_TOKENS
 * tokens; null: from the first result); `update(r)` shows one result of example_masks in them and
 * returns their nodes.
 */
export function masksResultView(t, full = null) {
  const sentence = h('p', { class: 'result' });
  const encoder = maskPanel('encoder', t('masks.encoderBlock'), t('masks.flagOff'), t, full?.encoder.allowed);
  const decoder = maskPanel('decoder', t('masks.decoderBlock'), t('masks.flagOn'), t, full?.decoder.allowed);
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
