// The lesson page's own table: the presets in the first section (which `make dist` prerenders:
// data-prerender in index.html). Every number comes from the wasm facade; this file only puts them in
// the table, formatted. Imported by main.js (the page served from www/) and, in the deployable site,
// as the page's own module beside the autoloader (scripts/site.mjs), which brings the widgets.
import { library } from './wasm.js';
import { formatCompact, formatInteger } from './format.js';
import { langOf, loadLanguage, resolveLocale, speakEnglish, translator } from './i18n.js';
import { labelCells, tableCardsSheet } from './elements/table-cards.js';
import pageTexts from './locales/en/page.js';

speakEnglish(pageTexts);

// Parameters at a short sequence: the count does not depend on it, but the facade asks for one.
const SEQ_LEN = 8;
const BATCH = 1;

// Only on a page: imported where there is no document (Node, a site's build), it does nothing.
if (typeof document !== 'undefined') {
  // The page's language (its <html lang>): the table's numbers and the status line are written in it.
  const locale = resolveLocale(langOf(document.documentElement));
  await loadLanguage(locale).catch(() => {});
  const t = translator(locale);

  const table = document.getElementById('models');
  const status = document.getElementById('models-status');

  function cell(tag, text, className) {
    const el = document.createElement(tag);
    el.textContent = text;
    if (className) el.className = className;
    return el;
  }

  function modelCell(preset) {
    const th = document.createElement('th');
    th.scope = 'row';
    th.append(preset.label, document.createElement('br'), cell('code', preset.name));
    return th;
  }

  function parametersCell(lib, preset) {
    // `count` arrives with the counting module; until then the table shows shapes only.
    if (typeof lib.count !== 'function') return cell('td', '—', 'num');
    const { total_params } = lib.count(preset.name, SEQ_LEN, BATCH);
    const td = cell('td', formatInteger(total_params, locale), 'num');
    td.append(cell('span', ` (${formatCompact(total_params, locale)})`, 'compact'));
    return td;
  }

  function render(lib) {
    const tbody = table.tBodies[0];
    const rows = lib.presets().map((preset) => {
      const tr = document.createElement('tr');
      tr.dataset.model = preset.name;
      tr.append(
        modelCell(preset),
        cell('td', formatInteger(preset.n_layers, locale), 'num'),
        cell('td', formatInteger(preset.d_model, locale), 'num'),
        cell('td', formatInteger(preset.n_heads, locale), 'num'),
        cell('td', formatInteger(preset.n_kv_heads, locale), 'num'),
        parametersCell(lib, preset),
      );
      return tr;
    });
    tbody.replaceChildren(...rows);
    labelCells(table); // for the card layout on narrow screens
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, tableCardsSheet];
    table.hidden = false;
    status.textContent = t('page.models', { count: rows.length });
    status.classList.add('done');
    // For make bench: when the first screen's one table of numbers was filled.
    performance.mark('tb-presets-table');
  }

  // A prerendered page (make dist) came with the table filled in, its card layout's sheet linked: the
  // same rows the render would write. Writing them again, and adopting the sheet on the document,
  // cost a layout of the whole lesson (a 110 ms task on this machine, four times that on a phone).
  const prerendered = table.tBodies[0].rows.length > 0;
  try {
    const lib = await library('analytic');
    if (prerendered) performance.mark('tb-presets-table');
    else render(lib);
  } catch (err) {
    // A prerendered page (make dist) came with the table filled in: it stays, as built.
    status.textContent = t(table.tBodies[0].rows.length ? 'page.libraryFailedPrerendered' : 'page.libraryFailed', { error: err.message });
    status.classList.remove('done');
    status.classList.add('error');
    console.error(err);
  }
}
