// The anatomy diagram's layout: which parts it shows, in what order (also the keyboard order), and
// where each one goes, in the SVG's own units. Pure functions of the Report the wasm returns (no
// DOM, no parameter arithmetic): unit-tested in Node (tests/unit/anatomy-layout.test.js).
//
// The drawing, top to bottom: the embedding tables side by side; the residual stream as a vertical
// line on the left; one block opened beside it (norm, attention with the scores inside it, the add;
// norm, router if any, feed-forward with its activation inside it, the add); "L-1 more blocks";
// then the final norm, the output head and the logits. The labels are in the language of `t`
// (diagramItems' translator; English when it is left out).

import { activationName, freePartLabel, moreBlocksNote, partLabel, rotaryNote } from '../elements/anatomy-text.js';
import { translator } from '../i18n.js';
import { boxText, rowBaseline, textWidth, FONT_SMALL } from './anatomy-boxes.js';

// The diagram is drawn WIDTH units wide and scaled to its box: a 320 px phone's is about 270 px,
// where the text's 11 units stay 11 px or more (the widget caps the box at 20rem on a desktop).
export const WIDTH = 264;
const PAD = 6;
export const STREAM_X = 26;
const BLOCK_X = 40; // the opened block's frame
const BLOCK_RIGHT = WIDTH - PAD;
const BOX_X = 50; // boxes inside the block
const BOX_W = BLOCK_RIGHT - 8 - BOX_X;
const ROW_GAP = 10;
const ADD_H = 26;
const ADD_R = 9;
const CHILD_W = 112;
const CHILD_H = 33;
const CHILD_MARGIN = 7; // a child box's distance from its parent's right and bottom edges
const NOTE_H = 24;
const TITLE_H = 26;
/** The largest side of a matrix drawn inside a box. */
export const CHIP_MAX = 24;
const CHIP_MIN = 3;
/** Under a box's text rows: to the matrices' tops; from their tops to the box's bottom (their names underneath). */
const CHIP_GAP = 6;
const CHIP_BOTTOM = CHIP_MAX + 20;

/**
 * The matrices of one part, as the Report's components give them: [{ name, rows, cols, tied }],
 * two-dimensional tensors only (biases and gains are vectors: listed in the details, not drawn).
 */
export function partMatrices(report, key) {
  return report.components
    .filter((c) => c.part === key && c.shape.length === 2)
    .map((c) => ({
      // W_Q, W_gate, …; a table is named by its shape in symbols instead ("V×d")
      name: /^W_/.test(c.name) ? c.name.replace(/\s*\(each expert\)$/, '') : c.shape_symbols.join('×'),
      rows: c.shape[0],
      cols: c.shape[1],
      tied: c.tied,
    }));
}

/**
 * The diagram's items in reading order, which is also the keyboard order of the selectable ones.
 * Parts with weights come from report.parts, in the Report's order: the parts before the first
 * per-block part are the embeddings, the per-block parts form the opened block, the rest the head.
 * Parameter-free parts are added where they act; `t` words the labels (English by default). Each item:
 *   { key, label, section: 'embed'|'stream'|'block'|'after'|'head', kind: 'box'|'child'|'add'|'line'|'note',
 *     selectable, group?, part? (the Report's part), parent? (for a box drawn inside another),
 *     matrices? }
 */
export function diagramItems(report, t = translator('en')) {
  const { parts, config } = report;
  const items = [];
  const firstBlock = parts.findIndex((p) => p.per_block);
  const lastBlock = parts.findLastIndex((p) => p.per_block);
  const embed = firstBlock < 0 ? parts : parts.slice(0, firstBlock);
  const block = firstBlock < 0 ? [] : parts.slice(firstBlock, lastBlock + 1);
  const head = firstBlock < 0 ? [] : parts.slice(lastBlock + 1);

  const partItem = (p, section) => ({
    key: p.part,
    label: partLabel(p, t),
    section,
    kind: 'box',
    selectable: true,
    group: p.group,
    part: p,
    matrices: partMatrices(report, p.part),
  });
  const freeItem = (key, section, kind, extra = {}) => ({
    key,
    label: freePartLabel(key, config, t),
    section,
    kind,
    selectable: true,
    ...extra,
  });

  for (const p of embed) items.push(partItem(p, 'embed'));
  if (config.positions === 'rotary' && !parts.some((p) => p.part === 'position_table')) {
    items.push({ key: 'rotary_note', label: rotaryNote(t), section: 'embed', kind: 'note', selectable: false });
  }
  items.push(freeItem('stream', 'stream', 'line'));

  for (const p of block) {
    items.push(partItem(p, 'block'));
    if (p.part === 'attention') {
      items.push(freeItem('scores', 'block', 'child', { parent: 'attention' }));
      items.push(freeItem('attention_add', 'block', 'add'));
    } else if (p.part === 'feed_forward') {
      items.push(freeItem('activation', 'block', 'child', { parent: 'feed_forward', text: activationName(config) }));
      items.push(freeItem('feed_forward_add', 'block', 'add'));
    }
  }
  if (config.n_layers > 1) {
    items.push({ key: 'more_blocks', label: moreBlocksNote(config.n_layers - 1, t), section: 'after', kind: 'note', selectable: false });
  }

  for (const p of head) items.push(partItem(p, 'head'));
  items.push(freeItem('logits', 'head', 'box'));
  return items;
}

/** The selectable items' keys, in keyboard order. */
export function keyboardOrder(items) {
  return items.filter((it) => it.selectable).map((it) => it.key);
}

/**
 * Where an arrow key moves the focus in a list of `count` parts: Down/Right to the next, Up/Left
 * to the previous (stopping at the ends), Home and End to the first and last. null for other keys.
 */
export function nextIndex(count, index, key) {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowDown':
    case 'ArrowRight':
      return Math.min(index + 1, count - 1);
    case 'ArrowUp':
    case 'ArrowLeft':
      return Math.max(index - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * One box `width` units wide: its text (boxText: label lines and note), where its matrices start
 * (`chipTop`, below its top) and its height: one text row alone is PLAIN; matrices add a row of
 * chips with their names; a box drawn inside it (the scores, the activation) sits at its bottom
 * right, beside the matrices where they leave room, else under them.
 */
function boxPlan(item, items, width, notesOf) {
  if (item.kind === 'add') return { h: ADD_H };
  const text = boxText(item.label, item.kind === 'box' ? notesOf(item) : [], width);
  const textBottom = rowBaseline(text.rows - 1) + 4;
  const chipTop = rowBaseline(text.rows - 1) + CHIP_GAP;
  const matrices = item.matrices ?? [];
  const child = items.some((c) => c.parent === item.key);
  if (matrices.length === 0 && !child) return { h: rowBaseline(text.rows - 1) + 12, text, chipTop };
  let h = matrices.length ? chipTop + CHIP_BOTTOM : textBottom;
  if (child) {
    const chips = layoutMatrices(matrices, { x: 0, y: 0 }, chipTop);
    const used = chips.length ? Math.max(...chips.map((c) => c.labelX + Math.max(c.w, textWidth(c.name, FONT_SMALL)))) : 0;
    const beside = matrices.length > 0 && used + 10 <= width - CHILD_MARGIN - CHILD_W && h - CHILD_MARGIN - CHILD_H >= textBottom;
    if (!beside) h = (matrices.length ? chipTop + CHIP_MAX + 21 : textBottom) + CHILD_H + CHILD_MARGIN;
  }
  return { h, text, chipTop };
}

/**
 * Matrices drawn to scale inside a box: each as a rectangle `rows` tall and `cols` wide, the
 * part's largest dimension CHIP_MAX units, none thinner than CHIP_MIN, left to right with room for
 * its name underneath, from `chipTop` below the box's top. Returns [{ name, tied, x, y, w, h, labelX, labelY }].
 */
export function layoutMatrices(matrices, box, chipTop = rowBaseline(0) + CHIP_GAP) {
  if (matrices.length === 0) return [];
  const largest = Math.max(...matrices.flatMap((m) => [m.rows, m.cols]));
  let x = box.x + 10;
  const top = box.y + chipTop;
  return matrices.map((m) => {
    const w = Math.max(CHIP_MIN, (m.cols / largest) * CHIP_MAX);
    const h = Math.max(CHIP_MIN, (m.rows / largest) * CHIP_MAX);
    const slot = Math.max(w, textWidth(m.name, FONT_SMALL));
    const chip = { name: m.name, tied: m.tied, x, y: top, w, h, labelX: x, labelY: top + CHIP_MAX + 11 };
    x += slot + 10;
    return chip;
  });
}

/**
 * Coordinates for every item: { width, height, boxes: { key: {x, y, w, h} }, texts: { key: {lines,
 * note, rows, chipTop} } (boxText's, per box), stream: {x, y1, y2}, block: {x, y, w, h, titleY} |
 * null, notes: [{key, label, x, y}], adds: { key: {cx, cy, r} }, links: [{ points: [[x, y], …],
 * arrow }] } (the connecting lines, drawn under the boxes). `notes(item)`: a box's notes, longest
 * first ("1.54K per block", "1.54K"); none when left out.
 */
export function layoutAnatomy(items, { notes: notesOf = () => [] } = {}) {
  const boxes = {};
  const texts = {};
  const adds = {};
  const notes = [];
  const links = [];
  let y = PAD;
  const plan = (it, width) => {
    const p = boxPlan(it, items, width, notesOf);
    if (p.text) texts[it.key] = { ...p.text, chipTop: p.chipTop };
    return p.h;
  };

  // The embeddings, side by side, as tall as the tallest.
  const embed = items.filter((it) => it.section === 'embed');
  const slotW = embed.length ? (WIDTH - 2 * PAD - (embed.length - 1) * 10) / embed.length : 0;
  const embedH = Math.max(rowBaseline(0) + 12, ...embed.filter((it) => it.kind === 'box').map((it) => plan(it, slotW)));
  embed.forEach((it, i) => {
    const rect = { x: PAD + i * (slotW + 10), y, w: slotW, h: embedH };
    if (it.kind === 'note') notes.push({ key: it.key, label: it.label, ...rect, framed: true });
    else boxes[it.key] = rect;
  });
  y += embedH;
  const joinY = y + 12;
  const feeding = embed.filter((it) => it.kind === 'box').map((it) => boxes[it.key]);
  for (const b of feeding) links.push({ points: [[b.x + b.w / 2, b.y + b.h], [b.x + b.w / 2, joinY]], arrow: false });
  if (feeding.length) {
    const far = Math.max(...feeding.map((b) => b.x + b.w / 2));
    if (far > STREAM_X) links.push({ points: [[far, joinY], [STREAM_X, joinY]], arrow: false });
  }
  y = joinY + 12;

  // The opened block.
  const inBlock = items.filter((it) => it.section === 'block');
  let block = null;
  if (inBlock.length) {
    block = { x: BLOCK_X, y, w: BLOCK_RIGHT - BLOCK_X, h: 0, titleY: y + 17 };
    y += TITLE_H;
    let sublayer = []; // the boxes since the last add
    for (const it of inBlock) {
      if (it.kind === 'child') continue;
      const h = plan(it, BOX_W);
      if (it.kind === 'add') {
        adds[it.key] = { cx: STREAM_X, cy: y + h / 2, r: ADD_R };
        if (sublayer.length) {
          const last = sublayer[sublayer.length - 1];
          const cx = last.x + last.w / 2;
          links.push({ points: [[cx, last.y + last.h], [cx, y + h / 2], [STREAM_X + ADD_R, y + h / 2]], arrow: true });
        }
        sublayer = [];
      } else {
        const rect = { x: BOX_X, y, w: BOX_W, h };
        boxes[it.key] = rect;
        if (sublayer.length === 0) {
          links.push({ points: [[STREAM_X, y + 15], [BOX_X, y + 15]], arrow: true });
        } else {
          const prev = sublayer[sublayer.length - 1];
          links.push({ points: [[prev.x + prev.w / 2, prev.y + prev.h], [prev.x + prev.w / 2, y]], arrow: true });
        }
        sublayer.push(rect);
      }
      y += h + ROW_GAP;
    }
    y += 2;
    block.h = y - block.y;
    y += 8;
  }

  // Boxes drawn inside another: at its bottom right.
  for (const it of items.filter((c) => c.kind === 'child')) {
    const p = boxes[it.parent];
    if (!p) continue;
    boxes[it.key] = { x: p.x + p.w - CHILD_MARGIN - CHILD_W, y: p.y + p.h - CHILD_MARGIN - CHILD_H, w: CHILD_W, h: CHILD_H };
  }

  for (const it of items.filter((c) => c.section === 'after')) {
    notes.push({ key: it.key, label: it.label, x: BLOCK_X, y, w: BLOCK_RIGHT - BLOCK_X, h: NOTE_H, framed: false });
    y += NOTE_H + ROW_GAP;
  }

  // The final norm, the output head and the logits, across the full width.
  const headTop = y;
  let prev = null;
  for (const it of items.filter((c) => c.section === 'head')) {
    const w = WIDTH - 2 * PAD;
    const rect = { x: PAD, y, w, h: plan(it, w) };
    boxes[it.key] = rect;
    if (prev) links.push({ points: [[STREAM_X, prev.y + prev.h], [STREAM_X, y]], arrow: true });
    prev = rect;
    y += rect.h + ROW_GAP;
  }
  y -= ROW_GAP;

  const stream = { x: STREAM_X, y1: joinY, y2: headTop };
  return { width: WIDTH, height: y + PAD, boxes, texts, adds, notes, links, stream, block };
}

/** The triangle of an arrowhead at the end of the segment from `from` to `to`: three points. */
export function arrowHead(from, to, size = 6) {
  const [x0, y0] = from;
  const [x1, y1] = to;
  const len = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const bx = x1 - ux * size;
  const by = y1 - uy * size;
  return [
    [x1, y1],
    [bx - uy * (size / 2), by + ux * (size / 2)],
    [bx + uy * (size / 2), by - ux * (size / 2)],
  ];
}
