// The anatomy diagram of <tb-anatomy>: the SVG of a model drawn from the Report's parts (one block
// opened), its parts a listbox with a roving tabindex (the arrow keys move between parts, Enter or
// Space selects, a click selects), every part named by the texts it shows. Layout from
// charts/anatomy-layout.js; this draws it, in the language of `t`, and keeps it up to date.
//
//   const diagram = new AnatomyDiagram({ uid, container, onSelect: (key) => …, t });
//   container.replaceChildren(...diagram.draw(report, items));
//   diagram.retext(report)   // after T changed: the texts that show it, in place (false: redraw)

import { h } from './base.js';
import { s } from '../charts/svg.js';
import { formatCompact, formatInteger } from '../format.js';
import { arrowHead, keyboardOrder, layoutAnatomy, layoutMatrices, nextIndex } from '../charts/anatomy-layout.js';
import { rowBaseline, wrapLines, FONT_SMALL, ROW } from '../charts/anatomy-boxes.js';
import { groupClass } from '../charts/breakdown.js';
import { shapeText } from './anatomy-details.js';
import { speakEnglish, translator } from '../i18n.js';
import anatomyTexts from '../locales/en/anatomy.js';

speakEnglish(anatomyTexts);

/** "W_Q" drawn as W with a subscript Q. */
function matrixName(name, x, y) {
  const m = /^W_(.+)$/.exec(name);
  if (!m) return s('text', { x, y, class: 'small' }, name);
  return s('text', { x, y, class: 'small' }, 'W', s('tspan', { dy: 3, class: 'sub' }, m[1]));
}

export class AnatomyDiagram {
  report = null;
  items = [];
  layout = null; // the layout as last drawn (layoutAnatomy of items)
  selected = null;
  focused = null;

  constructor({ uid, container, onSelect, t = translator('en') }) {
    this.uid = uid;
    this.container = container;
    this.onSelect = onSelect;
    this.t = t;
  }

  /** The diagram's texts that change with T, by their data-shape key. */
  shapeTexts() {
    const act = (key) => this.report.activations.find((a) => a.key === key);
    const stream = act('stream');
    const scores = act('scores');
    const logits = this.items.find((it) => it.key === 'logits');
    const t = this.t;
    return {
      stream: stream ? t('anatomy.streamShape', { shape: shapeText(stream.shape.slice(1), t) }) : t('anatomy.labelStream'),
      scores: scores ? shapeText(scores.shape.slice(-2), t) : '',
      logits: logits ? this.boxNote(logits) : '',
    };
  }

  /** A box's notes, longest first: its size or what it is, then the short form ("1.54K" for "1.54K per block"). */
  notesOf(item) {
    return [this.boxNote(item), this.shortNote(item)].filter(Boolean);
  }

  /** The layout of the items and report at hand, each box sized for its notes. */
  laidOut() {
    return layoutAnatomy(this.items, { notes: (it) => this.notesOf(it) });
  }

  /** After T changed (`report` at the new T): the diagram's texts that show it, in place. False when the diagram must be redrawn. */
  retext(report) {
    this.report = report;
    const texts = this.shapeTexts();
    const marked = [...this.container.querySelectorAll('[data-shape]')];
    // The logits note sits beside the label, on a row of its own, or nowhere, as its length allows;
    // if that changes, redraw.
    const row = (layout) => layout.texts.logits?.note?.row ?? null;
    if (this.layout && row(this.laidOut()) !== row(this.layout)) return false;
    for (const el of marked) {
      el.textContent = texts[el.dataset.shape];
      nameFromTexts(el.closest('[role="option"]'), this.t);
    }
    return true;
  }

  /** Draw `items` of `report` (diagramItems); returns the nodes for the container. */
  draw(report, items) {
    this.report = report;
    this.items = items;
    const { config } = report;
    const t = this.t;
    const layout = this.laidOut();
    this.layout = layout;
    const descId = `${this.uid}-diagram-desc`;
    const more = items.find((it) => it.key === 'more_blocks');
    const summary = h(
      'p',
      { id: descId, class: 'visually-hidden' },
      t('anatomy.summary', {
        model: config.label,
        layers: formatInteger(config.n_layers, t.locale),
        more: more ? t('anatomy.summaryMore', { note: more.label }) : '',
        count: config.n_layers,
      }),
    );

    const deco = s('g', { 'aria-hidden': 'true' });
    if (layout.block) {
      const b = layout.block;
      deco.append(
        s('rect', { class: 'frame', x: b.x, y: b.y, width: b.w, height: b.h, rx: 8 }),
        s('text', { x: b.x + 10, y: b.titleY, class: 'small muted-text' }, t('anatomy.blockOf', { layers: formatInteger(config.n_layers, t.locale), count: config.n_layers })),
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
          s('text', { x: note.x + 10, y: note.y + 20, class: 'small muted-text' }, ...lines(wrapLines(note.label, note.w - 20, FONT_SMALL), note.x + 10)),
        );
      } else {
        deco.append(
          s('path', { class: 'frame dashed', d: `M${note.x} ${note.y + 2} h${note.w} M${note.x + 6} ${note.y + 6} h${note.w - 12}` }),
          s('text', { x: note.x + 10, y: note.y + 17, class: 'small muted-text' }, note.label),
        );
      }
    }

    const options = items.filter((it) => it.selectable).map((it) => this.option(it, layout));
    const svg = s(
      'svg',
      {
        class: 'anatomy',
        role: 'listbox',
        'aria-label': t('anatomy.partsOf', { model: config.label }),
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
      this.focus(el.dataset.key);
      this.select(el.dataset.key);
    });
    svg.addEventListener('keydown', (event) => this.onKey(event));
    return [summary, svg];
  }

  /** One part of the diagram, named by every text it shows, in order (what a reader sees is what a screen reader says). */
  option(item, layout) {
    const g = this.optionDrawing(item, layout);
    nameFromTexts(g, this.t);
    return g;
  }

  optionDrawing(item, layout) {
    const report = this.report;
    const selected = item.key === this.selected;
    const free = !item.part;
    const g = s('g', {
      class: `part ${free ? 'free' : groupClass(item.group)}`,
      role: 'option',
      'aria-label': item.label,
      'data-label': item.label,
      'aria-selected': String(selected),
      tabindex: item.key === this.focused ? 0 : -1,
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
          this.shapeTexts().stream,
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
          s('text', { x: b.x + 8, y: b.y + 13 }, s('tspan', { class: 'label' }, item.label), s('tspan', { class: 'small muted-text' }, this.t('anatomy.perHead'))),
        );
        if (scores) g.append(s('text', { x: b.x + 8, y: b.y + 13 + ROW, class: 'small muted-text', 'data-shape': 'scores' }, this.shapeTexts().scores));
      } else {
        // Two lines a row apart: their boxes (the fonts' ascent and descent) do not touch.
        g.append(s('text', { x: b.x + 8, y: b.y + 13, class: 'label' }, item.text));
        g.append(s('text', { x: b.x + 8, y: b.y + 13 + ROW, class: 'small muted-text' }, this.t('anatomy.childNoParameters')));
      }
      return g;
    }

    // The label in as many lines as the box needs, and its note beside it or on a row of its own (the layout's boxText).
    const text = layout.texts[item.key];
    g.append(s('text', { x: b.x + 10, y: b.y + rowBaseline(0), class: 'label' }, ...lines(text.lines, b.x + 10)));
    if (text.note) {
      const shape = item.key === 'logits' ? { 'data-shape': 'logits' } : {};
      g.append(s('text', { x: b.x + b.w - 10, y: b.y + rowBaseline(text.note.row), class: 'small muted-text', 'text-anchor': 'end', ...shape }, text.note.text));
    }
    for (const chip of layoutMatrices(item.matrices ?? [], b, text.chipTop)) {
      g.append(
        s('rect', { class: `chip${chip.tied ? ' tied' : ''}`, x: chip.x, y: chip.y, width: chip.w, height: chip.h }),
        matrixName(chip.name, chip.labelX, chip.labelY),
      );
    }
    return g;
  }

  /** The short text at the right of a box: its size, or what it is. */
  boxNote(item) {
    const { config } = this.report;
    const t = this.t;
    const part = item.part;
    if (item.key === 'logits') {
      const logits = this.report.activations.find((a) => a.key === 'logits');
      return logits ? t('anatomy.noteLogits', { shape: shapeText(logits.shape.slice(1), t) }) : t('anatomy.childNoParameters');
    }
    if (!part) return null;
    if (part.part === 'feed_forward' && config.moe) {
      const { n_experts: experts, experts_per_token: k } = config.moe;
      return t('anatomy.noteExperts', { experts: formatInteger(experts, t.locale), k: formatInteger(k, t.locale), count: experts });
    }
    if (part.params === 0) return t('anatomy.noteTied');
    return part.per_block ? t('anatomy.notePerBlock', { params: formatCompact(part.params_each, t.locale) }) : formatCompact(part.params, t.locale);
  }

  /** A per-block part's note without "per block" (the block's frame says it); null for the rest. */
  shortNote(item) {
    const part = item.part;
    return part?.per_block && part.params > 0 && !(part.part === 'feed_forward' && this.report.config.moe) ? formatCompact(part.params_each, this.t.locale) : null;
  }

  optionElements() {
    return [...this.container.querySelectorAll('[role="option"]')];
  }

  focus(key) {
    this.focused = key;
    for (const el of this.optionElements()) {
      const mine = el.dataset.key === key;
      el.setAttribute('tabindex', mine ? '0' : '-1');
      if (mine) el.focus();
    }
  }

  select(key) {
    this.selected = key;
    for (const el of this.optionElements()) el.setAttribute('aria-selected', String(el.dataset.key === key));
    this.onSelect(key);
  }

  onKey(event) {
    const el = event.target.closest?.('[data-key]');
    if (!el) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.select(el.dataset.key);
      return;
    }
    const order = keyboardOrder(this.items);
    const next = nextIndex(order.length, order.indexOf(el.dataset.key), event.key);
    if (next === null) return;
    event.preventDefault();
    this.focus(order[next]);
  }
}

/**
 * Names a diagram part by its label and every text it draws ("Attention 2.36M per block WQ WK …";
 * "SwiGLU activation: SwiGLU no parameters"), so what a reader sees is what a screen reader says.
 */
function nameFromTexts(g, t) {
  if (!g) return;
  const texts = [...g.querySelectorAll('text')];
  // A space after each text (SVG draws none), so the texts read as separate words, as in the name.
  for (const t of texts) if (t.nextSibling?.nodeType !== Node.TEXT_NODE) t.after(' ');
  const shown = texts.map((t) => t.textContent.trim()).filter(Boolean).join(' ');
  if (!shown) return;
  const label = g.dataset.label;
  g.setAttribute('aria-label', shown.startsWith(label) ? shown : t('anatomy.partName', { label, shown }));
}

/**
 * Lines of text as <tspan>s a row apart, starting at `x`: a space after each but the last, so the
 * text reads as words to assistive technology and tests.
 */
function lines(texts, x) {
  return texts.map((l, i) => s('tspan', { x, dy: i === 0 ? 0 : ROW }, i < texts.length - 1 ? `${l} ` : l));
}
