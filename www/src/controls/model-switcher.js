// The analytic widgets' model switcher: the presets, the page's own model when an author gave one
// (a config.json in `model` or `config-src`), the reader's model once they have given one, and
// "Your model…", which opens a panel to paste a config.json, drop the file or pick it. The library
// reads the text; a file it refuses gets its message (which names the problem, and the supported
// families for an unknown one) and the model shown stays. The reader's model is kept for this page
// (models/your-model.js) and offered by every switcher on it. `t`: the widget's translator (its
// texts, and the numbers in its locale; English without it).
//
//   const switcher = modelSwitcher({ uid, t, lib, model, page, onPick });
//   switcher.element   // the label, the select and the panel
//   switcher.off()     // stop following the saved model (the widget's release)
//   onPick(model)      // a preset's name or a config.json's text; null when the reader's model it
//                      // showed is forgotten (back to the author's model)

import { errorText, h } from '../elements/base.js';
import { speakEnglish, translator } from '../i18n.js';
import { dropPanelCss, dropZone } from './drop-zone.js';
import { sheet } from '../elements/theme.js';
import { clipText } from '../attributes.js';
import { formatBytes, formatCompact } from '../format.js';
import { CONFIG_LIMIT, forgetModel, onModelSaved, saveModel, savedModel } from '../models/your-model.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(panelsTexts);

const LOAD = '(load)'; // the "Your model…" option: never a preset name (nor, like the others, a NUL, which HTML turns into U+FFFD)
const YOURS = '(yours)';
const PAGE = '(page)';

const CSS = `${dropPanelCss('.your-model')}
.model-control select { max-width: 100%; min-width: 0; }
.your-model { flex: 1 1 100%; }
.your-model textarea { box-sizing: border-box; width: 100%; min-height: 6rem; font-family: var(--_mono); font-size: 0.85rem; }
.your-model .row { margin-top: 0.4rem; }
`;

/** The switcher's stylesheet, for the styles of a widget that shows one. */
export const modelSwitcherSheet = sheet(CSS);

/** What a config.json is called in the switcher: its name, with its size when the name is only a family's. */
export function modelLabel(report) {
  const label = report.config.label || report.model;
  return label === report.model ? `${label} (${formatCompact(report.total_params)})` : label;
}

export function modelSwitcher({ uid, t = translator('en'), lib, model, page = null, onPick }) {
  const { locale } = t;
  const selectId = `${uid}-model`;
  const panelId = `${uid}-your-model`;
  const presets = lib.presets();
  const isPreset = (m) => presets.some((p) => p.name === m);
  let shown = model; // what the widget shows: a preset's name or a config's text
  // The author's config.json (page: their model, when it is not a preset), if the library reads it.
  let pageModel = null;
  if (page !== null && !isPreset(page)) {
    try {
      pageModel = { text: page, label: labelOf(lib, page) };
    } catch {
      pageModel = null; // the widget has said why, and shows its default
    }
  }

  const select = h('select', { id: selectId, 'aria-controls': panelId });
  const fill = () => {
    const saved = savedModel();
    const options = presets.map((p) => h('option', { value: p.name }, p.label));
    if (pageModel) options.push(h('option', { value: PAGE }, pageModel.label));
    if (saved) options.push(h('option', { value: YOURS }, t('panels.yourModelOption', { label: clipText(saved.label, 60) })));
    options.push(h('option', { value: LOAD }, t('panels.yourModelLoad')));
    select.replaceChildren(...options);
    select.value = valueOf(shown);
  };
  const valueOf = (m) => (isPreset(m) ? m : pageModel && m === pageModel.text ? PAGE : YOURS);
  const modelOf = (value) => (value === PAGE ? pageModel.text : value === YOURS ? savedModel()?.text : value);

  // The panel: paste, drop or pick; the library decides whether it is a model it can count.
  const textarea = h('textarea', { id: `${panelId}-text`, spellcheck: false, autocomplete: 'off', 'aria-describedby': `${panelId}-help` });
  const file = h('input', { type: 'file', id: `${panelId}-file`, accept: '.json,application/json' });
  const message = h('p', { class: 'error', role: 'alert', hidden: true });
  const forget = h('button', { type: 'button', hidden: !savedModel() }, t('panels.forgetModel'));
  const panel = h(
    'div',
    { class: 'your-model', id: panelId, role: 'group', 'aria-label': t('panels.yourModel'), hidden: true },
    h('p', { id: `${panelId}-help` }, t('panels.modelHelp')),
    h('label', { htmlFor: textarea.id, class: 'visually-hidden' }, t('panels.configText')),
    textarea,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'primary', onclick: () => use(textarea.value) }, t('panels.showModel')),
      h('label', { htmlFor: file.id, class: 'visually-hidden' }, t('panels.configFile')),
      file,
      h('button', { type: 'button', onclick: close }, t('panels.cancel')),
      forget,
    ),
    message,
  );

  // The panel opens under the select without taking the focus (arrowing through a closed select
  // fires change at each option); closing it hands the focus back to the select.
  function open() {
    panel.hidden = false;
    message.hidden = true;
    select.value = valueOf(shown);
  }
  function close() {
    panel.hidden = true;
    select.value = valueOf(shown);
    select.focus({ preventScroll: true });
  }
  function fail(text) {
    message.textContent = t('panels.modelStays', { problem: text });
    message.hidden = false;
  }
  /** Checks a config's text with the library; shows the model it describes, or says why not. */
  function use(text) {
    if (text.trim() === '') return fail(t('panels.pasteFirst'));
    const size = new Blob([text]).size;
    if (size > CONFIG_LIMIT) return fail(t('panels.textTooLarge', { size: formatBytes(size, locale), limit: formatBytes(CONFIG_LIMIT, locale) }));
    let label;
    try {
      label = labelOf(lib, text);
    } catch (err) {
      // The problem, and what the page reads (the library's message may already list the families).
      const message = errorText(err, t);
      const names = lib.config_families();
      // A message that already names every family (in whatever list the language writes) says it all.
      const listed = names.every((name) => message.includes(name));
      return fail(listed ? t('panels.libraryProblem', { message }) : t('panels.familiesRead', { message, families: names.join(', ') }));
    }
    const kept = saveModel({ text, label });
    shown = text;
    fill();
    if (kept) close();
    else message.textContent = t('panels.modelNotKept');
    message.hidden = kept;
    onPick(text);
  }
  async function useFile(files) {
    const list = [...files];
    const chosen = list.find((f) => f.name === 'config.json') ?? list.find((f) => /\.json$/i.test(f.name)) ?? list[0];
    if (!chosen) return;
    if (chosen.size > CONFIG_LIMIT) {
      return fail(t('panels.configFileTooLarge', { name: clipText(chosen.name), size: formatBytes(chosen.size, locale) }));
    }
    let text;
    try {
      text = await chosen.text();
    } catch (err) {
      return fail(t('panels.fileUnreadable', { name: clipText(chosen.name), error: errorText(err, t) }));
    }
    use(text);
  }

  select.addEventListener('change', () => {
    if (select.value === LOAD) return open();
    panel.hidden = true;
    shown = modelOf(select.value);
    onPick(shown);
  });
  file.addEventListener('change', () => useFile(file.files).finally(() => (file.value = '')));
  forget.addEventListener('click', () => forgetModel());
  dropZone(panel, (data) => useFile(data?.files ?? []));

  // Another switcher saved or forgot a model: offer it here too; if this one showed the forgotten
  // model, the widget goes back to its author's.
  const off = onModelSaved(() => {
    forget.hidden = !savedModel();
    if (valueOf(shown) === YOURS && savedModel()?.text !== shown) {
      shown = savedModel()?.text ?? null;
      onPick(shown); // null: the widget goes back to its author's model
    }
    fill();
  });
  fill();

  return {
    element: h('div', { class: 'controls model-control' }, h('label', { htmlFor: selectId }, t('panels.model')), select, panel),
    select,
    off,
  };
}

/** The switcher's name for a model the library can count (throws the library's message if not). */
function labelOf(lib, text) {
  return modelLabel(lib.count(text, 1, 1));
}
