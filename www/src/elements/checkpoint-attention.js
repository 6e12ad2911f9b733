// <tb-attention> on a real model: weights-src a Hugging Face checkpoint folder (GPT-2, Llama,
// Mistral, Qwen2), opened in the checkpoint worker (../checkpoint/client.js). The text the reader
// types, as the checkpoint's own tokenizer cuts it; a chooser over every block; for the chosen block
// a map per head (queries down, keys across, the causal triangle empty), a slider over the queries
// for the keyboard and screen readers; each head's table ("Block B, head H", weights to three
// decimals) in a disclosure; and the ten likeliest next tokens. The numbers are the worker's wasm:
// the decoder `tblock inspect` runs natively.
//
//   const real = checkpointAttention(element)    // held by the element across its renders
//   real.render(files, switcher)   // files: startingModel's { name, href }, or the reader's
//                        // { name, href, files } (models/your-checkpoint.js); switcher: the model
//                        // switcher to show above (the reader's), or null. The nodes to show, or
//                        // null when the checkpoint failed (the element warns and runs TinyGPT instead)
//   real.leave()         // the element shows another model, or left the page: a checkpoint it alone
//                        // was loading is cancelled

import { h, errorText } from './base.js';
import { clipText } from '../attributes.js';
import { WEIGHT_CLASSES, attentionMapLayout, strongestKeys } from '../charts/attention-map.js';
import { mapCanvas } from '../charts/map-canvas.js';
import { formatFixed, formatInteger } from '../format.js';
import { headTable } from './attention-tables.js';
import { FIRST_TEXT, PIECES_CSS, checkpointNote, showPiece, shownCheckpoint, typedText } from './checkpoint-shown.js';
import { rampLegend } from './heatmap-figure.js';
import { problemText } from '../models/worded.js';
import { speakEnglish } from '../i18n.js';
import attentionTexts from '../locales/en/attention.js';
import checkpointTexts from '../locales/en/checkpoint.js';

speakEnglish(attentionTexts, checkpointTexts);

/** The styles of the real model's view, besides attention-view.js's. */
export const CHECKPOINT_ATTENTION_CSS = `${PIECES_CSS}.next { font-family: var(--_mono); font-size: 0.85rem; }
.next li { white-space: pre; }
`;


/** The map of T positions: this many px across at most, each cell 3 to 12 px. */
const MAP_PX = 144;
const cellFor = (n) => Math.max(3, Math.min(12, Math.floor(MAP_PX / n)));
const NO_GUTTER = { left: 0, top: 0 };

export function checkpointAttention(element) {
  let block = 0; // the block shown, kept across renders
  let head = 0; // the head whose query note and table are read out
  let query = null; // the query position (null: the last)
  const shown = shownCheckpoint(element);
  const typed = typedText(element, FIRST_TEXT);
  return {
    leave: shown.leave,
    loading: shown.loading,
    render(files, switcher = null) {
      // Busy while the checkpoint loads (shown.open) and while a text is read, so a script or a
      // test can wait for the maps to settle.
      const { c, nodes } = shown.open(files, element.t('attention.title'), switcher);
      if (!c) return nodes;
      return readyView(element, c, files, switcher, typed, {
        get: () => ({ block, head, query }),
        set(v) {
          if ('block' in v) block = v.block;
          if ('head' in v) head = v.head;
          if ('query' in v) query = v.query;
        },
      });
    },
  };
}

function readyView(element, c, files, switcher, typed, chosen) {
  const { t, locale } = element;
  const { info } = c;
  const config = info.config;
  const layers = config.n_layers;
  const heads = config.n_heads;
  const textId = `${element.uid}-real-text`;
  const blockId = `${element.uid}-real-block`;
  const input = h('input', { id: textId, type: 'text', value: typed.value(), spellcheck: false, autocomplete: 'off', 'aria-describedby': `${textId}-help` });
  const help = h('span', { id: `${textId}-help`, class: 'muted' }, t('checkpoint.textHelp', { longest: formatInteger(info.longest_text, locale) }));
  const select = h(
    'select',
    { id: blockId },
    Array.from({ length: layers }, (_, b) => h('option', { value: String(b) }, t('attention.block', { block: b }))),
  );
  select.value = String(Math.min(chosen.get().block, layers - 1));
  const note = checkpointNote(files, info, t, c);
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const stale = h('p', { class: 'stale', hidden: true });
  const status = h('p', { class: 'muted', role: 'status' });
  const summary = h('p', { class: 'result' });
  const pieces = h('ol', { class: 'pieces', 'aria-label': t('checkpoint.tokens') });
  const maps = h('div', { class: 'maps' });
  const queryNote = h('p', { class: 'query-note' });
  const tablesBody = h('div', { class: 'tables-body' });
  const tables = h('details', { class: 'tables' }, h('summary', {}, t('checkpoint.tablesSummary')), tablesBody);
  const nextList = h('ol', { class: 'next' });
  const next = h('section', { class: 'next-tokens' }, h('h4', {}, t('checkpoint.nextTitle')), nextList);
  const legend = rampLegend(WEIGHT_CLASSES, t('attention.legendLow'), t('attention.legendHigh'));
  const output = h('div', { class: 'output attention-maps', hidden: true }, summary, legend, pieces, maps, queryNote, tables, next);
  let result = null; // the last result shown
  let latest = 0;

  const figures = Array.from({ length: heads }, (_, j) => headFigure(j));

  function headFigure(j) {
    const map = mapCanvas({ class: 'weights', role: 'slider', tabindex: j === 0 ? 0 : -1, 'aria-valuemin': 1 });
    const figure = h('figure', { class: 'head-map', dataset: { head: j } }, h('figcaption', {}, t('attention.head', { head: j })), h('div', { class: 'map-box' }, map.canvas));
    let rows = [];
    let spec = null;
    const el = map.canvas;
    const go = (q) => setQuery(Math.max(0, Math.min(rows.length - 1, q)), j);
    el.addEventListener('keydown', (e) => {
      const q = chosen.get().query ?? rows.length - 1;
      const moves = { ArrowUp: q - 1, ArrowDown: q + 1, Home: 0, End: rows.length - 1, PageUp: q - 5, PageDown: q + 5 };
      if (e.key in moves) go(moves[e.key]);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') focusHead(j + (e.key === 'ArrowLeft' ? -1 : 1));
      else return;
      e.preventDefault();
    });
    el.addEventListener('click', (e) => {
      if (!spec) return;
      const box = el.getBoundingClientRect();
      go(Math.floor((e.clientY - box.top) / spec.cell));
    });
    return {
      figure,
      canvas: el,
      get rows() {
        return rows;
      },
      update(r, b, q) {
        const n = r.ids.length;
        const cell = cellFor(n);
        const layout = attentionMapLayout({ n, weights: r.attentions[b], offset: j * n * n, cell });
        rows = layout.rows;
        spec = { texts: Array(n).fill(''), context: n, cell, gutter: NO_GUTTER, cells: layout.cells, masked: layout.masked, row: q };
        map.draw(spec);
        el.setAttribute('aria-label', t('attention.mapLabel', { block: b, head: j }));
        el.setAttribute('aria-valuemax', n);
      },
      mark(r, b, q) {
        if (spec && spec.row !== q) map.draw((spec = { ...spec, row: q }));
        const best = strongestKeys(rows[q] ?? []).slice(0, 3);
        const keys = best
          .map(({ key, weight }) => t('attention.keyWeight', { char: showPiece(r.pieces[key]), position: key + 1, weight: formatFixed(weight, 3, locale) }))
          .join(t('attention.separator'));
        el.setAttribute('aria-valuenow', q + 1);
        el.setAttribute('aria-valuetext', t('attention.valueText', { query: q + 1, total: rows.length, char: showPiece(r.pieces[q]), keys }));
        return keys;
      },
    };
  }

  function focusHead(j) {
    if (j < 0 || j >= figures.length) return;
    figures.forEach((f, k) => (f.canvas.tabIndex = k === j ? 0 : -1));
    figures[j].canvas.focus();
    chosen.set({ head: j });
    showQuery();
  }

  function setQuery(q, j = chosen.get().head) {
    chosen.set({ query: q, head: j });
    showQuery();
  }

  /** The chosen query on every map, in the token list and in words. */
  function showQuery() {
    if (!result) return;
    const { block: b, head: j } = chosen.get();
    const n = result.ids.length;
    const q = Math.min(chosen.get().query ?? n - 1, n - 1);
    [...pieces.children].forEach((li, k) => li.classList.toggle('query', k === q));
    let keys = '';
    figures.forEach((f, k) => {
      const said = f.mark(result, b, q);
      if (k === j) keys = said;
    });
    queryNote.textContent = t('checkpoint.queryNote', { position: q + 1, char: showPiece(result.pieces[q]), block: b, head: j, keys });
  }

  function fillTables() {
    if (!tables.open || !result) return;
    const b = chosen.get().block;
    const labels = result.pieces.map(showPiece);
    const n = labels.length;
    tablesBody.replaceChildren(
      ...figures.map((_, j) => h('div', { class: 'cards' }, headTable({ labels, data: result.attentions[b], offset: j * n * n, block: b, head: j }, t))),
    );
  }
  tables.addEventListener('toggle', fillTables);

  function draw() {
    const r = result;
    const b = chosen.get().block;
    const n = r.ids.length;
    const q = Math.min(chosen.get().query ?? n - 1, n - 1);
    const count = (key, k) => t(key, { count: k, n: formatInteger(k, locale) });
    summary.textContent = t('checkpoint.summary', {
      tokens: count('checkpoint.tokenCount', n),
      block: b,
      heads: count('attention.heads', heads),
    });
    pieces.replaceChildren(...r.pieces.map((p, k) => h('li', { title: t('checkpoint.tokenTitle', { position: k + 1, id: String(r.ids[k]) }) }, showPiece(p))));
    figures.forEach((f) => f.update(r, b, q));
    showQuery();
    fillTables();
    nextList.replaceChildren(
      ...r.next.map((x) => h('li', {}, t('checkpoint.nextToken', { piece: showPiece(x.piece), probability: formatFixed(x.probability, 3, locale) }))),
    );
  }

  async function run() {
    const mine = ++latest;
    const text = input.value;
    status.textContent = t('checkpoint.reading');
    element.busy = true;
    let r;
    try {
      r = await c.inspect(text, element);
    } catch (err) {
      if (mine !== latest) return;
      element.busy = false;
      status.textContent = '';
      error.textContent = problemText(err, t) || errorText(err, t);
      error.hidden = false;
      stale.hidden = result === null;
      stale.textContent = result ? t('checkpoint.stale', { text: clipText(result.text) }) : '';
      return;
    }
    if (mine !== latest) return;
    element.busy = false;
    if (!r) return;
    status.textContent = '';
    error.hidden = true;
    stale.hidden = true;
    output.hidden = false;
    if (result && result.ids.length !== r.ids.length) chosen.set({ query: null });
    result = r;
    draw();
  }

  select.addEventListener('change', () => {
    chosen.set({ block: Number(select.value) });
    if (result) draw();
  });
  input.addEventListener('input', () => {
    typed.keep(input.value);
    run();
  });
  maps.replaceChildren(...figures.map((f) => f.figure));
  run();
  const controls = h(
    'div',
    { class: 'controls' },
    h('label', { htmlFor: textId }, t('attention.text')),
    input,
    help,
    h('label', { htmlFor: blockId }, t('checkpoint.blockLabel')),
    select,
  );
  return [h('h3', {}, t('attention.title')), switcher, controls, note, error, stale, status, output].filter(Boolean);
}
