// What the experiment widgets (<tb-ablation>, <tb-stream>) share: the model attribute, the model
// switcher that learns of a model trained on the page, and GPT-2 small's reported figures.

import { h } from './base.js';
import { MODEL_LABELS } from '../train/models.js';
import { latestTrained, onTrained } from '../train/trained.js';

/** The `model` attribute: six-blocks (default) or shipped; anything else is noted and replaced. */
export function shippedModelAttr(element) {
  const source = element.attr('model', 'six-blocks');
  if (source === 'six-blocks' || source === 'shipped') return source;
  element.warn(`model "${source.slice(0, 24)}" is not a shipped model: choose six-blocks or shipped; using six-blocks`);
  return 'six-blocks';
}

/**
 * A labelled model switcher (the two shipped models and "the model I trained", enabled once a run
 * on the page has finished). `onPick(source)` runs when the reader picks one, and again when a new
 * model is trained while "the model I trained" is picked. Returns { control, select, off }.
 */
export function modelSwitcher(uid, source, onPick) {
  const id = `${uid}-model`;
  const select = h(
    'select',
    { id },
    ['six-blocks', 'shipped', 'trained'].map((k) => h('option', { value: k, disabled: k === 'trained' && !latestTrained() }, MODEL_LABELS[k])),
  );
  select.value = source;
  select.addEventListener('change', () => onPick(select.value));
  const off = onTrained(() => {
    select.querySelector('option[value="trained"]').disabled = false;
    if (select.value === 'trained') onPick('trained');
  });
  return { control: h('div', { class: 'controls' }, h('label', { htmlFor: id }, 'Model'), select), select, off };
}

/** GPT-2 small's reported figures (`items` of reported_gpt2_small()), labelled as quoted. */
export function reportedFigure(source, items) {
  return h(
    'figure',
    { class: 'reported' },
    h('figcaption', {}, `For comparison: ${source}.`),
    h('ul', {}, items.map((r) => h('li', {}, `${r.what}: ${r.value}`))),
  );
}

export const REPORTED_CSS = `
.reported { margin: 0.75rem 0 0; padding: 0.5rem 0.75rem; border-left: 3px solid var(--_rule); }
.reported figcaption { font-size: 0.9rem; color: var(--_muted); }
.reported ul { margin: 0.25rem 0 0; padding-left: 1.2rem; }
`;
