// Square maps and text strips drawn on <canvas>, painted when on screen: a map's cells filled by
// palette class (the layout of attention-map.js), a dashed outline (the masked triangle), a frame,
// one marked row, and the characters along the top and down the side; a strip is the text with a
// bar under each character in the shade of its weight. A canvas redraws without laying anything
// out, so typing can redraw two dozen maps a keystroke. The characters are drawn once per text into
// images every map of the same cell size shares. Colours and the font are the theme's: read from the
// CSS of the palette classes in the map's own scope, once per widget and again when the colour scheme
// changes.

import { LEVELS, levelClass } from './heatmap.js';
import { WEIGHT_CLASSES } from './attention-map.js';
import { farFromView } from '../far-from-view.js';

/** The palette classes a map may fill cells with: the weight shades and the heatmap's levels. */
const CLASSES = [...WEIGHT_CLASSES, ...Array.from({ length: 2 * LEVELS + 1 }, (_, i) => levelClass(i - LEVELS))];

const NS = 'http://www.w3.org/1999/xhtml';
/** The labels' size in px: no text on the page is smaller. */
export const LABEL_PX = 11;

// The maps on the page, held weakly (the widget holds each map object it draws with): when the
// colour scheme changes, each that is still alive redraws in the new colours, and a released
// widget's maps are simply collected (their entries swept out as the set grows).
const maps = new Set();
const sweep = () => {
  for (const ref of maps) if (!ref.deref()) maps.delete(ref);
};
globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
  palettes = new WeakMap();
  sweep();
  for (const ref of maps) ref.deref()?.redraw();
});
function follow(map) {
  if (typeof WeakRef !== 'function') return;
  if (maps.size > 256) sweep();
  maps.add(new WeakRef(map));
}

// The palette of each root the maps are drawn in (a widget's shadow root, whose sheet defines the
// classes): read once for all its maps, as reading appends a probe and asks for its computed style
// (two dozen maps read it 57 ms on a phone); read again once the colour scheme changes.
let palettes = new WeakMap();
function paletteOf(canvas) {
  const root = canvas.getRootNode();
  if (!palettes.has(root)) palettes.set(root, readPalette(canvas.parentNode));
  return palettes.get(root);
}

/** The computed colour of each palette class (and fg, muted, rule, the mono font) inside `scope`. */
export function readPalette(scope) {
  const probe = document.createElementNS(NS, 'span');
  probe.style.position = 'absolute';
  probe.style.visibility = 'hidden';
  scope.append(probe);
  const colours = {};
  const style = getComputedStyle(probe);
  for (const cls of CLASSES) {
    probe.className = cls;
    colours[cls] = style.backgroundColor;
  }
  for (const name of ['fg', 'muted', 'rule']) {
    probe.className = `map-${name}`;
    colours[name] = style.color;
  }
  colours.font = `${LABEL_PX}px ${style.fontFamily}`;
  probe.remove();
  return colours;
}

// Label images by text, cell size, gutter, colour and pixel ratio: drawn once, drawn from by every
// map. The few kept are recycled for the next text (a canvas and its context are not made again).
const labelImages = new Map();
const KEPT_LABELS = 8;

/** A canvas image of `w` × `h` CSS px for text: reused from `old` when there is one. */
function textImage(old, w, h, palette, dpr) {
  const image = old ?? { canvas: document.createElementNS(NS, 'canvas') };
  const [pw, ph] = [Math.max(1, Math.round(w * dpr)), Math.max(1, Math.round(h * dpr))];
  if (image.canvas.width !== pw || image.canvas.height !== ph) [image.canvas.width, image.canvas.height] = [pw, ph];
  image.ctx ??= image.canvas.getContext('2d');
  const ctx = image.ctx;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.font = palette.font;
  ctx.fillStyle = palette.muted;
  ctx.textBaseline = 'middle';
  return image;
}

/** The characters of `texts` in a row (cols: `gutter.top` high) and a column (rows: `gutter.left` wide), `cell` px each. */
function labels(texts, cell, gutter, palette, dpr) {
  const key = [cell, gutter.left, gutter.top, palette.muted, palette.font, dpr, ...texts].join('\u0000');
  let images = labelImages.get(key);
  if (images) return images;
  let old = null;
  if (labelImages.size >= KEPT_LABELS) {
    const [first] = labelImages.keys();
    old = labelImages.get(first);
    labelImages.delete(first);
  }
  const n = texts.length;
  const cols = textImage(old?.cols, n * cell, gutter.top, palette, dpr);
  cols.ctx.textAlign = 'center';
  texts.forEach((t, i) => cols.ctx.fillText(t, i * cell + cell / 2, gutter.top / 2 + 1));
  const rows = textImage(old?.rows, Math.max(1, gutter.left), n * cell, palette, dpr);
  rows.ctx.textAlign = 'right';
  if (gutter.left > 0) texts.forEach((t, i) => rows.ctx.fillText(t, gutter.left - 3, i * cell + cell / 2 + 1));
  images = { cols, rows };
  labelImages.set(key, images);
  return images;
}

/** A canvas with the given attributes, sized at each paint to `w` × `h` CSS px at the screen's pixel ratio. */
function canvasOf(attrs) {
  const canvas = document.createElementNS(NS, 'canvas');
  for (const [k, v] of Object.entries(attrs)) canvas.setAttribute(k, String(v));
  let sized = '';
  let ctx = null;
  const dpr = () => globalThis.devicePixelRatio || 1;
  return {
    canvas,
    /** Sized to `w` × `h` CSS px (if that changed), painted or not: its box never waits on a paint. */
    resize(w, h) {
      const key = `${w}x${h}x${dpr()}`;
      if (key === sized) return;
      sized = key;
      canvas.width = Math.round(w * dpr());
      canvas.height = Math.round(h * dpr());
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
    },
    /** The 2D context, cleared, its units CSS px (resized first if `w` × `h` changed). */
    context(w, h) {
      ctx ??= canvas.getContext('2d');
      this.resize(w, h);
      ctx.setTransform(dpr(), 0, 0, dpr(), 0, 0);
      ctx.clearRect(0, 0, w, h);
      return ctx;
    },
    dpr,
  };
}

// Which canvases are on (or near) the screen. A map off screen is not painted when its spec changes,
// only marked; it is painted when it scrolls into view (what content-visibility: auto does for a
// box), so typing pays for the maps a reader can see. Until the observer has said, a canvas counts
// as on screen, unless its widget is going live far from the screen (far-from-view.js).
const offScreen = new WeakSet();
const reported = new WeakSet(); // canvases the observer has said something of
const stale = new WeakMap(); // canvas -> its paint, waiting for the canvas to come into view
let observer = null;
function watch(canvas) {
  if (typeof IntersectionObserver !== 'function') return;
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        reported.add(e.target);
        if (!e.isIntersecting) {
          offScreen.add(e.target);
          continue;
        }
        offScreen.delete(e.target);
        const paint = stale.get(e.target);
        stale.delete(e.target);
        paint?.();
      }
    },
    { rootMargin: '50% 0px' },
  );
  observer.observe(canvas);
}

/**
 * A canvas drawn from a spec by `paint(spec, palette)`, drawn again when the colour scheme changes:
 * { canvas, draw(spec), redraw() }. Whoever draws holds it (the colour-scheme list holds it weakly).
 * `sized(spec)` sizes it for the spec at once, whether or not it is painted now (one off screen is
 * painted when it scrolls into view), so its box is the same whenever it is read.
 */
function redrawable(canvas, paint, sized = () => {}) {
  let last = null;
  const now = () => paint(last, paletteOf(canvas));
  const draw = (spec) => {
    last = spec;
    sized(spec);
    if (!canvas.isConnected) return queueMicrotask(() => canvas.isConnected && last === spec && draw(spec));
    if (offScreen.has(canvas) || (!reported.has(canvas) && farFromView.has(canvas.getRootNode().host))) return stale.set(canvas, now);
    stale.delete(canvas);
    now();
  };
  const it = {
    canvas,
    draw,
    redraw() {
      if (last) draw(last);
    },
  };
  follow(it);
  watch(canvas);
  return it;
}

/**
 * A map: `attrs` the canvas's attributes (role, aria-…). draw({ texts, context, cell, gutter, cells,
 * dimmed, masked, row }): the characters `texts` along the top and down the side (room for `context`
 * of them), each class's cells ({ class: [x, y, x, y, …] }; `dimmed` ones faintly), the `masked`
 * outline dashed, a frame round the texts' cells and row `row` (null: none) marked.
 */
export function mapCanvas(attrs) {
  const c = canvasOf(attrs);
  const box = ({ texts, cell, gutter, context }) => {
    const side = Math.max(context, texts.length) * cell;
    return [gutter.left + side, gutter.top + side];
  };
  return redrawable(
    c.canvas,
    (spec, palette) => {
      const { texts, cell, gutter } = spec;
      const ctx = c.context(...box(spec));
      const images = labels(texts, cell, gutter, palette, c.dpr());
      ctx.drawImage(images.cols.canvas, gutter.left, 0, texts.length * cell, gutter.top);
      ctx.drawImage(images.rows.canvas, 0, gutter.top, gutter.left, texts.length * cell);
      ctx.translate(gutter.left, gutter.top);
      for (const [cells, alpha] of [
        [spec.cells, 1],
        [spec.dimmed ?? {}, 0.3],
      ]) {
        ctx.globalAlpha = alpha;
        for (const [cls, list] of Object.entries(cells)) {
          ctx.fillStyle = palette[cls];
          for (let i = 0; i < list.length; i += 2) ctx.fillRect(list[i], list[i + 1], cell, cell);
        }
      }
      ctx.globalAlpha = 1;
      const n = texts.length * cell;
      if (spec.masked) {
        ctx.setLineDash([2, 2]);
        ctx.lineWidth = 1;
        ctx.strokeStyle = palette.muted;
        ctx.stroke(new Path2D(spec.masked));
        ctx.setLineDash([]);
      }
      ctx.lineWidth = 1;
      ctx.strokeStyle = palette.rule;
      ctx.strokeRect(0.5, 0.5, n - 1, n - 1);
      if (spec.row !== null && spec.row !== undefined) {
        ctx.lineWidth = 1.5;
        ctx.strokeStyle = palette.fg;
        ctx.strokeRect(0.75, spec.row * cell + 0.75, n - 1.5, cell - 1.5);
      }
    },
    (spec) => c.resize(...box(spec)),
  );
}

/**
 * A line of text with a bar under each character: draw({ texts, context, cell, gutter, bars: [class or
 * null (not visible: no bar, the character faint)], marked }) — `marked` the query's character, boxed.
 */
export function stripCanvas(attrs) {
  const c = canvasOf(attrs);
  const BAR = 4;
  const box = ({ texts, cell, gutter, context }) => [Math.max(context, texts.length) * cell, gutter.top + BAR + 1];
  return redrawable(
    c.canvas,
    (spec, palette) => {
      const { texts, cell } = spec;
      const gutter = spec.gutter; // the maps' own, so the strips draw from the same images
      const ctx = c.context(...box(spec));
      const images = labels(texts, cell, gutter, palette, c.dpr());
      const visible = spec.bars.findLastIndex((b) => b !== null) + 1;
      const r = c.dpr();
      if (visible > 0) ctx.drawImage(images.cols.canvas, 0, 0, visible * cell * r, gutter.top * r, 0, 0, visible * cell, gutter.top);
      ctx.globalAlpha = 0.45;
      const rest = (texts.length - visible) * cell;
      if (rest > 0) ctx.drawImage(images.cols.canvas, visible * cell * r, 0, rest * r, gutter.top * r, visible * cell, 0, rest, gutter.top);
      ctx.globalAlpha = 1;
      spec.bars.forEach((cls, k) => {
        if (!cls) return;
        ctx.fillStyle = palette[cls];
        ctx.fillRect(k * cell + 1, gutter.top, cell - 2, BAR);
      });
      if (spec.marked !== null && spec.marked !== undefined) {
        ctx.lineWidth = 1;
        ctx.strokeStyle = palette.fg;
        ctx.strokeRect(spec.marked * cell + 0.5, 0.5, cell - 1, gutter.top + BAR);
      }
    },
    (spec) => c.resize(...box(spec)),
  );
}
