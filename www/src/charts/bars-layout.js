// Layout for a chart of one slot per block (or per stack), each holding a bar or a group of bars,
// with horizontal lines across it (the ablation: each block's loss, the intact loss, the uniform
// guess; the stream: attention's and the feed-forward's shares side by side; the latency: one bar a
// stack), as a pure function of numbers the wasm returned. No DOM, no model arithmetic. Laid out
// once for every width in the chart frame's units (charts/frame.js: x a fraction of the plot, y px).
//
//   const layout = blockBarsLayout({ values: [4.66, 4.25, null, ...], lines: [{ key: 'intact', value: 1.92, text: 'intact 1.92' }],
//                                    labels: [['block 0', '0'], …], yText: (v) => v.toFixed(1) });
//
// A value that is not there yet (null) gets no bar, only its slot. Each slot's label is the longest
// of its wordings that fits the slot in each range (fit.js); where even the shortest does not (64
// experts in a phone's box), every 2nd, 4th … slot keeps its label, as an axis thins its ticks. A
// bar's own figure above it (`valueText`) shows where it fits its slot. The lines' labels sit at the
// right of the plot from range 1 on and under the chart in a phone's box (frame.js' lineLabelsUnder).

import { linearScale } from './cost-layout.js';
import { roundTicks } from './loss-layout.js';
import { fitText, fitTicks, labelMargins, nudged, plotWidths, textWidth } from './fit.js';

/** The widest a bar (or a group's bar) gets, as a fraction of the plot. */
const MAX_BAR = 0.12;

/** The left margin with the y axis and its labels, and without (`axis: false`), in px. */
const AXIS_LEFT = 44;
const NO_AXIS_LEFT = 12;

/**
 * `values`: one number (or null) a slot; or `groups`: an array of numbers (or nulls) a slot, drawn
 * side by side. `lines`: [{ key, value, text }]. `labels`: a slot's wordings, longest first (and
 * `sublabels`, a second row under them, likewise). `yText(value)` words a tick. `nice`: an axis
 * that ends at the first round tick above the tallest value (else whole units with a quarter to
 * spare, for losses); `least`: the axis reaches at least this. `axis: false`: no y axis (the bars
 * carry their figures, `valueText(value)`, above them).
 */
export function blockBarsLayout({ values, groups = null, lines = [], labels = [], sublabels = null, yText = String, valueText = null, axis = true, nice = false, least = 0, height = 220, top: marginTop = 10 }) {
  const slots = groups ?? values.map((v) => [v]);
  const n = Math.max(1, slots.length);
  const shownLines = lines.filter((l) => Number.isFinite(l.value));
  const margin = { left: axis ? AXIS_LEFT : NO_AXIS_LEFT, right: labelMargins(shownLines.map((l) => l.text), 12), top: marginTop, bottom: sublabels ? 48 : 34 };
  const known = [...slots.flat(), ...shownLines.map((l) => l.value)].filter(Number.isFinite);
  const max = Math.max(least, 0, ...known);
  const axisTop = nice ? (max > 0 ? roundTicks(0, max * 1.1, 4).filter((t) => t >= max).concat([max * 1.1])[0] : 1) : Math.max(1, Math.ceil(max + 0.25));
  const y = linearScale([0, axisTop], [height - margin.bottom, margin.top]);

  const slot = 1 / n;
  const per = slots[0]?.length ?? 1;
  const barWidth = Math.min(MAX_BAR / per, (0.7 * slot) / per);
  const plotWidth = plotWidths(margin);
  const room = (range) => plotWidth(range) * slot - 4;
  const partRoom = (range) => (plotWidth(range) * slot) / per - 2;
  const bars = [];
  const slotsOut = slots.map((group, i) => {
    const at = slot * (i + 0.5);
    group.forEach((value, part) => {
      const ready = Number.isFinite(value);
      const yTop = ready ? round1(y.map(value)) : null;
      const figure = ready && valueText ? fitText([valueText(value), ''], partRoom).filter((l) => l.text !== '') : [];
      bars.push({ index: i, part, value, ready, x: at - (per * barWidth) / 2 + part * barWidth, width: barWidth, y: yTop, height: ready ? round1(y.map(0) - yTop) : 0, figure });
    });
    return { index: i, at, labels: labels[i] ? fitText(labels[i], room) : [], sublabels: sublabels?.[i] ? fitText(sublabels[i], room) : [] };
  });
  thinned(slotsOut, 'labels', labels, room, plotWidth);
  if (sublabels) thinned(slotsOut, 'sublabels', sublabels, room, plotWidth);
  return {
    height,
    margin,
    y,
    axis,
    yTicks: axis ? roundTicks(0, axisTop, 4).map((value) => ({ value, y: round1(y.map(value)), text: yText(value) })) : [],
    slots: slotsOut,
    bars,
    lines: nudged(shownLines.map((l) => ({ ...l, y: round1(y.map(l.value)) }))),
  };
}

/**
 * Where some slot's shortest wording (the last of `wordings[i]`) overflows its slot in a phone's
 * box, the slots' labels (`key`) thinned as an axis's ticks are (fitTicks on the shortest
 * wordings): each shown only from the range its slot keeps a label in; one no range keeps is left out.
 */
function thinned(slots, key, wordings, room, plotWidth) {
  const shortest = slots.map((_, i) => wordings[i]?.at(-1));
  if (shortest.every((text) => text === undefined || textWidth(text) <= room(0))) return;
  const kept = fitTicks(slots.map((slot, i) => ({ at: slot.at, text: shortest[i] ?? '', i })), plotWidth);
  const from = new Map(kept.map((tick) => [tick.i, tick.from]));
  for (const [i, slot] of slots.entries()) {
    slot[key] = from.has(i) ? slot[key].map((l) => ({ ...l, from: Math.max(l.from, from.get(i)) })).filter((l) => l.from <= l.upTo) : [];
  }
}

function round1(v) {
  return Math.round(v * 10) / 10;
}
