// <tb-anatomy model="gpt2-small" seq-len="8">: the "select any part" diagram of a decoder.
//
// A model switcher and the sequence-length control; an SVG of the model drawn from the Report's
// parts (one block opened); a details panel for the selected part (what it does, its weight and
// activation shapes at T, its parameters per block, in all and as a share of the model); the
// breakdown bar and the headline figures. Every number comes from `count` in the wasm; this file
// formats and draws. The diagram is one Tab stop (a listbox with a roving tabindex): the arrow
// keys move between parts, Enter or Space selects, a click selects.

import { TbElement, errorText, h } from './base.js';
import { sheet } from './theme.js';
import { s } from '../charts/svg.js';
import { seqLenControl } from '../controls/seq-len.js';
import { formatCompact, formatInteger } from '../format.js';
import { formatFlops, formatShare } from '../format-anatomy.js';
import {
  arrowHead,
  diagramItems,
  keyboardOrder,
  layoutAnatomy,
  layoutMatrices,
  nextIndex,
  textWidth,
  FONT_LABEL,
  FONT_SMALL,
} from '../charts/anatomy-layout.js';
import { breakdownSegments, groupClass, renderBreakdownBar } from '../charts/breakdown.js';
import { NO_PARAMETERS, describePart } from './anatomy-text.js';
import { ModelChoice, countModel, modelSwitcherSheet } from '../models/model-choice.js';

const DEFAULT_MODEL = 'gpt2-small';
const DEFAULT_SEQ_LEN = 8;
const BATCH = 1;
const DEFAULT_PART = 'attention';

/** The activations a parameter-free part shows; every other part shows those whose `part` is its key. */
const ACTIVATIONS_OF = {
  attention_add: ['stream'],
  feed_forward_add: ['stream'],
  activation: ['feed_forward_hidden'],
  logits: ['logits'],
};

const GROUPS = ['embeddings', 'attention', 'feed_forward', 'norms', 'output_head', 'router'];

const CSS = `
.panes { display: flex; flex-wrap: wrap; gap: 0.75rem 1.25rem; align-items: flex-start; }
.diagram { flex: 1 1 18rem; max-width: 24rem; min-width: 0; }
.details { flex: 1 1 16rem; min-width: 0; }
.details h3 { margin-top: 0.25rem; }
.details h4 { margin: 0.6rem 0 0.2rem; font-size: 0.95rem; }
.details ul { margin: 0; padding-left: 1.1rem; }
.details .params { font-weight: 600; }
svg.anatomy { width: 100%; height: auto; }
svg.anatomy text { font-size: ${FONT_LABEL}px; }
svg.anatomy .small, svg.anatomy .sub { font-size: ${FONT_SMALL}px; }
svg.anatomy .muted-text { fill: var(--_muted); }
.part { cursor: pointer; }
.part:focus { outline: none; }
.part .ring { fill: none; stroke: none; }
.part:focus-visible .ring { stroke: var(--_accent); stroke-width: 2.5; stroke-dasharray: 5 3; }
.hit { fill: transparent; }
.box { stroke-width: 1.25; }
.free .box, .free .add-circle { fill: var(--_bg); stroke: var(--_muted); stroke-dasharray: 4 3; }
.add-circle { stroke-width: 1.5; }
.plus { stroke: var(--_fg); stroke-width: 1.75; }
.stream-line { stroke: var(--_fg); stroke-width: 4; stroke-linecap: round; }
.part[aria-selected="true"] .box,
.part[aria-selected="true"] .add-circle { stroke: var(--_fg); stroke-width: 3.5; stroke-dasharray: none; }
.part[aria-selected="true"] .stream-line { stroke-width: 8; }
.part[aria-selected="true"] .label { font-weight: 700; text-decoration: underline; }
.link { fill: none; stroke: var(--_muted); stroke-width: 1.5; }
.arrow { fill: var(--_muted); }
.frame { fill: none; stroke: var(--_rule); stroke-width: 1.5; }
.frame.dashed { stroke-dasharray: 5 4; }
.chip { stroke: none; }
.chip.tied { fill: none; stroke: var(--_muted); stroke-dasharray: 2 2; }
${GROUPS.map(
  (g) => `
.box.${groupClass(g)} { fill: color-mix(in srgb, var(--_${g.replace('_', '-')}) 14%, var(--_bg)); stroke: var(--_${g.replace('_', '-')}); }
.${groupClass(g)} .chip:not(.tied) { fill: var(--_${g.replace('_', '-')}); }
.seg.${groupClass(g)} { fill: var(--_${g.replace('_', '-')}); }
.sw.${groupClass(g)} { background: var(--_${g.replace('_', '-')}); }`,
).join('')}
.breakdown { margin-top: 1rem; }
.breakdown-bar { display: block; width: 100%; height: 1.75rem; border-radius: 3px; }
.legend { list-style: none; margin: 0.5rem 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
.legend li { display: inline-flex; gap: 0.4rem; align-items: baseline; }
.sw { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; border: 1px solid var(--_fg); }
.headline { display: flex; flex-wrap: wrap; gap: 0.5rem 1.75rem; margin: 0.75rem 0 0; }
.headline dt { color: var(--_muted); font-size: 0.85rem; }
.headline dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
`;

/** "768 × 3,072" */
function shapeText(shape) {
  return shape.map((n) => formatInteger(n)).join(' × ');
}

/** "scores" -> "Scores"; a name that starts with a one-letter symbol ("q, k, v …") stays as it is. */
function capitalise(text) {
  return /^\p{L}\p{L}/u.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** The activations the details panel lists for `key`. */
function activationsFor(report, key) {
  const keys = ACTIVATIONS_OF[key];
  return keys ? report.activations.filter((a) => keys.includes(a.key)) : report.activations.filter((a) => a.part === key);
}

/** One or two lines for an activation; a T × T one also gets its per-head slice. */
function activationLines(a) {
  const name = capitalise(a.name);
  const full = `${shapeText(a.shape)} (${a.shape_symbols.join(' × ')})`;
  const sym = a.shape_symbols;
  if (sym.length >= 2 && sym[sym.length - 1] === 'T' && sym[sym.length - 2] === 'T') {
    return [`${name}, per head ${shapeText(a.shape.slice(-2))} (T × T)`, `${name}, all heads ${full}`];
  }
  return [`${name} ${full}`];
}

function weightLine(c) {
  let text = `${c.name} ${shapeText(c.shape)} (${c.shape_symbols.join(' × ')})`;
  if (c.tied) text += ': tied, the token table read transposed, no parameters of its own';
  else if (c.copies > 1) text += `, ${formatInteger(c.copies)} copies, ${formatInteger(c.active_copies)} used per token`;
  return text;
}

/** "all 12 blocks"; "both blocks"; "its one block". */
function allBlocks(n) {
  if (n === 1) return 'its one block';
  if (n === 2) return 'both blocks';
  return `all ${formatInteger(n)} blocks`;
}

function paramsSentence(report, key) {
  const part = report.parts.find((p) => p.part === key);
  if (!part) return NO_PARAMETERS;
  if (part.params === 0) {
    const table = report.parts.find((p) => p.part === 'token_table');
    return table
      ? `No parameters of its own: it reads the token table (${formatInteger(table.params)} parameters, counted there), transposed.`
      : 'No parameters of its own.';
  }
  let text = part.per_block
    ? `${formatInteger(part.params_each)} parameters per block, ${formatInteger(part.params)} across ${allBlocks(report.config.n_layers)}, ${formatShare(part.share)} of the model.`
    : `${formatInteger(part.params)} parameters, ${formatShare(part.share)} of the model.`;
  if (part.active !== part.params) {
    text += ` Any one token uses ${formatInteger(part.active_each)} of them per block, ${formatInteger(part.active)} in all.`;
  }
  return text;
}

/** "W_Q" drawn as W with a subscript Q. */
function matrixName(name, x, y) {
  const m = /^W_(.+)$/.exec(name);
  if (!m) return s('text', { x, y, class: 'small' }, name);
  return s('text', { x, y, class: 'small' }, 'W', s('tspan', { dy: 3, class: 'sub' }, m[1]));
}

class TbAnatomy extends TbElement {
  static observedAttributes = ['model', 'config-src', 'seq-len'];
  static styles = [sheet(CSS), modelSwitcherSheet];

  #lib = null;
  #model = DEFAULT_MODEL;
  #report = null;
  #selected = DEFAULT_PART;
  #focused = DEFAULT_PART;
  #parts = {}; // the output regions, filled by #refresh
  #choice = this.hold(new ModelChoice(this, DEFAULT_MODEL));

  render(lib) {
    this.#lib = lib;
    let model = this.#choice.model();
    if (model === null) return this.#choice.showLoading();
    let probe;
    try {
      probe = countModel(lib, model, 1, BATCH);
    } catch (err) {
      this.warn(`${errorText(err)}. Showing GPT-2 small instead.`);
      model = DEFAULT_MODEL;
      probe = countModel(lib, model, 1, BATCH);
    }
    const context = probe.config.context;

    let seqLen = this.wholeAttr('seq-len', DEFAULT_SEQ_LEN);
    let report;
    try {
      report = countModel(lib, model, seqLen, BATCH);
    } catch (err) {
      seqLen = seqLen > context ? context : Math.min(DEFAULT_SEQ_LEN, context);
      this.warn(`${errorText(err)}; showing T = ${formatInteger(seqLen)}.`);
      report = countModel(lib, model, seqLen, BATCH);
    }
    this.#model = model;
    this.#report = report;


    const seqControl = seqLenControl({
      uid: this.uid,
      label: 'Sequence length T',
      min: 1,
      max: context,
      value: seqLen,
      onChange: (t) => this.#setSeqLen(t),
    });

    const message = h('p', { class: 'error', role: 'alert', hidden: true });
    const diagram = h('div', { class: 'diagram' });
    const details = h('div', { class: 'details', role: 'group', 'aria-live': 'polite', 'aria-label': 'Selected part' });
    const breakdown = h('div', { class: 'breakdown', role: 'group', 'aria-labelledby': `${this.uid}-breakdown-title` });
    this.#parts = { seqControl, message, diagram, details, breakdown };

    this.shadowRoot.replaceChildren(
      this.#choice.switcher(lib, model, (picked) => this.#setModel(picked)),
      seqControl,
      message,
      h('div', { class: 'panes' }, diagram, details),
      breakdown,
    );
    this.#refresh();
  }

  /** The reader picked another model: keep T if the model accepts it, else clamp to its context. */
  #setModel(model) {
    const lib = this.#lib;
    let report;
    try {
      const context = countModel(lib, model, 1, BATCH).config.context;
      const seqLen = Math.min(this.#report.seq_len, context);
      report = countModel(lib, model, seqLen, BATCH);
    } catch (err) {
      this.#showMessage(errorText(err));
      return;
    }
    this.#model = model;
    this.#report = report;
    for (const input of this.#parts.seqControl.querySelectorAll('input')) {
      input.max = String(report.config.context);
      input.value = String(report.seq_len);
    }
    this.#showMessage(null);
    this.#refresh();
  }

  /** The reader moved T: the library says whether it is allowed. */
  #setSeqLen(seqLen) {
    let report;
    try {
      report = countModel(this.#lib, this.#model, seqLen, BATCH);
    } catch (err) {
      this.#showMessage(`${errorText(err)}; still showing T = ${formatInteger(this.#report.seq_len)}.`);
      return;
    }
    this.#report = report;
    this.#showMessage(null);
    // Only shapes and FLOPs depend on T: rewrite those texts rather than redraw the widget.
    if (!this.#retext()) this.#refresh();
  }

  /** The diagram's texts that change with T, by their data-shape key. */
  #shapeTexts() {
    const act = (key) => this.#report.activations.find((a) => a.key === key);
    const stream = act('stream');
    const scores = act('scores');
    const logits = this.#items.find((it) => it.key === 'logits');
    return {
      stream: stream ? `Residual stream, ${shapeText(stream.shape.slice(1))}` : 'Residual stream',
      scores: scores ? shapeText(scores.shape.slice(-2)) : '',
      logits: logits ? this.#boxNote(logits) : '',
    };
  }

  /** After T changed: the texts that show it, in place. False when the diagram must be redrawn. */
  #retext() {
    const texts = this.#shapeTexts();
    const marked = [...this.#parts.diagram.querySelectorAll('[data-shape]')];
    const logits = this.#items.find((it) => it.key === 'logits');
    // The logits note is drawn only when it fits its box; if that changes, redraw.
    const fits = logits && this.#fits(logits, texts.logits);
    if (Boolean(fits) !== marked.some((el) => el.dataset.shape === 'logits')) return false;
    for (const el of marked) {
      el.textContent = texts[el.dataset.shape];
      nameFromTexts(el.closest('[role="option"]'));
    }
    this.#renderDetails();
    const flops = this.#parts.breakdown.querySelector('[data-figure="flops"]');
    if (!flops) return false;
    flops.replaceWith(this.#flopsFigure());
    return true;
  }

  /** Whether a box has room for its note at the right of its label (else the note is not drawn). */
  #fits(item, note) {
    const b = this.#layout?.boxes[item.key];
    return Boolean(b) && textWidth(item.label) + textWidth(note, FONT_SMALL) + 28 <= b.w;
  }

  #flopsFigure() {
    const report = this.#report;
    return h(
      'div',
      { dataset: { figure: 'flops' } },
      h('dt', {}, `Forward FLOPs per token at T = ${formatInteger(report.seq_len)}`),
      h('dd', {}, formatFlops(report.forward_flops_per_token)),
    );
  }

  #showMessage(text) {
    const p = this.#parts.message;
    p.textContent = text ?? '';
    p.hidden = !text;
  }

  #refresh() {
    const items = diagramItems(this.#report);
    const order = keyboardOrder(items);
    if (!order.includes(this.#selected)) this.#selected = order.includes(DEFAULT_PART) ? DEFAULT_PART : order[0];
    if (!order.includes(this.#focused)) this.#focused = this.#selected;
    this.#items = items;
    this.#parts.diagram.replaceChildren(...this.#diagram(items));
    this.#renderDetails();
    this.#renderBreakdown();
  }

  #items = [];
  #layout = null; // the diagram's layout as last drawn (layoutAnatomy of #items)

  // ---- the diagram ----

  #diagram(items) {
    const report = this.#report;
    const { config } = report;
    const layout = layoutAnatomy(items);
    this.#layout = layout;
    const descId = `${this.uid}-diagram-desc`;
    const more = items.find((it) => it.key === 'more_blocks');
    const summary = h(
      'p',
      { id: descId, class: 'visually-hidden' },
      `${config.label}: token ids enter at the top, pass through ${formatInteger(config.n_layers)} ${config.n_layers === 1 ? 'block' : 'blocks'} hanging off the residual stream, and leave as logits. One block is drawn opened${more ? `; ${more.label}` : ''}. Arrow keys move between parts; Enter or Space selects one.`,
    );

    const deco = s('g', { 'aria-hidden': 'true' });
    if (layout.block) {
      const b = layout.block;
      deco.append(
        s('rect', { class: 'frame', x: b.x, y: b.y, width: b.w, height: b.h, rx: 8 }),
        s('text', { x: b.x + 10, y: b.titleY, class: 'small muted-text' }, `Block 1 of ${formatInteger(config.n_layers)}`),
      );
    }
    for (const link of layout.links) {
      deco.append(s('polyline', { class: 'link', points: link.points.map((p) => p.join(',')).join(' ') }));
      if (link.arrow) {
        const n = link.points.length;
        deco.append(s('polygon', { class: 'arrow', points: arrowHead(link.points[n - 2], link.points[n - 1]).map((p) => p.join(',')).join(' ') }));
      }
    }
    for (const note of layout.notes) {
      if (note.framed) {
        deco.append(
          s('rect', { class: 'frame dashed', x: note.x, y: note.y, width: note.w, height: note.h, rx: 6 }),
          s('text', { x: note.x + 10, y: note.y + 20, class: 'small muted-text' }, ...wrapWords(note.label, note.w - 20, note.x + 10)),
        );
      } else {
        deco.append(
          s('path', { class: 'frame dashed', d: `M${note.x} ${note.y + 2} h${note.w} M${note.x + 6} ${note.y + 6} h${note.w - 12}` }),
          s('text', { x: note.x + 10, y: note.y + 19, class: 'small muted-text' }, note.label),
        );
      }
    }

    const options = items.filter((it) => it.selectable).map((it) => this.#option(it, layout));
    const svg = s(
      'svg',
      {
        class: 'anatomy',
        role: 'listbox',
        'aria-label': `Parts of ${config.label}`,
        'aria-describedby': descId,
        viewBox: `0 0 ${layout.width} ${layout.height}`,
        width: layout.width,
        height: layout.height,
      },
      deco,
      options,
    );
    svg.addEventListener('click', (event) => {
      const el = event.target.closest('[data-key]');
      if (!el) return;
      this.#focus(el.dataset.key);
      this.#select(el.dataset.key);
    });
    svg.addEventListener('keydown', (event) => this.#onKey(event));
    return [summary, svg];
  }

  /** One part of the diagram, named by every text it shows, in order (what a reader sees is what a screen reader says). */
  #option(item, layout) {
    const g = this.#optionDrawing(item, layout);
    nameFromTexts(g);
    return g;
  }

  #optionDrawing(item, layout) {
    const report = this.#report;
    const selected = item.key === this.#selected;
    const free = !item.part;
    const g = s('g', {
      class: `part ${free ? 'free' : groupClass(item.group)}`,
      role: 'option',
      'aria-label': item.label,
      'data-label': item.label,
      'aria-selected': String(selected),
      tabindex: item.key === this.#focused ? 0 : -1,
      'data-key': item.key,
    });

    if (item.kind === 'line') {
      const { x, y1, y2 } = layout.stream;
      const midY = (y1 + y2) / 2;
      g.append(
        s('rect', { class: 'hit', x: x - 10, y: y1, width: 20, height: y2 - y1 }),
        s('rect', { class: 'ring', x: x - 12, y: y1 - 2, width: 24, height: y2 - y1 + 4, rx: 6 }),
        s('line', { class: 'stream-line', x1: x, y1, x2: x, y2 }),
        s(
          'text',
          { x: x - 13, y: midY, class: 'small label', 'text-anchor': 'middle', transform: `rotate(-90 ${x - 13} ${midY})`, 'data-shape': 'stream' },
          this.#shapeTexts().stream,
        ),
      );
      return g;
    }

    if (item.kind === 'add') {
      const { cx, cy, r } = layout.adds[item.key];
      g.append(
        s('circle', { class: 'hit', cx, cy, r: r + 4 }),
        s('circle', { class: 'ring', cx, cy, r: r + 5 }),
        s('circle', { class: 'add-circle', cx, cy, r }),
        s('path', { class: 'plus', d: `M${cx - 5} ${cy} h10 M${cx} ${cy - 5} v10` }),
      );
      return g;
    }

    const b = layout.boxes[item.key];
    g.append(
      s('rect', { class: 'ring', x: b.x - 4, y: b.y - 4, width: b.w + 8, height: b.h + 8, rx: 9 }),
      s('rect', { class: `box ${free ? '' : groupClass(item.group)}`, x: b.x, y: b.y, width: b.w, height: b.h, rx: 6 }),
    );

    if (item.kind === 'child') {
      if (item.key === 'scores') {
        const scores = report.activations.find((a) => a.key === 'scores');
        g.append(
          s('text', { x: b.x + 8, y: b.y + 14 }, s('tspan', { class: 'label' }, item.label), s('tspan', { class: 'small muted-text' }, ' per head')),
        );
        if (scores) g.append(s('text', { x: b.x + 8, y: b.y + 28, class: 'small muted-text', 'data-shape': 'scores' }, this.#shapeTexts().scores));
      } else {
        g.append(s('text', { x: b.x + 8, y: b.y + 14, class: 'label' }, item.text));
        g.append(s('text', { x: b.x + 8, y: b.y + 28, class: 'small muted-text' }, 'no parameters'));
      }
      return g;
    }

    g.append(s('text', { x: b.x + 10, y: b.y + 19, class: 'label' }, item.label));
    // The note, or its shorter form ("1.54K" for "1.54K per block") where the box is too narrow.
    const right = [this.#boxNote(item), this.#shortNote(item)].find((note) => note && this.#fits(item, note));
    if (right) {
      const shape = item.key === 'logits' ? { 'data-shape': 'logits' } : {};
      g.append(s('text', { x: b.x + b.w - 8, y: b.y + 19, class: 'small muted-text', 'text-anchor': 'end', ...shape }, right));
    }
    for (const chip of layoutMatrices(item.matrices ?? [], b)) {
      g.append(
        s('rect', { class: `chip${chip.tied ? ' tied' : ''}`, x: chip.x, y: chip.y, width: chip.w, height: chip.h }),
        matrixName(chip.name, chip.labelX, chip.labelY),
      );
    }
    return g;
  }

  /** The short text at the right of a box: its size, or what it is. */
  #boxNote(item) {
    const { config } = this.#report;
    const part = item.part;
    if (item.key === 'logits') {
      const logits = this.#report.activations.find((a) => a.key === 'logits');
      return logits ? `${shapeText(logits.shape.slice(1))}, no parameters` : 'no parameters';
    }
    if (!part) return null;
    if (part.part === 'feed_forward' && config.moe) return `${config.moe.n_experts} experts, ${config.moe.experts_per_token} per token`;
    if (part.params === 0) return 'tied: the token table';
    return part.per_block ? `${formatCompact(part.params_each)} per block` : formatCompact(part.params);
  }

  /** A per-block part's note without "per block" (the block's frame says it); null for the rest. */
  #shortNote(item) {
    const part = item.part;
    return part?.per_block && part.params > 0 && !(part.part === 'feed_forward' && this.#report.config.moe) ? formatCompact(part.params_each) : null;
  }

  #optionElements() {
    return [...this.#parts.diagram.querySelectorAll('[role="option"]')];
  }

  #focus(key) {
    this.#focused = key;
    for (const el of this.#optionElements()) {
      const mine = el.dataset.key === key;
      el.setAttribute('tabindex', mine ? '0' : '-1');
      if (mine) el.focus();
    }
  }

  #select(key) {
    this.#selected = key;
    for (const el of this.#optionElements()) el.setAttribute('aria-selected', String(el.dataset.key === key));
    this.#renderDetails();
  }

  #onKey(event) {
    const el = event.target.closest?.('[data-key]');
    if (!el) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.#select(el.dataset.key);
      return;
    }
    const order = keyboardOrder(this.#items);
    const next = nextIndex(order.length, order.indexOf(el.dataset.key), event.key);
    if (next === null) return;
    event.preventDefault();
    this.#focus(order[next]);
  }

  // ---- the details panel ----

  #renderDetails() {
    const report = this.#report;
    const key = this.#selected;
    const item = this.#items.find((it) => it.key === key);
    const out = [h('h3', {}, item ? item.label : key)];
    for (const text of describePart(key, report.config)) out.push(h('p', {}, text));

    const weights = report.components.filter((c) => c.part === key);
    if (weights.length) {
      out.push(h('h4', {}, 'Weights'), h('ul', { class: 'shapes' }, weights.map((c) => h('li', {}, weightLine(c)))));
    }
    const acts = activationsFor(report, key);
    if (acts.length) {
      out.push(
        h('h4', {}, `Activations at T = ${formatInteger(report.seq_len)}`),
        h('ul', { class: 'shapes' }, acts.flatMap(activationLines).map((t) => h('li', {}, t))),
      );
    }
    out.push(h('p', { class: 'params' }, paramsSentence(report, key)));
    this.#parts.details.replaceChildren(...out);
  }

  // ---- the breakdown bar and the headline figures ----

  #renderBreakdown() {
    const report = this.#report;
    const { config } = report;
    const titleId = `${this.uid}-breakdown-title`;
    const segments = breakdownSegments(report.groups);
    const legend = h(
      'ul',
      { class: 'legend', 'aria-label': 'Parameters by group' },
      report.groups.map((g) =>
        h(
          'li',
          { dataset: { group: g.group } },
          h('span', { class: `sw ${groupClass(g.group)}`, 'aria-hidden': 'true' }),
          h('span', {}, `${g.label} ${formatCompact(g.params)}, ${formatShare(g.share)}`),
        ),
      ),
    );
    const figure = (term, value) => h('div', {}, h('dt', {}, term), h('dd', {}, value));
    const headline = h(
      'dl',
      { class: 'headline' },
      figure('Parameters', `${formatInteger(report.total_params)} (${formatCompact(report.total_params)})`),
      figure('Without embeddings', `${formatInteger(report.non_embedding_params)} (${formatCompact(report.non_embedding_params)})`),
      report.active_params !== report.total_params
        ? figure('Used per token', `${formatInteger(report.active_params)} (${formatCompact(report.active_params)})`)
        : null,
      this.#flopsFigure(),
    );
    this.#parts.breakdown.replaceChildren(
      h('h3', { id: titleId }, `Where ${config.label}’s ${formatInteger(report.total_params)} parameters live`),
      renderBreakdownBar(segments),
      legend,
      headline,
    );
  }
}

/**
 * Names a diagram part by its label and every text it draws ("Attention 2.36M per block WQ WK …";
 * "SwiGLU activation: SwiGLU no parameters"), so what a reader sees is what a screen reader says.
 */
function nameFromTexts(g) {
  if (!g) return;
  const texts = [...g.querySelectorAll('text')];
  // A space after each text (SVG draws none), so the texts read as separate words, as in the name.
  for (const t of texts) if (t.nextSibling?.nodeType !== Node.TEXT_NODE) t.after(' ');
  const shown = texts.map((t) => t.textContent.trim()).filter(Boolean).join(' ');
  if (!shown) return;
  const label = g.dataset.label;
  g.setAttribute('aria-label', shown.startsWith(label) ? shown : `${label}: ${shown}`);
}

/** Words in <tspan> lines no wider than `width` (rough), for a note in a box. */
function wrapWords(text, width, x) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, FONT_SMALL) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  // a space after each line but the last, so the text reads as words to assistive technology and tests
  return lines.map((l, i) => s('tspan', { x, dy: i === 0 ? 0 : 13 }, i < lines.length - 1 ? `${l} ` : l));
}

customElements.get('tb-anatomy') || customElements.define('tb-anatomy', TbAnatomy);
