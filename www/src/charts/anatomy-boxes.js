// The text inside one box of the anatomy diagram: its label in as many lines as the box's width
// needs, and its note ("2.36M per block", "tied: the token table") on the label's row where both
// fit, else on a row of its own under the label. Pure (no DOM): the layout (anatomy-layout.js) sizes
// each box from it, the diagram (elements/anatomy-diagram.js) draws it.
//
//   boxText('Norm before the feed-forward', ['1.54K per block', '1.54K'], 200)
//     -> { lines: ['Norm before the feed-forward'], note: { text: '1.54K', row: 1 }, rows: 2 }

/** Text sizes in the diagram's units: drawn at 1:1 in a phone's narrowest box (fit.js' TEXT_PX). */
export const FONT_LABEL = 11;
export const FONT_SMALL = 11;

/** A row of text: the first row's baseline is FIRST_BASELINE below the box's top, the next ROW below. */
export const FIRST_BASELINE = 18;
export const ROW = 14;

/** Room left and right of a box's text (10 units each side), and between a label and its note. */
const INSET = 20;
const BETWEEN = 8;

/** Characters drawn a full em wide: Chinese, Japanese and Korean ideographs and kana, full-width punctuation. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/gu;

/** A rough width of `text` at `size` in the diagram's sans-serif (for fitting, not measuring). */
export function textWidth(text, size = FONT_LABEL) {
  const str = String(text);
  const wide = str.match(WIDE)?.length ?? 0;
  return (str.length - wide) * size * 0.58 + wide * size;
}

/** `text` cut at spaces into lines no wider than `width` (a word wider than that has a line of its own). */
export function wrapLines(text, width, size = FONT_LABEL) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A box `width` units wide: its label's lines, and the first of `notes` (longest first) that fits
 * beside a one-line label (row 0), else the first that fits a row of its own (row = the label's
 * lines), else none. `rows`: the text rows the box needs.
 */
export function boxText(label, notes, width) {
  const lines = wrapLines(label, width - INSET);
  const beside = lines.length === 1 ? notes.find((note) => textWidth(lines[0]) + BETWEEN + textWidth(note, FONT_SMALL) <= width - INSET) : undefined;
  if (beside !== undefined) return { lines, note: { text: beside, row: 0 }, rows: 1 };
  const own = notes.find((note) => textWidth(note, FONT_SMALL) <= width - INSET);
  if (own !== undefined) return { lines, note: { text: own, row: lines.length }, rows: lines.length + 1 };
  return { lines, note: null, rows: lines.length };
}

/** The baseline of text row `row` (0 first) below a box's top. */
export function rowBaseline(row) {
  return FIRST_BASELINE + row * ROW;
}
