// How every chart fits the width it gets, as pure functions (no DOM). A chart is laid out once, in
// fractions of its plot's width and in CSS px down the page, and never scaled: its text is set at
// TEXT_PX whatever the width. What changes with the width is chosen by CSS container queries on the
// chart's box (charts/frame.js), so the prerendered markup, a page without JavaScript and the live
// widget show the same thing at every width:
//
//   range 0: a box under 420 px (a phone: the chart box of a 320 px screen is about 250 px wide)
//   range 1: 420 to 640 px; range 2: 640 px and wider
//
// Each tick label says from which range on it is shown (`from`): fitTicks keeps, in each range,
// every 1st, 2nd, 4th … tick so that the labels do not touch at the narrowest width of that range.
//
//   const ticks = fitTicks([{ at: 0, text: '0' }, { at: 0.5, text: '300' }, …], plotWidths(margin));

/** Where each range starts: the chart box's width in CSS px (frame.js writes the same queries). */
export const BREAKPOINTS = [0, 420, 640];

/** The narrowest chart box each range is laid out for (range 0: a 320 px screen's column). */
export const NARROWEST = [240, 420, 640];

/** The size of a chart's text, in CSS px: the page's smallest. */
export const TEXT_PX = 11;

/** Units across the stretched <svg> a curve is drawn in (frame.js): x = fraction × STRETCH_WIDTH. */
export const STRETCH_WIDTH = 1000;

/** The space kept between two labels side by side, in px. */
const GAP_PX = 8;

/** Room a label at the plot's right takes beyond its text: 4 px from the line's end, 4 to spare. */
const LABEL_ROOM_PX = 8;

/**
 * An upper bound of `text`'s width at `px`, in px, without a font at hand: a CJK character takes
 * a full em, a narrow one (space, comma, point, thin spaces) a third, any other 0.62 em (Latin
 * digits and letters of the system sans-serif are 0.5 to 0.6 em).
 */
export function textWidth(text, px = TEXT_PX) {
  let em = 0;
  for (const c of String(text)) {
    const code = c.codePointAt(0);
    em += code >= 0x2e80 ? 1 : /[\s.,'’:;|!il]/u.test(c) ? 0.34 : 0.62;
  }
  return em * px;
}

/** A fraction of the plot's width as an SVG length: 0.25 -> "25%". */
export function pct(fraction) {
  return `${Math.round(fraction * 1e5) / 1e3}%`;
}

/**
 * The right margin in each range ([range 0, range 1, range 2], px) for labels at the plot's right
 * (`texts`): from range 1 on as wide as the longest, at least `least`; in range 0, where they go
 * under the chart (frame.js' lineLabelsUnder), `least`.
 */
export function labelMargins(texts, least) {
  const room = Math.ceil(Math.max(least, ...texts.map((text) => LABEL_ROOM_PX + textWidth(text))));
  return [least, room, room];
}

/** The plot's width in px at each range's narrowest box, for margins { left, right: [r0, r1, r2] }. */
export function plotWidths({ left, right }) {
  return (range) => NARROWEST[range] - left - right[range];
}

/**
 * Whether labels centred at `at` × width, every `stride`-th of them, leave GAP_PX between each other.
 */
function fits(ticks, stride, width) {
  let lastRight = -Infinity;
  for (let i = 0; i < ticks.length; i += stride) {
    const half = textWidth(ticks[i].text) / 2;
    const centre = ticks[i].at * width;
    if (centre - half < lastRight + GAP_PX) return false;
    lastRight = centre + half;
  }
  return true;
}

/**
 * The ticks of one axis, each with `from`: the first range (0, 1 or 2) whose narrowest plot shows
 * it. `ticks`: [{ at, text, … }] in increasing `at` (0..1 of the plot); `plotWidth(range)`: the
 * plot's width in px at that range's narrowest box. Every range keeps every 1st, 2nd, 4th … tick
 * counted from the first, so a tick shown in a narrow box is shown in every wider one; ticks that
 * even the widest box cannot show are left out.
 */
export function fitTicks(ticks, plotWidth) {
  const from = ticks.map(() => null);
  for (let range = NARROWEST.length - 1; range >= 0; range--) {
    const width = plotWidth(range);
    let stride = 1;
    while (stride < ticks.length && !fits(ticks, stride, width)) stride *= 2;
    for (let i = 0; i < ticks.length; i += stride) from[i] = range;
  }
  return ticks.map((tick, i) => ({ ...tick, from: from[i] })).filter((tick) => tick.from !== null);
}

/**
 * Per range, a label's text: the longest of `texts` (longest first) whose width fits `room(range)`
 * px, else the last. Returns [{ text, from, upTo }]: each text shown from range `from` through range
 * `upTo` (the renderer draws one element per text and hides the others by class).
 */
export function fitText(texts, room) {
  const chosen = NARROWEST.map((_, range) => texts.find((text) => textWidth(text) <= room(range)) ?? texts.at(-1));
  const out = [];
  for (const [range, text] of chosen.entries()) {
    const last = out.at(-1);
    if (last && last.text === text) last.upTo = range;
    else out.push({ text, from: range, upTo: range });
  }
  return out;
}

/**
 * Lines' labels ({ y, … }) at least a line of text apart: each gets `labelY`, pushed down from the
 * one above it. Returns the lines in the order given.
 */
export function nudged(lines, apart = 13) {
  const top = [...lines].sort((a, b) => a.y - b.y);
  for (const [i, l] of top.entries()) l.labelY = i === 0 ? l.y : Math.max(l.y, top[i - 1].labelY + apart);
  return lines;
}
