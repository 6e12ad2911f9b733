// <tb-masks tokens="5">: an encoder block and a decoder block side by side. Each grid shows which
// (query, key) pairs attention may use; choosing a token to change runs both blocks again on the
// changed input (example_masks, in the wasm) and marks the outputs that moved.
//
// Attributes: tokens (1 to 16, default 5), seed (whole number, default the lessons' seed).
// masksView() is also used by <tb-example name="masks">.

import { TbElement, h, resultRegion } from './base.js';
import { defines } from './define.js';
import { sheet } from './theme.js';
import { FRAME_CSS, MAX_TOKENS, keepCount, masksResultView } from './mask-panel.js';
import { masksResults } from './masks-results.js';
import { speakEnglish, translator } from '../i18n.js';
import masksTexts from '../locales/en/masks.js';

speakEnglish(masksTexts);

const DEFAULT_TOKENS = 5;

export const MASKS_CSS = `
.masks .panels { display: flex; flex-wrap: wrap; gap: 1rem; }
.masks .panel { flex: 1 1 14rem; min-width: 0; }
.masks .panel h4 { margin: 0 0 0.25rem; font-size: 1rem; }
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
${FRAME_CSS}`;

export const masksSheet = sheet(MASKS_CSS);

/**
 * example_masks for MAX_TOKENS tokens, from which the grids are drawn once (each count shows a
 * corner of them, mask-panel.js); null if the library refuses the seed (then the first result
 * draws them, and show() names the problem).
 */
function largestMasks(results) {
  try {
    return results.get(MAX_TOKENS, MAX_TOKENS - 1);
  } catch {
    return null;
  }
}

/**
 * The whole interactive view: a tokens control, the position to change, and both grids.
 * `n` tokens, `position` counted from 0 (null: the last token), `ids` the token ids the wasm uses
 * (for the option labels; from example_defaults().masks.ids), `results` the seed's kept results
 * (masks-results.js; the element passes the one it checked its attributes with), `full` the result
 * the grids are drawn from (largestMasks).
 */
export function masksView({ uid, lib, n, position = null, seed, ids = [], t = translator('en'), results = masksResults(lib, seed), full = largestMasks(results) }) {
  let tokens = n;
  // The position the reader chose (null: the last token, whatever the count). Fewer tokens show the
  // last one they have, and the choice comes back with the count.
  let chosen = position;
  const shownPosition = (count) => Math.max(0, Math.min(chosen ?? count - 1, count - 1));

  const field = h('input', { type: 'number', id: `${uid}-tokens`, min: 1, max: MAX_TOKENS, step: 1, value: tokens });
  const slider = h('input', { type: 'range', min: 1, max: MAX_TOKENS, step: 1, value: tokens, 'aria-label': t('masks.slider') });
  const select = h('select', { id: `${uid}-position` });
  const region = resultRegion({ t });
  const showResult = masksResultView(t, full);
  /** Every count the slider reaches, at the position it would show: asked for in idle time. */
  const prefetch = () => results.prefetch(Array.from({ length: MAX_TOKENS }, (_, i) => [i + 1, shownPosition(i + 1)]));

  /** One option per token (those already there are kept: their labels do not depend on the count). */
  function fillPositions() {
    const pos = shownPosition(tokens);
    keepCount(select, tokens, (i) => h('option', { value: String(i) }, ids[i] === undefined ? `${i + 1}` : t('masks.option', { position: i + 1, id: ids[i] })));
    select.value = String(pos);
  }

  /** Run both blocks for `count` tokens (the library checks the count) and show the result. */
  function show(count = tokens) {
    if (!Number.isFinite(count)) return region.fail(t('masks.typeWhole'));
    region.show(
      () => results.get(count, shownPosition(count)),
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
    prefetch();
  });

  fillPositions();
  show();
  prefetch();
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

/**
 * @summary An encoder block and a decoder block side by side: which (query, key) pairs each may
 *   use, and which outputs move when one token changes.
 *
 * @attr {number} [tokens=5] - The tokens in the input, 1 to 16.
 * @attr {number} [seed=0] - The blocks' seed, a whole number.
 */
class TbMasks extends TbElement {
  static observedAttributes = ['tokens', 'seed'];
  static styles = [masksSheet];

  render(lib) {
    const defaults = lib.example_defaults();
    // Each attribute is checked on its own, so a bad one is named once and only it falls back.
    let seed = this.wholeAttr('seed', defaults.seed);
    let results = masksResults(lib, seed);
    // The seed is checked by the call the grids are drawn from.
    let full = this.attempt(() => results.get(MAX_TOKENS, MAX_TOKENS - 1), () => null);
    if (full === null) {
      seed = defaults.seed;
      results = masksResults(lib, seed);
      full = largestMasks(results);
    }
    // The count is checked by the call its first render shows (kept: the view does not ask again).
    let n = this.wholeAttr('tokens', DEFAULT_TOKENS);
    const ok = this.attempt(() => (results.get(n, Math.max(0, n - 1)), true), () => false);
    if (!ok) n = DEFAULT_TOKENS;
    this.shadowRoot.replaceChildren(
      h('h3', {}, this.t('masks.title')),
      masksView({ uid: this.uid, lib, n, seed, ids: defaults.masks.ids, t: this.t, results, full }),
    );
  }
}

if (defines('tb-masks', TbMasks)) customElements.define('tb-masks', TbMasks);
