// <tb-masks tokens="5">: an encoder block and a decoder block side by side. Each grid shows which
// (query, key) pairs attention may use; choosing a token to change runs both blocks again on the
// changed input (example_masks, in the wasm) and marks the outputs that moved.
//
// Attributes: tokens (1 to 16, default 5), seed (whole number, default the lessons' seed).
// masksView() is also used by <tb-example name="masks">.

import { TbElement, h, resultRegion } from './base.js';
import { sheet } from './theme.js';
import { s } from '../charts/svg.js';
import { cellPaths, describeRows, maskGridLayout, positionList } from '../charts/mask-grid.js';
import { formatInteger } from '../format.js';
import { translator } from '../i18n.js';

const DEFAULT_TOKENS = 5;

export const MASKS_CSS = `
.masks .panels { display: flex; flex-wrap: wrap; gap: 1rem; }
.masks .panel { flex: 1 1 14rem; min-width: 0; }
.masks .panel h4 { margin: 0 0 0.25rem; font-size: 1rem; }
.masks svg { width: auto; max-width: 100%; }
.masks .cell.allowed { fill: var(--_attention); }
.masks .cell.blocked { fill: none; stroke: var(--_rule); stroke-width: 1; }
.masks .cell.changed-key.allowed { fill: var(--_feed-forward); }
.masks .axis { font-size: 11px; fill: var(--_muted); }
.masks .control { display: inline-flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.masks .marker { stroke: var(--_fg); stroke-width: 1.2; fill: none; }
.masks .marker.changed { fill: var(--_feed-forward); stroke: var(--_feed-forward); }
.masks .caption { font-weight: 600; }
.masks .control input[type="range"] { flex: 0 1 8rem; min-width: 5rem; }
.masks figure { margin: 0; }
.masks input[type="number"] { width: 5rem; }
.masks .legend { font-size: 0.85rem; }
.masks .swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; vertical-align: -0.05em; }
.masks .swatch.allowed { background: var(--_attention); }
.masks .swatch.changed { background: var(--_feed-forward); border-radius: 50%; }
`;

export const masksSheet = sheet(MASKS_CSS);

/**
 * The whole interactive view: a tokens control, the position to change, and both grids.
 * `n` tokens, `position` counted from 0 (null: the last token), `ids` the token ids the wasm uses
 * (for the option labels; from example_defaults().masks.ids).
 */
export function masksView({ uid, lib, n, position = null, seed, ids = [], t = translator('en') }) {
  let tokens = n;
  // The position the reader chose (null: the last token, whatever the count). Fewer tokens show the
  // last one they have, and the choice comes back with the count.
  let chosen = position;
  const shownPosition = (count) => Math.max(0, Math.min(chosen ?? count - 1, count - 1));

  const field = h('input', { type: 'number', id: `${uid}-tokens`, min: 1, max: 16, step: 1, value: tokens });
  const slider = h('input', { type: 'range', min: 1, max: 16, step: 1, value: tokens, 'aria-label': t('masks.slider') });
  const select = h('select', { id: `${uid}-position` });
  const region = resultRegion({ t });
  const showResult = masksResultView(t);

  function fillPositions() {
    const pos = shownPosition(tokens);
    select.replaceChildren(
      ...Array.from({ length: tokens }, (_, i) =>
        h('option', { value: String(i), selected: i === pos }, ids[i] === undefined ? `${i + 1}` : t('masks.option', { position: i + 1, id: ids[i] })),
      ),
    );
    select.value = String(pos);
  }

  /** Run both blocks for `count` tokens (the library checks the count) and show the result. */
  function show(count = tokens) {
    if (!Number.isFinite(count)) return region.fail(t('masks.typeWhole'));
    region.show(
      () => lib.example_masks(count, shownPosition(count), seed),
      (result) => {
        if (count !== tokens) {
          tokens = count;
          fillPositions();
        }
        return showResult(result);
      },
    );
  }

  field.addEventListener('input', () => {
    if (field.validity.badInput || field.value.trim() === '') return show(NaN);
    slider.value = field.value;
    show(Number(field.value));
  });
  slider.addEventListener('input', () => {
    field.value = slider.value;
    show(Number(slider.value));
  });
  select.addEventListener('change', () => {
    chosen = Number(select.value);
    show();
  });

  fillPositions();
  show();
  return h(
    'div',
    { class: 'masks' },
    h(
      'div',
      { class: 'controls' },
      h('span', { class: 'control' }, h('label', { htmlFor: field.id }, t('masks.tokens')), field, slider),
      h('span', { class: 'control' }, h('label', { htmlFor: select.id }, t('masks.position')), select),
    ),
    region.error,
    region.output,
  );
}

/** Makes `parent` hold exactly `n` children made by `make(i)`, keeping the first ones it has. */
function keepCount(parent, n, make) {
  while (parent.childElementCount > n) parent.lastElementChild.remove();
  for (let i = parent.childElementCount; i < n; i++) parent.append(make(i));
}

/**
 * One grid (encoder or decoder) whose elements outlive a result: a slider step changes the number
 * of tokens by one, so updating adds or removes a label and a marker and rewrites four paths and a
 * few texts, instead of drawing the whole figure again.
 */
function maskPanel(key, title, flag, t) {
  const name = t(key === 'encoder' ? 'masks.encoder' : 'masks.decoder');
  const cols = s('g', {});
  const rows = s('g', {});
  const cells = s('g', {});
  const markers = s('g', {});
  const svg = s('svg', { role: 'img' }, cols, rows, cells, markers);
  const caption = h('p', { class: 'caption' });
  const outputs = h('p', { class: 'outputs-changed' });
  const same = h('p', { class: 'same muted' });
  const figure = h(
    'figure',
    { class: 'panel', dataset: { side: key } },
    h('h4', {}, title, ' ', h('span', { class: 'muted' }, flag)),
    svg,
    h('figcaption', {}, caption, outputs, same),
  );
  const update = (data, changedKey) => {
    const layout = maskGridLayout(data.allowed, { cell: 28, gap: 3, gutter: 22, changed: data.changed, changedKey });
    const changed = data.changed.flatMap((c, i) => (c ? [i] : []));
    const unchanged = data.changed.flatMap((c, i) => (c ? [] : [i]));
    const captionText = t('masks.pairs', { name, pairs: formatInteger(data.pairs, t.locale), total: formatInteger(layout.total, t.locale) });
    svg.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
    svg.setAttribute('width', layout.width);
    svg.setAttribute('height', layout.height);
    svg.setAttribute('aria-label', t('masks.figure', { caption: captionText, rows: describeRows(data.allowed, t).join('; '), positions: positionList(changed, t) }));
    keepCount(cols, layout.n, (i) => {
      const l = layout.colLabels[i];
      return s('text', { class: 'axis', x: l.x, y: l.y, 'text-anchor': 'middle' }, l.text);
    });
    keepCount(rows, layout.n, (i) => {
      const l = layout.rowLabels[i];
      return s('text', { class: 'axis', x: l.x, y: l.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, l.text);
    });
    cells.replaceChildren(...Object.entries(cellPaths(layout.cells)).map(([kind, d]) => s('path', { class: `cell ${kind}`, d })));
    keepCount(markers, layout.markers.length, (i) => {
      const m = layout.markers[i];
      return s('circle', { class: 'marker', cx: m.cx, cy: m.cy, r: m.r });
    });
    layout.markers.forEach((m, i) => markers.children[i].setAttribute('class', `marker${m.changed ? ' changed' : ''}`));
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
function masksResultView(t) {
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

class TbMasks extends TbElement {
  static observedAttributes = ['tokens', 'seed'];
  static styles = [masksSheet];

  render(lib) {
    const defaults = lib.example_defaults();
    // Each attribute is checked on its own, so a bad one is named once and only it falls back.
    let seed = this.wholeAttr('seed', defaults.seed);
    const seedOk = this.attempt(() => (lib.example_masks(1, 0, seed), true), () => false);
    if (!seedOk) seed = defaults.seed;
    let n = this.wholeAttr('tokens', DEFAULT_TOKENS);
    const ok = this.attempt(() => (lib.example_masks(n, n - 1 >= 0 ? n - 1 : 0, seed), true), () => false);
    if (!ok) n = DEFAULT_TOKENS;
    this.shadowRoot.replaceChildren(
      h('h3', {}, this.t('masks.title')),
      masksView({ uid: this.uid, lib, n, seed, ids: defaults.masks.ids, t: this.t }),
    );
  }
}

customElements.get('tb-masks') || customElements.define('tb-masks', TbMasks);
