// The sequence-length control: a slider and a number field kept in step, both holding T itself.
// Keyboard: the slider moves by 1 with the arrow keys and by a tenth with Page Up/Down; the field
// takes any value typed. `onChange(T)` fires with the new T; the caller re-renders. `t`: the
// widget's translator (the label, when none is given, and the field's name; English without it).

import { h } from '../elements/base.js';
import { speakEnglish, translator } from '../i18n.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(panelsTexts);

export function seqLenControl({ uid, t = translator('en'), label = t('panels.seqLen'), min, max, value, onChange }) {
  const sliderId = `${uid}-seq-slider`;
  const fieldId = `${uid}-seq-field`;
  const slider = h('input', { type: 'range', id: sliderId, min, max, step: 1, value, 'aria-label': label });
  const field = h('input', { type: 'number', id: fieldId, min, max, step: 1, value, 'aria-label': t('panels.seqLenField', { label }) });
  slider.addEventListener('input', () => {
    field.value = slider.value;
    onChange(Number(slider.value));
  });
  field.addEventListener('change', () => {
    // Out of range or not a number: the library says so; the slider follows what it can show.
    slider.value = field.value;
    onChange(field.value === '' ? NaN : Number(field.value));
  });
  return h('div', { class: 'seq-len controls' }, h('label', { htmlFor: fieldId }, label), slider, field);
}
